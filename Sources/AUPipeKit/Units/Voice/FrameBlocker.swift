/// Cuts a stream into whole frames for DSP that only works on fixed frames (speexdsp's echo
/// canceller and preprocessor), and puts the output back together with the input's exact length
/// and the DSP's own latency removed.
///
/// Frames are processed as soon as one is complete. Output frames go through `emit`, which
/// first drops `latency` frames (the DSP's delay, e.g. the preprocessor's one frame) and never
/// writes more than came in; at the end, `finish` pads the last frame with zeros and runs zero
/// frames until every input frame has its output.
final class FrameBlocker {
    /// Frames per DSP frame, and interleaved channels of the input and of the output.
    let frameFrames: Int
    let channels: Int
    let outputChannels: Int
    /// The frame being filled, in the input's interleaved layout.
    let frame: UnsafeMutablePointer<Float>
    /// Where the DSP writes one frame of output.
    let frameOut: UnsafeMutablePointer<Float>
    private(set) var filled = 0
    /// Output frames still to drop (the DSP's latency), input frames seen, output frames written.
    private var skip: Int
    /// The DSP's latency in frames.
    let latency: Int
    private(set) var framesIn: Int64 = 0
    private var framesOut: Int64 = 0

    init(frameFrames: Int, channels: Int, outputChannels: Int, latency: Int) {
        self.frameFrames = frameFrames
        self.channels = channels
        self.outputChannels = outputChannels
        skip = latency
        self.latency = latency
        frame = .allocate(capacity: frameFrames * channels)
        frame.initialize(repeating: 0, count: frameFrames * channels)
        frameOut = .allocate(capacity: frameFrames * outputChannels)
        frameOut.initialize(repeating: 0, count: frameFrames * outputChannels)
    }

    deinit {
        frame.deallocate()
        frameOut.deallocate()
    }

    /// The most frames `push` writes for `frames` input frames, and `finish` writes at all.
    func maxOutput(forInput frames: Int) -> Int { (frames / frameFrames + 2 + latency / frameFrames) * frameFrames }

    /// Copies what `frameOut` holds to `output` at `written`, after the latency is dropped.
    private func emit(_ output: UnsafeMutablePointer<Float>, _ written: inout Int) {
        var from = 0
        if skip > 0 {
            from = min(skip, frameFrames)
            skip -= from
        }
        let n = Int(min(Int64(frameFrames - from), framesIn - framesOut))
        guard n > 0 else { return }
        (output + written * outputChannels).update(from: frameOut + from * outputChannels, count: n * outputChannels)
        written += n
        framesOut += Int64(n)
    }

    /// Feeds `frames` frames; `process` runs on every completed frame, reading `frame` and
    /// writing `frameOut`. Returns the frames written to `output`.
    func push(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>, process: () throws -> Void) rethrows -> Int {
        framesIn += Int64(frames)
        var done = 0, written = 0
        while done < frames {
            let n = min(frameFrames - filled, frames - done)
            (frame + filled * channels).update(from: input + done * channels, count: n * channels)
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

    /// After the end: pads a part-filled frame, then runs zero frames through `process` until
    /// every input frame has its output. Returns the frames written.
    func finish(into output: UnsafeMutablePointer<Float>, process: () throws -> Void) rethrows -> Int {
        var written = 0
        while framesOut < framesIn {
            (frame + filled * channels).update(repeating: 0, count: (frameFrames - filled) * channels)
            try process()
            emit(output, &written)
            filled = 0
        }
        return written
    }
}

/// speexdsp's echo canceller and preprocessor take 16-bit samples even in its float build:
/// conversion at their edges, with aupipe's rounding (nearest, ties to even) and clipping.
enum Speex16 {
    /// Returns how many samples had to be clipped (the s16 encoder's rule: `SampleCodec.s16`).
    @discardableResult
    static func fromFloat(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Int16>, count: Int) -> Int {
        var clipped = 0
        for i in 0..<count { y[i] = SampleCodec.s16(x[i], clipped: &clipped) }
        return clipped
    }

    static func toFloat(_ y: UnsafePointer<Int16>, into x: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { x[i] = SampleCodec.float(y[i]) }
    }
}
