import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The recent past of `aec`'s two inputs, in whole DSP frames: the reference's delay line,
/// long enough for the longest delay plus the history, and the 16-bit microphone frames speex
/// saw. With it the canceller can be run again over the last `capacity` frames with the
/// reference at another delay (a warm start after `delay=auto` changes the delay).
///
/// Frames are counted back from the current one: 0 is the frame being processed (its reference
/// pushed, its microphone not yet recorded), 1 the frame before it, and so on. Everything is
/// allocated in `init`; pushing, recording and reading allocate nothing.
package final class EchoHistory {
    /// Stream frames per DSP frame (≥ 1), interleaved microphone channels (≥ 1), interleaved
    /// reference (loudspeaker) channels (≥ 1), the longest delay in stream frames (≥ 0), and
    /// the history's length in DSP frames (≥ 0).
    package let frameFrames: Int, mics: Int, speakers: Int, maxDelay: Int, capacity: Int
    /// Microphone frames recorded so far, up to `capacity`: how far back a replay can start.
    package private(set) var framesHeld = 0

    /// The reference, `speakers` interleaved channels, in a ring of `referenceCount` frames =
    /// (capacity + 1) DSP frames plus `maxDelay`; `referenceWrite` is the frame the next one
    /// goes to. Zeros before the stream's start.
    private let reference: UnsafeMutablePointer<Float>
    private let referenceCount: Int
    private var referenceWrite = 0
    /// The microphone, `capacity` frames of `frameFrames × mics` interleaved samples; `micWrite`
    /// is the slot (in frames) the next one goes to.
    private let mic: UnsafeMutablePointer<Int16>
    private var micWrite = 0
    /// Microphone frames recorded so far (held or not): whether the current frame's is one of them.
    private var micRecorded = 0
    /// Reference frames pushed so far, and the warp of the past before a moment (`warpPast`).
    package private(set) var framesPushed = 0
    /// The DSP frame being processed, counted from 0 at the stream's first (−1 before any
    /// push): frame `back` frames back is `currentFrame − back`.
    package var currentFrame: Int { framesPushed / frameFrames - 1 }
    private var warpedBefore: (warp: Double, pushed: Int)?
    /// The warp's kernel weights for one sample (2 × `warpTaps`).
    private var weights = [Double](repeating: 0, count: 2 * EchoHistory.warpTaps)

    package init(frameFrames: Int, mics: Int, speakers: Int = 1, maxDelay: Int, capacity: Int) {
        self.frameFrames = max(1, frameFrames)
        self.mics = max(1, mics)
        self.speakers = max(1, speakers)
        self.maxDelay = max(0, maxDelay)
        self.capacity = max(0, capacity)
        referenceCount = (self.capacity + 1) * self.frameFrames + self.maxDelay
        reference = .allocate(capacity: referenceCount * self.speakers)
        reference.initialize(repeating: 0, count: referenceCount * self.speakers)
        mic = .allocate(capacity: max(1, self.capacity * self.frameFrames * self.mics))
    }

    deinit {
        reference.deallocate()
        mic.deallocate()
    }

    /// Adds the current frame's reference (`frameFrames × speakers` interleaved samples); it
    /// becomes frame 0.
    package func pushReference(_ x: UnsafePointer<Float>) {
        var done = 0
        while done < frameFrames {
            let n = min(frameFrames - done, referenceCount - referenceWrite)
            (reference + referenceWrite * speakers).update(from: x + done * speakers, count: n * speakers)
            done += n
            referenceWrite = (referenceWrite + n) % referenceCount
        }
        framesPushed += frameFrames
        if let w = warpedBefore, framesPushed - w.pushed >= referenceCount { warpedBefore = nil }
    }

    /// The reference `delay` stream frames (0...maxDelay) before frame `back` (0...capacity),
    /// (`frameFrames × speakers` interleaved), as the 16-bit samples speex takes (rounded and clipped as `SampleCodec.s16` does; the
    /// reference's own clips are not counted).
    package func reference(back: Int, delay: Int, into y: UnsafeMutablePointer<Int16>) {
        precondition((0...capacity).contains(back) && (0...maxDelay).contains(delay), "EchoHistory: frame \(back) back at delay \(delay) is out of reach")
        // Samples before a warp's anchor (`warpPast`) are read through it.
        if let w = warpedBefore, (back + 1) * frameFrames + delay > framesPushed - w.pushed {
            return warpedReference(back: back, delay: delay, warp: w.warp, anchor: framesPushed - w.pushed, into: y)
        }
        var r = referenceWrite - (back + 1) * frameFrames - delay
        if r < 0 { r += referenceCount }
        var clipped = 0
        for i in 0..<frameFrames {
            for c in 0..<speakers { y[i * speakers + c] = SampleCodec.s16(reference[r * speakers + c], clipped: &clipped) }
            r = r + 1 == referenceCount ? 0 : r + 1
        }
    }

    /// From now on, the reference pushed so far reads through a time warp: a sample `k` frames
    /// before this moment is taken from `warp × k` frames later (Lanczos interpolation over
    /// 2 × `warpTaps` taps, normalised; zeros beyond what the ring holds), by every read
    /// (`reference(back:delay:into:)`: the delay line, warm starts, the shadow's replays). For
    /// a drift compensation that engages now with factor 1 + `warp` (`DriftCompensator`): the
    /// warped past is what the compensation would have made had it always run, so a canceller
    /// retrained on it, and the delay line's first frames, have the alignment the stream has
    /// from now on. The samples pushed later are the compensation's own and read as they are.
    /// `warp` within ±0.01; a later call replaces the warp and its moment.
    package func warpPast(by warp: Double) {
        precondition(abs(warp) <= 0.01, "EchoHistory: warp \(warp) out of range")
        warpedBefore = warp == 0 ? nil : (warp, framesPushed)
    }

    /// `reference(back:delay:into:)` for a frame reaching before the warp's anchor, `anchor`
    /// frames back (0: the newest pushed is the first after it): a sample `k` frames back is read
    /// at `k − warp × (k − anchor)` where `k > anchor`. The kernel's weights are made once per
    /// sample: sin(π(j + f)) = (−1)^j sin(πf), and sin(π(j + f)/a) by rotation from one tap to
    /// the next.
    private func warpedReference(back: Int, delay: Int, warp: Double, anchor: Int, into y: UnsafeMutablePointer<Int16>) {
        let a = Self.warpTaps
        var clipped = 0
        let stepCos = cos(Double.pi / Double(a)), stepSin = sin(Double.pi / Double(a))
        for i in 0..<frameFrames {
            // Frames before the newest pushed (1: the newest), and where the warp reads.
            let k = Double((back + 1) * frameFrames + delay - i)
            let position = k - warp * max(0, k - Double(anchor))
            let base = Int(position.rounded(.down))
            let fraction = position - Double(base)
            // The weights of the samples `q = base - j` frames back, at `j + fraction` from
            // the position, j = -a..<a.
            let sinF = sin(Double.pi * fraction)
            var c = cos(Double.pi * (Double(-a) + fraction) / Double(a)), s = sin(Double.pi * (Double(-a) + fraction) / Double(a))
            var sum = 0.0
            for j in -a..<a {
                let x = Double(j) + fraction
                let w: Double
                if x == 0 {
                    w = 1
                } else {
                    let px = Double.pi * x
                    w = Double(a) * (j & 1 == 0 ? sinF : -sinF) * s / (px * px)
                }
                weights[j + a] = w
                sum += w
                let t = c * stepCos - s * stepSin
                s = s * stepCos + c * stepSin
                c = t
            }
            for ch in 0..<speakers {
                var acc = 0.0
                for j in -a..<a {
                    let q = base - j
                    guard q >= 1, q <= referenceCount else { continue }
                    var slot = referenceWrite - q
                    if slot < 0 { slot += referenceCount }
                    acc += Double(reference[slot * speakers + ch]) * weights[j + a]
                }
                y[i * speakers + ch] = SampleCodec.s16(Float(acc / sum), clipped: &clipped)
            }
        }
    }

    /// Half the warp's interpolation taps.
    package static let warpTaps = 6

    /// Records the current frame's microphone as speex saw it (`frameFrames × mics` samples),
    /// once it has been run: from then on it is frame 0 (`mic(back:)`), and frame 1 when the
    /// next reference is pushed.
    package func record(mic x: UnsafePointer<Int16>) {
        micRecorded += 1
        guard capacity > 0 else { return }
        (mic + micWrite * frameFrames * mics).update(from: x, count: frameFrames * mics)
        micWrite = micWrite + 1 == capacity ? 0 : micWrite + 1
        framesHeld = min(capacity, framesHeld + 1)
    }

    /// The recorded microphone of frame `back` (`currentFrame − back`, as `reference`'s), one
    /// of the `framesHeld` newest recorded: 1...framesHeld before the current frame's is
    /// recorded, 0..<framesHeld after.
    package func mic(back: Int) -> UnsafePointer<Int16> {
        // How many frames back the newest recorded is: 1 before `record`, 0 after.
        let newest = currentFrame - (micRecorded - 1)
        precondition(back >= newest && back - newest < framesHeld, "EchoHistory: microphone frame \(back) back is not held (\(framesHeld) are)")
        return UnsafePointer(mic + ((micWrite - 1 - (back - newest) + capacity) % capacity) * frameFrames * mics)
    }
}
