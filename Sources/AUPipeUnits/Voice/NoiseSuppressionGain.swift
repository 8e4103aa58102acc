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
///   follow the residual echo: a bin whose echo (the leak residual and the suppressor's own
///   predicted residual) is over `echoShareForNoise` of S keeps its N (it may still fall);
/// - the a posteriori SNR γ = |C|²/(N + E + 1) − 1 (E the residual echo; 1 speex's least
///   noise, `unit` here), the decision-directed a priori SNR ξ = g·max(0, γ) + (1 − g)·|Ĉ|²/(N + E)
///   with g = 0.1 + 0.89·(|Ĉ|²/(|Ĉ|² + N + E))² and |Ĉ|² the previous frame's estimate of the clean
///   power (both at most 100), ξ smoothed over time and neighbouring bins (ζ);
/// - the frame's speech probability Pframe from ζ's mean over the Bark scale (speex's 24 bands),
///   and the echo's floor between `suppress=` (Pframe 0) and `suppress-active=` (Pframe 1), in dB;
/// - the gain floor √((nf·N + ef·E)/(1 + N + E)) (nf: `denoise=`, ef: that echo floor, as power
///   factors), the hypergeometric (loudness-domain MMSE) gain ξ/(1 + ξ)·M(θ), θ = ξ/(1 + ξ)·(1 + γ),
///   at most 1 and at least the floor, and the speech presence p per bin; the gain applied is
///   (p·√G + (1 − p)·√floor)².
/// Not done here: speex's Bark-band constraint on the per-bin gain (at most three times its
/// band's), its AGC, VAD and dereverberation (`aec` runs speex's preprocessor for those).
/// Everything is allocated in `init`; `update` allocates nothing.
package final class NoiseSuppressionGain {
    package let bins: Int
    /// The amplitude gain per bin (0...1), after the latest `update`.
    package let gain: UnsafeMutablePointer<Float>
    /// The noise estimate per bin (the suppressor's scale), after the latest `update`.
    package let noise: UnsafeMutablePointer<Float>
    private let smoothed, minimum, minimumNext, cleanBefore, prior, post, zeta, barkWeight: UnsafeMutablePointer<Float>
    private var frames = 0, minimumCount = 0
    /// speex's 1 (its least noise, added to every noise total) in the suppressor's units: a
    /// power of one 16-bit step through speex's 2N-point transform scaled by 1/2N.
    private let unit: Float
    /// `denoise=`'s floor and the residual echo's floors alone and in double talk (power factors).
    private let noiseFloor: Float, echoSuppress: Double, echoSuppressActive: Double
    /// The speech probability of the latest frame (0.1...1).
    package private(set) var speechProbability: Float = 0.1

    /// A bin keeps its noise estimate (it may fall, not rise) while its echo is more than this
    /// share of its smoothed power (−6 dB): after an echo-path change speex's estimate rose with
    /// the residual echo, and its gain then took the residual for noise.
    package static let echoShareForNoise: Float = 0.25
    /// preprocess.c's constants: the noise's least update rate, the smoothed power's minimum
    /// over `minimumFrames` (by the frames run so far, at 100/1000/10000) with S over `speechRatio`
    /// times it where speech may be, the a priori SNR's cap.
    package static let leastRate: Float = 0.03, speechRatio: Float = 0.4, mostSNR: Float = 100
    package static let minimumFrames = [15, 50, 150, 300]

    /// For the suppressor's `bins` of an `fftSize`-point transform of frames of `frameFrames` at
    /// `rate` Hz; `denoiseDB` (0 for none), `suppressDB`, `activeDB`: `denoise=`, `suppress=`,
    /// `suppress-active=` (dB, negative).
    package init(bins: Int, fftSize: Int, frameFrames: Int, rate: Int, denoiseDB: Double, suppressDB: Double, activeDB: Double) {
        self.bins = bins
        var made: [UnsafeMutablePointer<Float>] = []
        func buffer(_ value: Float = 0) -> UnsafeMutablePointer<Float> {
            let b = UnsafeMutablePointer<Float>.allocate(capacity: bins)
            b.initialize(repeating: value, count: bins)
            made.append(b)
            return b
        }
        let step = Float(2 * frameFrames) / 32768
        unit = step * step
        gain = buffer(1); noise = buffer(unit); smoothed = buffer(); minimum = buffer(); minimumNext = buffer()
        cleanBefore = buffer(); prior = buffer(); post = buffer(); zeta = buffer(); barkWeight = buffer()
        buffers = made
        noiseFloor = Float(pow(10, min(0, denoiseDB) / 10))
        echoSuppress = suppressDB
        echoSuppressActive = activeDB
        // Each bin's share of the Bark scale up to the Nyquist frequency (speex's bands are
        // equal steps of it): ζ's mean over the bands.
        func bark(_ f: Double) -> Double { 13 * atan(0.00076 * f) + 3.5 * atan(f * f / (7500 * 7500)) }
        let hz = Double(rate) / Double(fftSize), top = Double(rate) / 2
        for k in 0..<bins {
            let lo = max(0, (Double(k) - 0.5) * hz), hi = min(top, (Double(k) + 0.5) * hz)
            barkWeight[k] = Float((bark(hi) - bark(lo)) / bark(top))
        }
    }

    private var buffers: [UnsafeMutablePointer<Float>] = []
    deinit { for b in buffers { b.deallocate() } }

    /// One frame: `power`, |C|² per bin (raw, this frame's window); `echo`, the leak residual
    /// per bin (`LeakResidual.power`); `otherEcho`, the suppressor's predicted residual per bin
    /// (for the noise's update only). Fills `gain`.
    package func update(power ps: UnsafePointer<Float>, echo: UnsafePointer<Float>, otherEcho: UnsafePointer<Float>) {
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
            cleanBefore.update(from: ps, count: bins)
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
            let quiet = !(Self.speechRatio * smoothed[k] > minimum[k]) && echo[k] + otherEcho[k] <= Self.echoShareForNoise * smoothed[k]
            if falls || quiet { noise[k] = max(0, (1 - rate) * noise[k] + rate * ps[k]) }
        }
        // SNRs, decision-directed.
        for k in 0..<bins {
            let total = unit + noise[k] + echo[k]
            post[k] = min(ps[k] / total - 1, Self.mostSNR)
            let r = cleanBefore[k] / (cleanBefore[k] + total)
            let g = 0.1 + 0.89 * r * r
            prior[k] = min(g * max(0, post[k]) + (1 - g) * cleanBefore[k] / total, Self.mostSNR)
        }
        zeta[0] = 0.7 * zeta[0] + 0.3 * prior[0]
        for k in 1..<(bins - 1) { zeta[k] = 0.7 * zeta[k] + 0.15 * prior[k] + 0.075 * prior[k - 1] + 0.075 * prior[k + 1] }
        zeta[bins - 1] = 0.7 * zeta[bins - 1] + 0.3 * prior[bins - 1]
        var zFrame: Float = 0
        for k in 0..<bins { zFrame += barkWeight[k] * zeta[k] }
        let pFrame = 0.1 + 0.899 * Self.qcurve(zFrame)
        speechProbability = pFrame
        let echoDB = (1 - Double(pFrame)) * echoSuppress + Double(pFrame) * echoSuppressActive
        let echoFloor = Float(pow(10, echoDB / 10))
        for k in 0..<bins {
            let floor = ((noiseFloor * noise[k] + echoFloor * echo[k]) / (unit + noise[k] + echo[k])).squareRoot()
            let ratio = prior[k] / (prior[k] + 1)
            let theta = ratio * (1 + post[k])
            var g = min(1, ratio * Self.hypergeometricGain(theta))
            cleanBefore[k] = 0.2 * cleanBefore[k] + 0.8 * g * g * ps[k]
            g = max(g, floor)
            let p1 = 0.199 + 0.8 * Self.qcurve(zeta[k])
            let q = 1 - pFrame * p1
            let presence = 1 / (1 + q / (1 - q) * (1 + prior[k]) * expf(-theta))
            let mixed = presence * g.squareRoot() + (1 - presence) * floor.squareRoot()
            gain[k] = mixed * mixed
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
