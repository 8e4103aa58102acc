import AUPipeFormats

/// Gathers a stream into whole frames of `frameFrames` for DSP that only works on fixed frames
/// (speexdsp's preprocessor and echo canceller, a plugin's fixed runs), and puts the output
/// back together with the input's exact length and the DSP's latency removed (`LatencyTrim`).
/// Where the frames fall depends on the stream alone, never on the blocks `process` is given,
/// so the output never depends on the block size.
///
/// A frame is processed as soon as it is complete: the caller's `process` reads `frame` and
/// writes `frameOut` (`outputChannels`), both interleaved, or one plane of `frameFrames` samples per channel (`.planar`: a plugin's ports,
/// connected once to `plane(_:)` and `outputPlane(_:)`). At the end, a part-filled frame is
/// padded with zeros and zero frames are run until every input frame has its output (`finish`,
/// or `drain` within a capacity). Everything is allocated in `init`.
public final class FixedFrames {
    /// How a frame's samples lie in `frame` and `frameOut`.
    public enum Layout: Sendable {
        /// Frame by frame, channels interleaved, as the stream.
        case interleaved
        /// Channel by channel: channel c's `frameFrames` samples at c × frameFrames.
        case planar
    }

    /// Frames per DSP frame, and channels of the input and of the output.
    public let frameFrames: Int
    public let channels: Int
    public let outputChannels: Int
    public let layout: Layout
    /// The frame being filled.
    public let frame: UnsafeMutablePointer<Float>
    /// Where the DSP writes one frame of output.
    public let frameOut: UnsafeMutablePointer<Float>
    /// Frames of `frame` filled so far.
    public private(set) var filled = 0
    /// Which output frames are kept.
    public private(set) var trim: LatencyTrim
    /// Whether the output's NaN and infinities are replaced by 0 on their way out (a plugin's
    /// output, which would poison every unit after it), counted for `takeReplaced`.
    public var replacesNonFinite = false
    /// Samples replaced since the last `takeReplaced`, and the output frame of the first.
    private var replaced = 0
    private var firstReplaced: Int64 = 0

    /// Frames of `frameFrames` (≥ 1), `channels` in and `outputChannels` out, laid out as
    /// `layout`, with `latency` output frames to drop (the DSP's delay; `setLatency` for one
    /// learned while running).
    public init(frameFrames: Int, channels: Int, outputChannels: Int, latency: Int = 0, layout: Layout = .interleaved) {
        precondition(frameFrames >= 1 && channels >= 1 && outputChannels >= 1)
        self.frameFrames = frameFrames
        self.channels = channels
        self.outputChannels = outputChannels
        self.layout = layout
        trim = LatencyTrim(latency: latency)
        frame = .allocate(capacity: frameFrames * channels)
        frame.initialize(repeating: 0, count: frameFrames * channels)
        frameOut = .allocate(capacity: frameFrames * outputChannels)
        frameOut.initialize(repeating: 0, count: frameFrames * outputChannels)
    }

    deinit {
        frame.deallocate()
        frameOut.deallocate()
    }

    /// `.planar`: channel c's plane of `frame` (c in 0..<channels); its address never changes.
    public func plane(_ c: Int) -> UnsafeMutablePointer<Float> { frame + c * frameFrames }
    /// `.planar`: channel c's plane of `frameOut` (c in 0..<outputChannels).
    public func outputPlane(_ c: Int) -> UnsafeMutablePointer<Float> { frameOut + c * frameFrames }

    /// The DSP's latency in frames (compensated).
    public var latency: Int { trim.latency }
    /// Input frames seen so far.
    public var framesIn: Int64 { trim.length }

    /// Sets the latency to compensate once the DSP reports it; call it from `process`, before
    /// the first frame's output is kept.
    public func setLatency(_ frames: Int) { trim.setLatency(frames) }

    /// The most frames `push` writes for `frames` input frames, and `finish` writes at all.
    public func maxOutput(forInput frames: Int) -> Int { (frames / frameFrames + 2 + latency / frameFrames) * frameFrames }

    /// Copies what `frameOut` holds to `output` at `written`, after the latency is dropped.
    private func emit(_ output: UnsafeMutablePointer<Float>, _ written: inout Int) {
        let (from, n) = trim.keep(frameFrames)
        guard n > 0 else { return }
        let och = outputChannels
        switch layout {
        case .interleaved:
            (output + written * och).update(from: frameOut + from * och, count: n * och)
        case .planar where replacesNonFinite:
            // One pass: copied, and checked on the way.
            var bad = 0, first = n
            for c in 0..<och {
                let plane = frameOut + c * frameFrames + from
                let to = output + written * och + c
                for f in 0..<n {
                    let v = plane[f]
                    if v.isFinite { to[f &* och] = v } else { to[f &* och] = 0; bad &+= 1; first = min(first, f) }
                }
            }
            if bad > 0 {
                if replaced == 0 { firstReplaced = trim.framesOut - Int64(n) + Int64(first) }
                replaced += bad
            }
        case .planar:
            for c in 0..<och {
                let plane = frameOut + c * frameFrames + from
                let to = output + written * och + c
                for f in 0..<n { to[f &* och] = plane[f] }
            }
        }
        written += n
    }

    /// With `replacesNonFinite`: the samples replaced by 0 since the last call and the output
    /// frame of the first of them, or nil when none were.
    public func takeReplaced() -> (count: Int, firstFrame: Int64)? {
        guard replaced > 0 else { return nil }
        defer { replaced = 0 }
        return (replaced, firstReplaced)
    }

    /// Feeds `frames` frames; `process` runs on every completed frame, reading `frame` and
    /// writing `frameOut`. Returns the frames written to `output`.
    public func push(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>,
                     process: () throws -> Void) rethrows -> Int {
        trim.received(frames)
        var done = 0, written = 0
        while done < frames {
            let n = min(frameFrames - filled, frames - done)
            gather(input + done * channels, frames: n)
            filled += n
            done += n
            if filled == frameFrames {
                try process()
                emit(output, &written)
                filled = 0
            }
        }
        return written
    }

    /// Copies `n` interleaved frames from `input` into `frame` after the `filled` ones.
    @inline(__always)
    private func gather(_ input: UnsafePointer<Float>, frames n: Int) {
        let ch = channels
        switch layout {
        case .interleaved:
            (frame + filled * ch).update(from: input, count: n * ch)
        case .planar:
            for c in 0..<ch {
                let plane = frame + c * frameFrames + filled
                let from = input + c
                for f in 0..<n { plane[f] = from[f &* ch] }
            }
        }
    }

    /// Pads a part-filled frame with zeros and runs it (or a frame of zeros).
    private func runPadded(into output: UnsafeMutablePointer<Float>, _ written: inout Int, process: () throws -> Void) rethrows {
        switch layout {
        case .interleaved:
            (frame + filled * channels).update(repeating: 0, count: (frameFrames - filled) * channels)
        case .planar:
            for c in 0..<channels { (frame + c * frameFrames + filled).update(repeating: 0, count: frameFrames - filled) }
        }
        try process()
        emit(output, &written)
        filled = 0
    }

    /// After the end: pads a part-filled frame, then runs zero frames through `process` until
    /// every input frame has its output, all in one call (`output` has room for
    /// `maxOutput(forInput: 0)` frames). Returns the frames written.
    public func finish(into output: UnsafeMutablePointer<Float>, process: () throws -> Void) rethrows -> Int {
        var written = 0
        while trim.owesOutput { try runPadded(into: output, &written, process: process) }
        return written
    }

    /// After the end, for a tail longer than one call's room (a plugin's latency): as
    /// `finish`, but one frame at least and then only while another frame's output fits in
    /// `capacity` (≥ `frameFrames`); `done` once every input frame has its output.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int,
                      process: () throws -> Void) rethrows -> (frames: Int, done: Bool) {
        var written = 0
        while trim.owesOutput && (written == 0 || written + frameFrames <= capacity) {
            try runPadded(into: output, &written, process: process)
        }
        return (written, !trim.owesOutput)
    }
}
