import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s comfort noise (`comfort=on`): while the far end talks, what the suppressors took out
/// of the output's background (speex's residual echo suppression, the residual echo suppressor,
/// the nonlinear canceller) is put back as noise of the background's level and spectrum, so
/// that the line sounds the same whether the far end talks or not and does not go dead while
/// it has a background (WebRTC's suppressors do the same). A background under half a 16-bit
/// step (what `denoise=-30` leaves of one at 40 dB SNR) is mostly exact zeros, and stays so.
///
/// It runs last, on `aec`'s output frames of N 16-bit samples, one microphone:
/// - analysis: 2N-sample sqrt-Hann windows at a hop of N (zero-padded to a power of two), the
///   output's power per bin, smoothed over frames (`powerSmoothing`);
/// - the background B, per bin: learnt only while the far end has been silent for the echo's
///   tail (`aec`'s `tail=` and the post-filter's latency): the least of the output's smoothed
///   power over the first `leastBackgroundSeconds` of it, then a running mean that ignores
///   frames more than `speechGate` (10 dB) above it (a near talker) and creeps up by
///   `creepDBPerSecond` meanwhile, so that it follows a louder room;
/// - the fill, while the far end talks (and once `leastBackgroundSeconds` of background has been
///   learnt): per bin, max(0, B − S) of power, S the output's smoothed power: a bin that holds
///   its background gets nothing (no noise is added where the output already holds it), a bin
///   suppressed to nothing gets all of B, one suppressed by 3 dB half of it.
/// - synthesis: Gaussian noise of that power spectrum (seeded per frame index: the same bytes
///   on every run and block size), inverse transform, sqrt-Hann window, overlap-add: no latency.
/// While the far end is silent it adds nothing but the last overlap's half frame, so the
/// near end alone is untouched. Everything is allocated in `init`; `run` allocates nothing.
package final class ComfortNoise {
    /// Samples per frame (N), the FFT size (a power of two ≥ 2N) and its bins.
    package let frameFrames: Int, fftSize: Int, bins: Int
    private let fft: RealFFT
    /// Frames of far-end silence before the background is learnt again (the echo's tail).
    private let hangoverFrames: Int
    /// Background frames needed before any fill, and the creep per frame (power factor).
    private let leastFrames: Int
    private let creep: Float
    /// The noise's seed, mixed with the frame index.
    private let seed: UInt64

    /// The output's power smoothing per frame, and the background's mean's per frame.
    package static let powerSmoothing: Float = 0.5, backgroundSmoothing: Float = 0.9
    /// A frame more than this many times the background (10 dB) is not background (a near
    /// talker). 4 (6 dB) leaves babble's peaks out, and the fill 7 dB short in babble15; 30
    /// (15 dB) would take in a near talker at 15 dB SNR (bench/README.md, "aec comfort noise").
    package static let speechGate: Float = 10
    /// How fast the background follows a room that got louder (dB per second), while the gate holds it.
    package static let creepDBPerSecond = 1.0
    /// What the least smoothed power over `leastBackgroundSeconds` is multiplied by to
    /// estimate the mean (3 dB: its bias for noise).
    package static let minimumBias: Float = 2
    /// Background learnt before any fill (s): a mean over fewer frames is too rough.
    package static let leastBackgroundSeconds = 0.3
    /// Below this a bin's background follows the output's mean without the gate: far below a
    /// 16-bit sample's step (3·10⁻⁷ per bin for 1 LSB of white noise at N = 320).
    package static let leastPower: Float = 1e-14
    /// The noise's seed ("comfort").
    package static let defaultSeed: UInt64 = 0xC0_3F0_27

    private let window, previous, carry, work, re, im, smoothed, background: UnsafeMutablePointer<Float>
    private var buffers: [UnsafeMutablePointer<Float>] = []
    private var sinceFarEnd: Int
    /// Frames of background learnt, frames run, frames that got noise.
    package private(set) var backgroundFrames = 0, framesRun = 0, framesFilled = 0
    private var carryHolds = false
    /// Output samples clipped to 16 bits when the noise was added.
    package private(set) var clipped = 0

    /// For frames of `frameFrames` at `rate` Hz; `hangoverFrames`: the far end's silence before
    /// the output is background again (the echo's tail and the post-filter's latency).
    package init(frameFrames: Int, rate: Int, hangoverFrames: Int, seed: UInt64 = ComfortNoise.defaultSeed) {
        self.frameFrames = frameFrames
        var size = 1
        while size < 2 * frameFrames { size <<= 1 }
        fftSize = size
        bins = size / 2 + 1
        fft = RealFFT(size: size)
        self.hangoverFrames = hangoverFrames
        sinceFarEnd = hangoverFrames
        self.seed = seed
        let seconds = Double(frameFrames) / Double(rate)
        leastFrames = max(1, Int((Self.leastBackgroundSeconds / seconds).rounded(.up)))
        creep = Float(pow(10, Self.creepDBPerSecond * seconds / 10))
        var made: [UnsafeMutablePointer<Float>] = []
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> {
            let b = UnsafeMutablePointer<Float>.allocate(capacity: n)
            b.initialize(repeating: 0, count: n)
            made.append(b)
            return b
        }
        let n = frameFrames
        window = buffer(2 * n)
        for i in 0..<(2 * n) { window[i] = Float(sin(Double.pi * Double(i) / Double(2 * n))) }
        previous = buffer(n); carry = buffer(n); work = buffer(size)
        re = buffer(bins); im = buffer(bins); smoothed = buffer(bins); background = buffer(bins)
        buffers = made
    }

    deinit { for b in buffers { b.deallocate() } }

    /// One output frame (N 16-bit samples) in place; `farEnd`: whether the far end played in the
    /// frame the canceller just took in (its aligned reference above `aec`'s activity threshold).
    package func run(_ frame: UnsafeMutablePointer<Int16>, farEnd: Bool) {
        let n = frameFrames
        sinceFarEnd = farEnd ? 0 : min(sinceFarEnd + 1, hangoverFrames)
        for i in 0..<n {
            let x = Float(frame[i]) / 32768
            work[i] = window[i] * previous[i]
            work[n + i] = window[n + i] * x
            previous[i] = x
        }
        for i in (2 * n)..<fftSize { work[i] = 0 }
        fft.forward(work, re: re, im: im)
        let a = Self.powerSmoothing
        for k in 0..<bins { smoothed[k] = a * smoothed[k] + (1 - a) * (re[k] * re[k] + im[k] * im[k]) }
        framesRun += 1
        if sinceFarEnd >= hangoverFrames {
            learnBackground()
            addCarry(frame)
            return
        }
        guard backgroundFrames >= leastFrames else {
            addCarry(frame)
            return
        }
        // The fill's spectrum, Gaussian: E|Z|² = fill·M/N gives, after the inverse transform
        // (÷M) and the overlap-add of sqrt-Hann windows (Σw² = 1 per sample), a per-sample
        // power of fill/N, which the analysis (Σw² = N over a window) reads back as fill.
        var random = FrameRandom(seed: seed, frame: UInt64(framesRun))
        let scale = Float(fftSize) / Float(n) / 2
        var any = false
        for k in 0..<bins {
            let fill = max(0, background[k] - smoothed[k])
            if fill > 0, k > 0, k < bins - 1 {
                let sigma = (fill * scale).squareRoot()
                let (g1, g2) = random.gaussianPair()
                re[k] = sigma * g1
                im[k] = sigma * g2
                any = true
            } else {
                re[k] = 0
                im[k] = 0
            }
        }
        guard any else {
            addCarry(frame)
            return
        }
        framesFilled += 1
        fft.inverse(re: re, im: im, into: work)
        for i in 0..<n {
            let x = Float(frame[i]) / 32768 + carry[i] + window[i] * work[i]
            carry[i] = window[n + i] * work[n + i]
            frame[i] = SampleCodec.s16(x, clipped: &clipped)
        }
        carryHolds = true
    }

    /// The background: the least smoothed power over the first `leastBackgroundSeconds` of
    /// far-end silence (a near talker then does not count; the running mean below lifts it to
    /// the background's mean), then its running mean over frames within `speechGate` of it,
    /// creeping up otherwise. Frames of digital silence (the stream's start) teach nothing.
    private func learnBackground() {
        var total: Float = 0
        for k in 0..<bins { total += smoothed[k] }
        guard total > 0 else { return }
        backgroundFrames += 1
        if backgroundFrames <= leastFrames {
            for k in 0..<bins { background[k] = backgroundFrames == 1 ? smoothed[k] : min(background[k], smoothed[k]) }
            // A minimum lies under the mean: lift it by the bias of one.
            if backgroundFrames == leastFrames { for k in 0..<bins { background[k] *= Self.minimumBias } }
            return
        }
        let b = Self.backgroundSmoothing
        for k in 0..<bins {
            if smoothed[k] < Self.speechGate * background[k] || background[k] < Self.leastPower {
                background[k] = b * background[k] + (1 - b) * smoothed[k]
            } else {
                background[k] *= creep
            }
        }
    }

    /// The last fill's overlap, when there is one, into `frame` (then none is left).
    private func addCarry(_ frame: UnsafeMutablePointer<Int16>) {
        guard carryHolds else { return }
        for i in 0..<frameFrames {
            frame[i] = SampleCodec.s16(Float(frame[i]) / 32768 + carry[i], clipped: &clipped)
            carry[i] = 0
        }
        carryHolds = false
    }
}

/// The comfort noise's random numbers for one frame: splitmix64 from the seed and the frame's
/// index, so that a frame's noise depends on nothing else (block size, what came before).
struct FrameRandom {
    private var state: UInt64

    init(seed: UInt64, frame: UInt64) { state = seed ^ (frame &* 0x9E37_79B9_7F4A_7C15) }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Two independent standard Gaussian values (Box–Muller).
    mutating func gaussianPair() -> (Float, Float) {
        let u1 = (Float(next() >> 40) + 0.5) * 0x1p-24, u2 = Float(next() >> 40) * 0x1p-24
        let r = (-2 * logf(u1)).squareRoot(), t = 2 * Float.pi * u2
        return (r * cosf(t), r * sinf(t))
    }
}
