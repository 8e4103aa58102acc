import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s comfort noise (`comfort=on`): while the far end talks, what the suppressors took out
/// of the output's background (speex's residual echo suppression, the residual echo suppressor,
/// the nonlinear canceller) is put back as noise of the background's level and spectrum, so
/// that the line sounds the same whether the far end talks or not; and the output's background
/// never goes under one 16-bit step (rms) while the microphone has one: it does not go dead
/// (WebRTC's suppressors do the same).
///
/// It runs last, on `aec`'s output frames of N 16-bit samples, one microphone:
/// - analysis: 2N-sample sqrt-Hann windows at a hop of N (zero-padded to a power of two), the
///   output's power per bin, smoothed over frames (`powerSmoothing`); the same of the linear
///   canceller's output before the post-filter (`capture`), the raw background R tracked by
///   minimum statistics (`MinimumStatistics`) from the first frame on;
/// - the floor F, per bin: R scaled to a total of `floorSteps` 16-bit steps rms, never above R
///   (a microphone quieter than that, or silent, gets nothing): what `denoise=` leaves of a
///   background of 40–45 dB SNR is otherwise under half a step, exact zeros;
/// - the background B, per bin: learnt only while the far end has been silent for the echo's
///   tail (`aec`'s `tail=` and the post-filter's latency), after the stream's first second
///   (`settleSeconds`): the least of the output's smoothed power over the first
///   `leastBackgroundSeconds` of it (times `minimumBias`), then a running
///   mean over the frames whose total power is within `frameGate` (6 dB) of B's total (a near
///   talker is louder; babble's peaks, spread over its bins, are not) and a creep of
///   `creepDBPerSecond` meanwhile, so that it follows a louder room. Until then, from the
///   first frame on: R less `denoise=`'s suppression;
/// - the fill, per bin: max(0, T − S·min(1, R/P)), S the output's smoothed power and P the
///   raw power it came from (`lateFrames` earlier): S·R/P is what the post-filter left of the
///   background (its gain times R), so that residual echo or a near talker left in a bin is not
///   taken for background; T = max(B, F) while the far end talks (and for its echo's tail) and
///   F while it is silent: a bin that holds its background gets nothing, a bin suppressed to
///   nothing gets all of it, one suppressed by 3 dB half of it. The near end alone gets
///   nothing where the output holds the floor;
/// - synthesis: Gaussian noise of that power spectrum (seeded per frame index: the same bytes
///   on every run and block size), inverse transform, sqrt-Hann window, overlap-add: no latency.
/// Everything is allocated in `init`; `capture` and `run` allocate nothing.
package final class ComfortNoise {
    /// Samples per frame (N), the FFT size (a power of two ≥ 2N) and its bins.
    package let frameFrames: Int, fftSize: Int, bins: Int
    private let fft: RealFFT
    /// Frames of far-end silence before the background is learnt again (the echo's tail).
    private let hangoverFrames: Int
    /// Background frames needed before any fill, and the creep per frame (power factor).
    private let leastFrames: Int
    /// Frames at the stream's start that teach no background (`settleSeconds`).
    private let settleFrames: Int
    private let creep: Float
    /// `denoise=`'s suppression as a power factor (1 without denoise).
    private let denoiseGain: Float
    /// The floor's power per sample (full scale 1), and the factor from a spectrum's bins
    /// (DC and Nyquist once, the others twice) to power per sample: 1/(M·N).
    private let floorPower: Float, perSample: Float
    /// The raw background, before the post-filter.
    private let raw: MinimumStatistics
    /// Frames the output comes after the raw signal (the post-filter's latency), and the raw
    /// signal's smoothed power spectra over that many frames and this one (a ring).
    private let lateFrames: Int
    private let rawPowers: UnsafeMutablePointer<Float>
    private var rawIndex = 0
    /// The noise's seed, mixed with the frame index.
    private let seed: UInt64

    /// The output's power smoothing per frame, and the background's mean's per frame.
    package static let powerSmoothing: Float = 0.5, backgroundSmoothing: Float = 0.9
    /// A frame whose total power is more than this many times the background's (6 dB) is not
    /// background (a near talker). Per bin, babble's peaks stood 10 dB over its mean often
    /// enough to leave the fill 7 dB short in babble15; over the whole band they do not
    /// (bench/README.md, "aec comfort noise").
    package static let frameGate: Float = 4
    /// How fast the background follows a room that got louder (dB per second), while the gate holds it.
    package static let creepDBPerSecond = 1.0
    /// What the least smoothed power over `leastBackgroundSeconds` is multiplied by to
    /// estimate the mean (3 dB: its bias for noise).
    package static let minimumBias: Float = 2
    /// Background learnt before it replaces the raw one (s): a mean over fewer frames is too rough.
    package static let leastBackgroundSeconds = 0.3
    /// The stream's first second teaches no background: speex's preprocessor passes the noise
    /// while its own estimate settles (a −69 dBFS background came out at −75 dBFS in the first
    /// 0.1 s of `sat-d80`, at −105 dBFS once settled).
    package static let settleSeconds = 1.0
    /// Below this total power the background follows the output's mean without the gate: far
    /// below a 16-bit sample's step (3·10⁻⁷ per bin for 1 LSB of white noise at N = 320).
    package static let leastPower: Float = 1e-14
    /// The floor under the output's background, in 16-bit steps rms (−90 dBFS): at one step,
    /// 38% of the samples of noise alone round to zero; at half a step, 68%.
    package static let floorSteps: Float = 1
    /// The noise's seed ("comfort").
    package static let defaultSeed: UInt64 = 0xC0_3F0_27

    private let window, previous, rawPrevious, carry, work, re, im, power, smoothed, background, target: UnsafeMutablePointer<Float>
    /// All of its float buffers, freed with the object.
    private let buffers: FloatBuffers
    private var sinceFarEnd: Int
    /// Frames of background learnt, frames run, frames that got noise.
    package private(set) var backgroundFrames = 0, framesRun = 0, framesFilled = 0
    private var carryHolds = false
    /// Output samples clipped to 16 bits when the noise was added.
    package private(set) var clipped = 0
    /// For the bench and tests (nil otherwise): called after every frame with the noise added
    /// to it (N samples, full scale 1, before the 16-bit rounding; zeros where none was), so
    /// that the output can be taken apart into the post-filter's output and the comfort noise.
    package var addedNoise: ((UnsafeBufferPointer<Float>) -> Void)?
    private let added: UnsafeMutablePointer<Float>

    /// For frames of `frameFrames` at `rate` Hz; `hangoverFrames`: the far end's silence before
    /// the output is background again (the echo's tail and the post-filter's latency);
    /// `denoiseDB`: `denoise=` (0 without it); `lateFrames`: the frames the output comes after
    /// the linear canceller's (`capture`).
    package init(frameFrames: Int, rate: Int, hangoverFrames: Int, denoiseDB: Double = 0, lateFrames: Int = 0,
                 seed: UInt64 = ComfortNoise.defaultSeed) {
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
        settleFrames = Int((Self.settleSeconds / seconds).rounded(.up))
        creep = Float(pow(10, Self.creepDBPerSecond * seconds / 10))
        denoiseGain = Float(pow(10, min(0, denoiseDB) / 10))
        let step = Self.floorSteps / 32768
        floorPower = step * step
        perSample = 1 / (Float(size) * Float(frameFrames))
        raw = MinimumStatistics(bins: size / 2 + 1, frameSeconds: seconds)
        self.lateFrames = max(0, lateFrames)
        let buffers = FloatBuffers()
        self.buffers = buffers
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> { buffers.make(n) }
        let n = frameFrames
        window = buffer(2 * n)
        SqrtHannWindow.fill(window, length: 2 * n)
        previous = buffer(n); rawPrevious = buffer(n); carry = buffer(n); work = buffer(size)
        re = buffer(bins); im = buffer(bins); power = buffer(bins); smoothed = buffer(bins)
        background = buffer(bins); target = buffer(bins)
        rawPowers = buffer(bins * (self.lateFrames + 1))
        added = buffer(n)
    }

    /// The linear canceller's output for this frame (N 16-bit samples), before the post-filter:
    /// the raw background's minimum statistics.
    package func capture(cancelled: UnsafePointer<Int16>) {
        analyse({ cancelled[$0] }, previous: rawPrevious)
        for k in 0..<bins { power[k] = re[k] * re[k] + im[k] * im[k] }
        raw.add(power)
        let last = rawPowers + rawIndex * bins
        rawIndex = (rawIndex + 1) % (lateFrames + 1)
        let now = rawPowers + rawIndex * bins, a = Self.powerSmoothing
        for k in 0..<bins { now[k] = a * last[k] + (1 - a) * power[k] }
    }

    /// The windowed transform of the last frame (`previous`) and this one (`sample`) into
    /// `re`/`im`; this one becomes `previous`.
    private func analyse(_ sample: (Int) -> Int16, previous last: UnsafeMutablePointer<Float>) {
        let n = frameFrames
        for i in 0..<n {
            let x = Float(sample(i)) / 32768
            work[i] = window[i] * last[i]
            work[n + i] = window[n + i] * x
            last[i] = x
        }
        for i in (2 * n)..<fftSize { work[i] = 0 }
        fft.forward(work, re: re, im: im)
    }

    /// One output frame (N 16-bit samples) in place; `farEnd`: whether the far end played in the
    /// frame the canceller just took in (its aligned reference above `aec`'s activity threshold).
    package func run(_ frame: UnsafeMutablePointer<Int16>, farEnd: Bool) {
        let n = frameFrames
        sinceFarEnd = farEnd ? 0 : min(sinceFarEnd + 1, hangoverFrames)
        analyse({ frame[$0] }, previous: previous)
        let a = Self.powerSmoothing
        for k in 0..<bins { smoothed[k] = a * smoothed[k] + (1 - a) * (re[k] * re[k] + im[k] * im[k]) }
        framesRun += 1
        let silent = sinceFarEnd >= hangoverFrames
        if silent, framesRun > settleFrames { learnBackground() }
        // The floor: the raw background, scaled to `floorSteps` rms if it is louder.
        var rawTotal: Float = 0
        for k in 0..<bins {
            let r = raw.background(k)
            target[k] = r
            rawTotal += (k == 0 || k == bins - 1) ? r : 2 * r
        }
        rawTotal *= perSample
        let floorScale = rawTotal > floorPower ? floorPower / rawTotal : 1
        let learnt = backgroundFrames >= leastFrames
        for k in 0..<bins {
            let floor = target[k] * floorScale
            target[k] = silent ? floor : max(floor, learnt ? background[k] : target[k] * denoiseGain)
        }
        // What is left of the background in the output: the output's power S times the raw
        // background's share of the raw power P the output came from (the post-filter's gain
        // applied to the background alone, S·R/P, at most S): where the suppressors left
        // residual echo or a near talker, S is not background. The oldest raw spectrum in the
        // ring is the one this output frame came from.
        let from = rawPowers + ((rawIndex + 1) % (lateFrames + 1)) * bins
        // The fill's spectrum, Gaussian: E|Z|² = fill·M/N gives, after the inverse transform
        // (÷M) and the overlap-add of sqrt-Hann windows (Σw² = 1 per sample), a per-sample
        // power of fill/N, which the analysis (Σw² = N over a window) reads back as fill.
        var random = FrameRandom(seed: seed, frame: UInt64(framesRun))
        let scale = Float(fftSize) / Float(n) / 2
        var any = false
        for k in 0..<bins {
            let p = from[k], r = raw.background(k)
            let held = p > r ? smoothed[k] * (r / p) : smoothed[k]
            let fill = max(0, target[k] - held)
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
        let tapped = addedNoise != nil
        for i in 0..<n {
            let x = Float(frame[i]) / 32768 + carry[i] + window[i] * work[i]
            if tapped { added[i] = carry[i] + window[i] * work[i] }
            carry[i] = window[n + i] * work[n + i]
            frame[i] = SampleCodec.s16(x, clipped: &clipped)
        }
        carryHolds = true
        addedNoise?(UnsafeBufferPointer(start: added, count: n))
    }

    /// The background: the least smoothed power over the first `leastBackgroundSeconds` of
    /// far-end silence (a near talker then does not count; the running mean below lifts it to
    /// the background's mean), then its running mean over frames within `frameGate` of it in
    /// total, creeping up otherwise. Frames of digital silence (the stream's start) teach nothing.
    private func learnBackground() {
        var total: Float = 0, held: Float = 0
        for k in 0..<bins {
            total += smoothed[k]
            held += background[k]
        }
        guard total > 0 else { return }
        backgroundFrames += 1
        if backgroundFrames <= leastFrames {
            for k in 0..<bins { background[k] = backgroundFrames == 1 ? smoothed[k] : min(background[k], smoothed[k]) }
            // A minimum lies under the mean: lift it by the bias of one.
            if backgroundFrames == leastFrames { for k in 0..<bins { background[k] *= Self.minimumBias } }
            return
        }
        if total < Self.frameGate * held || held < Self.leastPower {
            let b = Self.backgroundSmoothing
            for k in 0..<bins { background[k] = b * background[k] + (1 - b) * smoothed[k] }
        } else {
            for k in 0..<bins { background[k] *= creep }
        }
    }

    /// The last fill's overlap, when there is one, into `frame` (then none is left).
    private func addCarry(_ frame: UnsafeMutablePointer<Int16>) {
        defer { addedNoise?(UnsafeBufferPointer(start: added, count: frameFrames)) }
        guard carryHolds else {
            if addedNoise != nil { added.update(repeating: 0, count: frameFrames) }
            return
        }
        for i in 0..<frameFrames {
            added[i] = carry[i]
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
