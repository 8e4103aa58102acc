import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// speex's preprocessor's spectral gain (libspeexdsp/preprocess.c, `speex_preprocess_run`),
/// per bin of the residual echo suppressor's STFT: noise suppression (`denoise=`) and the
/// suppression of the MDF's residual echo (`LeakResidual`), with `suppress=` and
/// `suppress-active=` as the echo's floors. What it does, as speex does it:
/// - the noise N per bin: minimum statistics decide where speech may be (a smoothed power S
///   more than 2.5 times its minimum over 15–300 frames); elsewhere, or where the power falls
///   under N, N follows the power at a rate of max(0.03, 1/frames). Unlike speex's, N does not
///   follow the residual echo: a bin whose echo (the leak residual E) is over `echoShareForNoise`
///   of S keeps its N (it may still fall). (Held by the suppressor's own predicted residual as
///   well, N stayed under the noise: that residual over-predicts C);
/// - the a posteriori SNR γ = |C|²/(N + E + 1) − 1 (E the residual echo; 1 speex's least
///   noise, `unit` here), the decision-directed a priori SNR ξ = g·max(0, γ) + (1 − g)·|Ĉ|²/(N + E)
///   with g = 0.1 + 0.89·(|Ĉ|²/(|Ĉ|² + N + E))² and |Ĉ|² the previous frame's estimate of the clean
///   power (both at most 100);
/// - the same per Bark band (`BarkBands`: speex's 24); the frame's speech probability Pframe
///   from the bands' smoothed a priori SNR ζ, and the echo's floor between `suppress=` (Pframe 0)
///   and `suppress-active=` (Pframe 1), in dB;
/// - the gain floor √((nf·N + ef·E)/(1 + N + E)) (nf: `denoise=`, ef: that echo floor, as power
///   factors), the hypergeometric (loudness-domain MMSE) gain ξ/(1 + ξ)·M(θ), θ = ξ/(1 + ξ)·(1 + γ),
///   per band and per bin (at most three times its band's, at most 1, at least the floor), and
///   the speech presence p per band; the gain applied per bin is (p·√G + (1 − p)·√floor)².
/// Not done here: speex's AGC, VAD and dereverberation (`aec` runs speex's preprocessor for those).
/// Everything is allocated in `init`; `update` allocates nothing.
package final class NoiseSuppressionGain {
    package let bins: Int
    /// The amplitude gain per bin (0...1), after the latest `update`.
    package let gain: UnsafeMutablePointer<Float>
    /// The noise estimate per bin (the suppressor's scale), after the latest `update`.
    package let noise: UnsafeMutablePointer<Float>
    private let bands: BarkBands
    /// Per bin: the smoothed power, its minima, the previous frame's clean power, the SNRs, and
    /// band values spread to the bins (floor, speech presence, gain).
    private let smoothed, minimum, minimumNext, cleanBefore, prior, post, floorAt, presenceAt, bandGainAt: UnsafeMutablePointer<Float>
    /// Per band: power, noise, echo, previous clean power, SNRs, smoothed prior, floor, gain, presence.
    private let bPower, bNoise, bEcho, bClean, bPrior, bPost, bZeta, bFloor, bGain, bPresence: UnsafeMutablePointer<Float>
    /// Every buffer below, freed with the object.
    private let buffers: FloatBuffers
    private var frames = 0, minimumCount = 0
    /// speex's 1 (its least noise, added to every noise total) in the suppressor's units: a
    /// power of one 16-bit step through speex's 2N-point transform scaled by 1/2N.
    private let unit: Float
    /// `denoise=`'s floor (power factor) and the residual echo's floors alone and in double talk (dB).
    private let noiseFloor: Float, echoSuppress: Double, echoSuppressActive: Double

    /// A bin keeps its noise estimate (it may fall, not rise) while its echo is more than this
    /// share of its smoothed power (−6 dB): after an echo-path change speex's estimate rose with
    /// the residual echo, and its gain then took the residual for noise.
    package static let echoShareForNoise: Float = 0.25
    /// preprocess.c's constants: the noise's least update rate, the smoothed power's minimum
    /// over `minimumFrames` (by the frames run so far, at 100/1000/10000) with S over `speechRatio`
    /// times it where speech may be, the SNRs' cap.
    package static let leastRate: Float = 0.03, speechRatio: Float = 0.4, mostSNR: Float = 100
    package static let minimumFrames = [15, 50, 150, 300]

    /// For the suppressor's `bins` of an `fftSize`-point transform of frames of `frameFrames` at
    /// `rate` Hz; `denoiseDB` (0 for none), `suppressDB`, `activeDB`: `denoise=`, `suppress=`,
    /// `suppress-active=` (dB, negative); `windowFrames`: the suppressor's analysis window (nil: 2N).
    package init(bins: Int, fftSize: Int, frameFrames: Int, rate: Int, denoiseDB: Double, suppressDB: Double, activeDB: Double, windowFrames: Int? = nil) {
        self.bins = bins
        bands = BarkBands(bins: bins, fftSize: fftSize, rate: rate)
        let buffers = FloatBuffers()
        self.buffers = buffers
        func buffer(_ n: Int, _ value: Float = 0) -> UnsafeMutablePointer<Float> { buffers.make(n, value) }
        let step = Float(windowFrames ?? 2 * frameFrames) / 32768
        unit = step * step
        let m = bands.count
        gain = buffer(bins, 1); noise = buffer(bins, unit); smoothed = buffer(bins); minimum = buffer(bins); minimumNext = buffer(bins)
        cleanBefore = buffer(bins); prior = buffer(bins); post = buffer(bins); floorAt = buffer(bins); presenceAt = buffer(bins)
        bandGainAt = buffer(bins)
        bPower = buffer(m); bNoise = buffer(m); bEcho = buffer(m); bClean = buffer(m); bPrior = buffer(m); bPost = buffer(m)
        bZeta = buffer(m); bFloor = buffer(m); bGain = buffer(m); bPresence = buffer(m)
        noiseFloor = Float(pow(10, min(0, denoiseDB) / 10))
        echoSuppress = suppressDB
        echoSuppressActive = activeDB
    }


    /// One frame: `power`, |C|² per bin (raw, this frame's window); `echo`, the residual echo
    /// per bin (`LeakResidual.power`). Fills `gain`.
    package func update(power ps: UnsafePointer<Float>, echo: UnsafePointer<Float>) {
        frames = min(frames + 1, 20000)
        minimumCount += 1
        let rate = max(Self.leastRate, 1 / Float(frames))
        // The smoothed power and its minimum (preprocess.c's update_noise_prob).
        for k in 0..<bins {
            let around = k == 0 || k == bins - 1 ? 0.2 * ps[k] : 0.05 * ps[k - 1] + 0.1 * ps[k] + 0.05 * ps[k + 1]
            smoothed[k] = 0.8 * smoothed[k] + around
        }
        if frames == 1 {
            minimum.update(repeating: 0, count: bins); minimumNext.update(repeating: 0, count: bins)
        }
        let range = frames < 100 ? Self.minimumFrames[0] : frames < 1000 ? Self.minimumFrames[1] : frames < 10000 ? Self.minimumFrames[2] : Self.minimumFrames[3]
        if minimumCount > range {
            minimumCount = 0
            for k in 0..<bins { minimum[k] = min(minimumNext[k], smoothed[k]); minimumNext[k] = smoothed[k] }
        } else {
            for k in 0..<bins { minimum[k] = min(minimum[k], smoothed[k]); minimumNext[k] = min(minimumNext[k], smoothed[k]) }
        }
        // The noise, where no speech may be or where the power falls under it; not where echo is.
        for k in 0..<bins {
            let falls = ps[k] < noise[k]
            let quiet = !(Self.speechRatio * smoothed[k] > minimum[k]) && echo[k] <= Self.echoShareForNoise * smoothed[k]
            if falls || quiet { noise[k] = max(0, (1 - rate) * noise[k] + rate * ps[k]) }
        }
        bands.sum(ps, into: bPower); bands.sum(noise, into: bNoise); bands.sum(echo, into: bEcho)
        if frames == 1 {
            cleanBefore.update(from: ps, count: bins)
            bClean.update(from: bPower, count: bands.count)
        }
        // SNRs, decision-directed, per bin and per band.
        Self.snr(count: bins, power: ps, noise: noise, echo: echo, clean: cleanBefore, unit: unit, post: post, prior: prior)
        Self.snr(count: bands.count, power: bPower, noise: bNoise, echo: bEcho, clean: bClean, unit: unit, post: bPost, prior: bPrior)
        var zFrame: Float = 0
        for b in 0..<bands.count {
            bZeta[b] = 0.7 * bZeta[b] + 0.3 * bPrior[b]
            zFrame += bZeta[b]
        }
        let pFrame = 0.1 + 0.899 * Self.qcurve(zFrame / Float(bands.count))
        let echoDB = (1 - Double(pFrame)) * echoSuppress + Double(pFrame) * echoSuppressActive
        let echoFloor = Float(pow(10, echoDB / 10))
        // Per band: the floor, the hypergeometric gain and the speech presence.
        for b in 0..<bands.count {
            bFloor[b] = ((noiseFloor * bNoise[b] + echoFloor * bEcho[b]) / (unit + bNoise[b] + bEcho[b])).squareRoot()
            let ratio = bPrior[b] / (bPrior[b] + 1)
            let theta = ratio * (1 + bPost[b])
            bGain[b] = min(1, ratio * Self.hypergeometricGain(theta))
            bClean[b] = 0.2 * bClean[b] + 0.8 * bGain[b] * bGain[b] * bPower[b]
            let p1 = 0.199 + 0.8 * Self.qcurve(bZeta[b])
            let q = 1 - pFrame * p1
            bPresence[b] = 1 / (1 + q / (1 - q) * (1 + bPrior[b]) * expf(-theta))
        }
        bands.spread(bPresence, into: presenceAt); bands.spread(bGain, into: bandGainAt); bands.spread(bFloor, into: floorAt)
        // Per bin: the gain, at most three times its band's, at least the floor, mixed by presence.
        for k in 0..<bins {
            let ratio = prior[k] / (prior[k] + 1)
            let theta = ratio * (1 + post[k])
            var g = min(1, ratio * Self.hypergeometricGain(theta))
            if 0.333 * g > bandGainAt[k] { g = 3 * bandGainAt[k] }
            cleanBefore[k] = 0.2 * cleanBefore[k] + 0.8 * g * g * ps[k]
            let floor = floorAt[k]
            g = max(g, floor)
            let p = presenceAt[k]
            let mixed = p * g.squareRoot() + (1 - p) * floor.squareRoot()
            gain[k] = mixed * mixed
        }
    }

    /// The a posteriori SNR γ = P/(N + E + unit) − 1 and the decision-directed a priori SNR
    /// (both at most `mostSNR`), from the previous frame's clean power.
    private static func snr(count: Int, power: UnsafePointer<Float>, noise: UnsafePointer<Float>, echo: UnsafePointer<Float>,
                            clean: UnsafePointer<Float>, unit: Float, post: UnsafeMutablePointer<Float>, prior: UnsafeMutablePointer<Float>) {
        for k in 0..<count {
            let total = unit + noise[k] + echo[k]
            post[k] = min(power[k] / total - 1, mostSNR)
            let r = clean[k] / (clean[k] + total)
            let g = 0.1 + 0.89 * r * r
            prior[k] = min(g * max(0, post[k]) + (1 - g) * clean[k] / total, mostSNR)
        }
    }

    /// preprocess.c's `qcurve`: 1/(1 + 0.15/x) (0 for x ≤ 0).
    static func qcurve(_ x: Float) -> Float { x > 0 ? 1 / (1 + 0.15 / x) : 0 }

    /// preprocess.c's table of γ(1.25)²·M(−0.25; 1; −x)·√x at x = 0, 0.5, ... 10.
    private static let hypergeometric: [Float] = [0.82157, 1.02017, 1.20461, 1.37534, 1.53363, 1.68092, 1.81865, 1.94811, 2.07038, 2.18638,
                                                  2.29688, 2.40255, 2.50391, 2.60144, 2.69551, 2.78647, 2.87458, 2.96015, 3.04333, 3.12431, 3.20326]

    /// preprocess.c's `hypergeom_gain`: γ(1.25)²·M(−0.25; 1; −x)/√x, which times ξ/(1 + ξ) is the
    /// optimal gain in the loudness domain (interpolated in its table; 1 + 0.1296/x beyond x = 10).
    static func hypergeometricGain(_ x: Float) -> Float {
        let whole = (2 * x).rounded(.down)
        guard whole >= 0 else { return 1 }
        let index = Int(whole)
        guard index <= 19 else { return 1 + 0.1296 / x }
        let frac = 2 * x - whole
        return ((1 - frac) * hypergeometric[index] + frac * hypergeometric[index + 1]) / (x + 0.0001).squareRoot()
    }
}
