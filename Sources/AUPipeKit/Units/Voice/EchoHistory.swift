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
final class EchoHistory {
    /// Stream frames per DSP frame (≥ 1), interleaved microphone channels (≥ 1), interleaved
    /// reference (loudspeaker) channels (≥ 1), the longest delay in stream frames (≥ 0), and
    /// the history's length in DSP frames (≥ 0).
    let frameFrames: Int, mics: Int, speakers: Int, maxDelay: Int, capacity: Int
    /// Microphone frames recorded so far, up to `capacity`: how far back a replay can start.
    private(set) var framesHeld = 0

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

    init(frameFrames: Int, mics: Int, speakers: Int = 1, maxDelay: Int, capacity: Int) {
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
    func pushReference(_ x: UnsafePointer<Float>) {
        var done = 0
        while done < frameFrames {
            let n = min(frameFrames - done, referenceCount - referenceWrite)
            (reference + referenceWrite * speakers).update(from: x + done * speakers, count: n * speakers)
            done += n
            referenceWrite = (referenceWrite + n) % referenceCount
        }
    }

    /// The reference `delay` stream frames (0...maxDelay) before frame `back` (0...capacity),
    /// (`frameFrames × speakers` interleaved), as the 16-bit samples speex takes (rounded and clipped as `SampleCodec.s16` does; the
    /// reference's own clips are not counted).
    func reference(back: Int, delay: Int, into y: UnsafeMutablePointer<Int16>) {
        precondition((0...capacity).contains(back) && (0...maxDelay).contains(delay), "EchoHistory: frame \(back) back at delay \(delay) is out of reach")
        var r = referenceWrite - (back + 1) * frameFrames - delay
        if r < 0 { r += referenceCount }
        var clipped = 0
        for i in 0..<frameFrames {
            for c in 0..<speakers { y[i * speakers + c] = SampleCodec.s16(reference[r * speakers + c], clipped: &clipped) }
            r = r + 1 == referenceCount ? 0 : r + 1
        }
    }

    /// The same frame as `reference(back:delay:into:)` read through a time warp: each sample at
    /// `k` frames before the newest one pushed is taken from `warp × k` frames later (Lanczos
    /// interpolation, 2 × `warpTaps` taps; zeros beyond what the ring holds). For a drift
    /// compensation that engages now with factor 1 + `warp` (`DriftCompensator`): the warped
    /// past is what the compensation would have made had it always run, so a canceller can be
    /// retrained on it at the alignment it will see from now on. `warp` within ±0.01.
    func reference(back: Int, delay: Int, warp: Double, into y: UnsafeMutablePointer<Int16>) {
        precondition((0...capacity).contains(back) && (0...maxDelay).contains(delay) && abs(warp) <= 0.01, "EchoHistory: frame \(back) back at delay \(delay), warp \(warp) is out of reach")
        guard warp != 0 else { return reference(back: back, delay: delay, into: y) }
        let a = Self.warpTaps
        var clipped = 0
        for i in 0..<frameFrames {
            // Frames before the newest pushed (1: the newest), and where the warp reads.
            let k = Double((back + 1) * frameFrames + delay - i)
            let position = k - warp * k
            let base = Int(position.rounded(.down))
            let fraction = position - Double(base)
            for c in 0..<speakers {
                var sum = 0.0, weights = 0.0
                // The samples `q = base - j` frames back, at `j + fraction` from the position;
                // the weights normalised to sum to 1 (Lanczos's own sum differs by up to 0.1 %).
                for j in -a..<a {
                    let w = Self.lanczos(Double(j) + fraction, a)
                    weights += w
                    let q = base - j
                    guard q >= 1, q <= referenceCount else { continue }
                    var slot = referenceWrite - q
                    if slot < 0 { slot += referenceCount }
                    sum += Double(reference[slot * speakers + c]) * w
                }
                y[i * speakers + c] = SampleCodec.s16(Float(sum / weights), clipped: &clipped)
            }
        }
    }

    /// Half the warp's interpolation taps.
    static let warpTaps = 6

    /// The Lanczos kernel sinc(x)·sinc(x / a) for |x| < a, else 0.
    static func lanczos(_ x: Double, _ a: Int) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < Double(a) else { return 0 }
        let px = Double.pi * x
        return Double(a) * sin(px) * sin(px / Double(a)) / (px * px)
    }

    /// Records the current frame's microphone as speex saw it (`frameFrames × mics` samples),
    /// once it has been run: it becomes frame 1 when the next reference is pushed.
    func record(mic x: UnsafePointer<Int16>) {
        guard capacity > 0 else { return }
        (mic + micWrite * frameFrames * mics).update(from: x, count: frameFrames * mics)
        micWrite = micWrite + 1 == capacity ? 0 : micWrite + 1
        framesHeld = min(capacity, framesHeld + 1)
    }

    /// The recorded microphone of frame `back` (1...framesHeld).
    func mic(back: Int) -> UnsafePointer<Int16> {
        precondition((1...framesHeld).contains(back), "EchoHistory: microphone frame \(back) back is not held (\(framesHeld) are)")
        return UnsafePointer(mic + ((micWrite - back + capacity) % capacity) * frameFrames * mics)
    }
}
