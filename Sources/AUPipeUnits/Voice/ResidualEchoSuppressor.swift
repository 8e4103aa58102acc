import AUPipeFormats
import AUPipeGraph
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s residual echo suppressor (`residual=1`): the echo the linear canceller leaves —
/// its misadjustment, the room's tail beyond `tail=`, and what no linear filter can model (a
/// saturating loudspeaker's harmonics and intermodulation) — taken out per frequency bin
/// without ducking the near talker.
///
/// It runs on one microphone, in the aec's frames of N samples, on an STFT at a hop of N
/// (zero-padded to a power of two): 2N-sample sqrt-Hann windows, one frame of latency, for
/// frames of 20 ms or more; for shorter frames the low-delay windows (`LowDelayWindows`: the
/// gain on a 40 ms analysis window, a short synthesis window, 2.5 ms of latency). `aec` removes
/// the latency (`latencySamples`) from the output's timing. Per bin:
/// - the signals: C, the canceller's output before speex's preprocessor; Ŷ = D − C, the
///   linear filter's echo estimate; D, the microphone; E, what the gain applies to: speex's
///   preprocessor's output (C, Ŷ and D held one frame to line up with it), or, with its work
///   done here (`SuppressorPreprocess`, `preprocess=1`), C itself, G then times its gain.
/// - the echo model, on C (whose residual follows Ŷ steadily; the preprocessor's output
///   does not, its own suppression switching from frame to frame): the residual echo power
///   R = w₁·P + w₂·S + w₃·B, with P = |Ŷ|² held with a decay of `tailSeconds` (the tail),
///   S = P spread over ±`spreadHz` (intermodulation near strong partials) and B = P's mean
///   over all bins (a saturating loudspeaker's distortion follows the echo's overall level
///   and spreads over the band; w₃ learns its shape). The weights adapt by NLMS on smoothed
///   power spectra, towards C's power less its noise floor, only in frames of echo alone.
/// - echo alone or not, per frame: the near end may be present when `aec`'s double-talk
///   detector says so, when D's coherence with Ŷ (weighted by Ŷ's power) is below
///   `echoCoherence`, or when D's power is more than `micOverEcho` times Ŷ's. That decides
///   when the model adapts. For the gain, the coherence test allows for the room's background:
///   in babble (or any noise that is itself speech) the microphone is less coherent with Ŷ in
///   most frames of echo alone, and a frame counts as echo alone while its incoherence
///   (1 − the weighted coherence) is within `backgroundMargin` times its running median over
///   such frames (`backgroundIncoherence`; at most `mostIncoherence`). A near talker starts
///   well above that median; in quiet rooms it stays below 1 − `echoCoherence` and nothing changes.
///   A frame whose C holds no more power than the background's median level while the far end
///   talks and the predicted residual (`BackgroundLevel`) is not taken for a near end's by its
///   incoherence: babble's frames of echo alone above the allowance are.
///   A frame whose C the model explains (a large predicted residual, as a saturating
///   loudspeaker's, that accounts for C's power: `explainedShare`, `explainedMargin`) counts
///   as echo alone for the gain however incoherent, once no near end has been detected for
///   `explainedHoldSeconds` (whatever its share while the nonlinear canceller models a
///   distortion: `DistortedEcho`).
/// - the gain: G = 1 − β·R/|C|², with β = `beta` in frames of echo alone and `betaNear`
///   otherwise (and at most 1 in bins where the near end is present: D incoherent with Ŷ
///   and C well above R); at least the gain that leaves C's noise floor (minimum tracking:
///   the noise bed stays, no pumping), at least `suppress=` (−80 dB by default) in frames of
///   echo alone and `suppress-active=` (−30) otherwise. No broadband gain is ever applied.
///   G is smoothed over time and over neighbouring bins.
/// - the call's first echo: until the linear filter has converged, the far end's echo model
///   (`FarEndEchoModel`: the far end's power times a coupling learnt from the microphone; before
///   the delay is found, each bin's coherent share with the far end at its best lag) adds its
///   predicted residual F to R in frames it explains (C within `explainedMargin` of F and the
///   noise, no double talk, D coherent with Ŷ or, before the delay is found and while the fast
///   start's Ŷ is not yet coherent, explained by the far end at one lag: `FarEndLagCoherence`),
///   which are then echo alone; Ŷ alone is not yet a good estimate there.
/// - the near end per bin (`NearEndPresence`): a frame with enough bins whose D is well above Ŷ
///   and the background, and whose C the model does not explain, is not echo alone; those bins pass C.
/// Where speex's preprocessor still runs (`preprocess=speex`, from 24 kHz, `agc=`, `vad=`,
/// `dereverb=`), after it, not before it: before, it cancels more but takes more of the near end
/// in double talk than is allowed (`EchoSceneTests`; figures in bench/README.md).
/// Everything is allocated in `init`; `capture` and `run` allocate nothing.
package final class ResidualEchoSuppressor {
    /// Samples per frame (N), the FFT size (a power of two ≥ the analysis window) and its bins (size/2 + 1).
    package let frameFrames: Int
    package let fftSize: Int
    package let bins: Int
    private let fft: FFT
    /// E's transform and the synthesis: real signals, at half a complex transform's cost.
    private let realFFT: RealFFT
    /// Least gain while only the far end talks and while both do (amplitude, 0...1).
    private let minGain: Float, activeGain: Float
    /// Ŷ's power decay per frame (the tail); the noise floor's window in frames, and frames into it.
    private let tailDecay: Float
    private let noiseWindow: Int
    private var noiseCount = 0
    /// The running median of the incoherence in frames of echo alone (0...`mostIncoherence` /
    /// `backgroundMargin`), and its step per frame.
    private var backgroundIncoherence: Float
    private let backgroundStep: Float
    /// Bins each side of S's spread.
    private let spreadBins: Int

    /// The analysis and synthesis windows and the overlap-add (`LowDelayWindows`), and the
    /// analysis window's length (L: 2N, or longer for short frames).
    package let windows: LowDelayWindows
    private let windowFrames: Int
    /// Time signals: this frame's Ŷ and C as captured before the preprocessor and its E (N each); the last
    /// L samples of Ŷ, C and E that the analysis window covers (the frames E lines up with); the
    /// synthesis's output (N).
    private let yIn, cIn, eIn, yHist, cHist, eHist, synthesised: UnsafeMutablePointer<Float>
    /// The samples the output comes late: a frame with the standard windows, M with the low-delay ones.
    package var latencySamples: Int { windows.overlap }
    /// FFT work (fftSize each).
    private let re, im, re2: UnsafeMutablePointer<Float>
    /// Per bin: E's spectrum (for synthesis); C's, Ŷ's and D's smoothed spectra and cross
    /// spectrum, C's lightly smoothed power; the regressors P and S and their smoothed values;
    /// the weights; C's noise floor and its minima; the gains (and, before them, the coherence).
    private let eRe, eIm: UnsafeMutablePointer<Float>
    private let see, syy, sdd, sdyRe, sdyIm, eFast: UnsafeMutablePointer<Float>
    private let p, s, sp, ss: UnsafeMutablePointer<Float>
    private let w1, w2, w3: UnsafeMutablePointer<Float>
    /// The weights as they were when a path change began (`run`'s `pathChanged`), put back
    /// when it ends; and whether one is under way.
    private let keptW1, keptW2, keptW3: UnsafeMutablePointer<Float>
    private var inPathChange = false
    /// Frames since `aec`'s double-talk detector or the level test last heard a near end (at
    /// most `explainedHoldFrames`), and the frames `explainedHoldSeconds` make.
    private var sinceNear = 0
    /// speex's DC notch, for D: Ŷ = D − C is then the filter's echo estimate alone (`SpeexDCNotch`).
    private var micNotch: SpeexDCNotch
    private let explainedHoldFrames: Int
    /// A near end heard within `explainedHoldSeconds`, as of the latest frame (`NonlinearEchoCanceller`).
    package var nearHeardRecently: Bool { sinceNear < explainedHoldFrames }
    private let noise, minNow, minBefore, gain, rawGain: UnsafeMutablePointer<Float>
    /// The statistics' sums over the bins (`aupipe_res_statistics`): P, coherence·|Ŷ|², |Ŷ|², |D|², noise.
    private let sums: UnsafeMutablePointer<Float>
    private var sb: Float = 0
    private let buffers: FloatBuffers
    /// The far end's echo model (`FarEndEchoModel`), used while Ŷ is not yet there; and w₃·B
    /// with its predicted residual added, for the gains while it is.
    package let farEnd: FarEndEchoModel?
    private let w3Plus: UnsafeMutablePointer<Float>
    /// Zeros (bins): no weight on Ŷ's regressors.
    private let zeros: UnsafeMutablePointer<Float>
    /// The near end per bin (nil: `keepsNearEnd` false), an echo-path change until the new filter's Ŷ
    /// is coherent again, and the model's predicted residual R per bin before this frame's step.
    private let nearEnd: NearEndPresence?
    package let transition: PathChangeTransition
    private let residual: UnsafeMutablePointer<Float>
    /// speex's preprocessor's work in this STFT (nil: its own runs before the suppressor).
    package let inside: SuppressorPreprocess?
    /// The background's median level while the far end talks (`BackgroundLevel`).
    private let background: BackgroundLevel
    /// A running shadow's output, passed in bins where it is much quieter than C (`ShadowEvidence`;
    /// nil unless the preprocessor's work is done here: C is then what the gain applies to).
    package let evidence: ShadowEvidence?
    /// The release after a near talker stops (`NearEndRelease`).
    package let release: NearEndRelease
    /// A distorting loudspeaker's frames (`DistortedEcho`), harmonics in `NearEndPresence`'s residual (`DistortionSpread`), bursts (`DistortionBurst`).
    package var distorted = DistortedEcho()
    package let spread: DistortionSpread, burst: DistortionBurst
    /// Frames run, those that adapted the model, and those whose gain took the far end for alone.
    package private(set) var framesRun = 0, framesAdapted = 0, framesEchoAlone = 0
    /// The model's weights summed over the bins (w₁, w₂, w₃): how much residual it predicts.
    package var weightSums: (Float, Float, Float) { (sum(w1), sum(w2), sum(w3)) }
    private func sum(_ w: UnsafeMutablePointer<Float>) -> Float { UnsafeBufferPointer(start: w, count: bins).reduce(0, +) }

    /// For frames of `frameFrames` at `rate` Hz; `suppressDB` and `activeDB` (negative) are
    /// `suppress=` and `suppress-active=`; with `maxDelayFrames` (`max-delay=`, samples) the far
    /// end's echo model (`FarEndEchoModel`), which `run` then needs the reference for;
    /// `keepsNearEnd`: bins of near end pass C (`NearEndPresence`; not with the preprocessor's agc,
    /// whose output's level C does not have); `preprocess`: its settings when its work is done here.
    package init(frameFrames: Int, rate: Int, suppressDB: Double, activeDB: Double, maxDelayFrames: Int? = nil, keepsNearEnd: Bool = true,
                 preprocess: PreprocessSettings? = nil) {
        micNotch = SpeexDCNotch(rate: rate)
        self.frameFrames = frameFrames
        windows = LowDelayWindows.suppressor(frameFrames: frameFrames, rate: rate)
        windowFrames = windows.length
        var size = 1
        while size < windowFrames { size <<= 1 }
        fftSize = size
        bins = size / 2 + 1
        fft = FFT(size: size)
        realFFT = RealFFT(size: size)
        minGain = Float(pow(10, suppressDB / 20))
        activeGain = Float(pow(10, activeDB / 20))
        let seconds = Double(frameFrames) / Double(rate)
        tailDecay = Float(exp(-seconds / Self.tailSeconds))
        noiseWindow = max(1, Int((Self.noiseSeconds / seconds).rounded()))
        backgroundIncoherence = (1 - Self.echoCoherence) / Self.backgroundMargin
        backgroundStep = Self.backgroundRate * Float(seconds)
        spreadBins = max(1, Int((Self.spreadHz * Double(size) / Double(rate)).rounded()))
        explainedHoldFrames = max(1, Int((Self.explainedHoldSeconds / seconds).rounded()))
        let buffers = FloatBuffers()
        self.buffers = buffers
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> { buffers.make(n) }
        let n = frameFrames, k = size / 2 + 1
        yIn = buffer(n); cIn = buffer(n); eIn = buffer(n); synthesised = buffer(n)
        yHist = buffer(windowFrames); cHist = buffer(windowFrames); eHist = buffer(windowFrames)
        re = buffer(size); im = buffer(size); re2 = buffer(size)
        eRe = buffer(k); eIm = buffer(k)
        see = buffer(k); syy = buffer(k); sdd = buffer(k); sdyRe = buffer(k); sdyIm = buffer(k); eFast = buffer(k)
        p = buffer(k); s = buffer(k); sp = buffer(k); ss = buffer(k)
        w1 = buffer(k); w2 = buffer(k); w3 = buffer(k)
        keptW1 = buffer(k); keptW2 = buffer(k); keptW3 = buffer(k)
        noise = buffer(k); minNow = buffer(k); minBefore = buffer(k); gain = buffer(k); rawGain = buffer(k)
        sums = buffer(5); w3Plus = buffer(k); zeros = buffer(k)
        residual = buffer(k); spread = DistortionSpread(bins: k); burst = DistortionBurst(size: size, rate: rate)
        background = BackgroundLevel(bins: k, frameSeconds: seconds)
        transition = PathChangeTransition(bins: k, frameSeconds: seconds)
        release = NearEndRelease(size: size, frameSeconds: seconds)
        nearEnd = keepsNearEnd ? NearEndPresence(size: size, rate: rate, frameSeconds: seconds) : nil
        let windows = windows
        inside = preprocess.map { SuppressorPreprocess(bins: k, fftSize: size, frameFrames: frameFrames, rate: rate, settings: $0, windows: windows) }
        evidence = preprocess == nil ? nil : ShadowEvidence(bins: k, fftSize: size, windowLength: windowFrames, frameFrames: frameFrames)
        farEnd = maxDelayFrames.map { FarEndEchoModel(frameFrames: frameFrames, fftSize: size, rate: rate, maxDelayFrames: $0, windows: windows) }
        // Until it has adapted: a residual `initialWeight` of the echo estimate.
        w1.update(repeating: Self.initialWeight, count: k)
        minNow.update(repeating: .greatestFiniteMagnitude, count: k)
        minBefore.update(repeating: .greatestFiniteMagnitude, count: k)
        gain.update(repeating: 1, count: k)
    }

    /// The microphone and the canceller's output of this frame, before speex's preprocessor (N
    /// 16-bit samples each; the output after the nonlinear canceller, when it runs); `shadow`, a
    /// shadow's output while one started at a fall runs beside the canceller (`ShadowEvidence`).
    package func capture(mic: UnsafePointer<Int16>, cancelled: UnsafePointer<Int16>, shadow: UnsafePointer<Int16>? = nil) {
        for i in 0..<frameFrames {
            let d = micNotch(Float(mic[i]) / 32768), c = Float(cancelled[i]) / 32768
            cIn[i] = c
            yIn[i] = d - c
        }
        evidence?.capture(shadow: shadow, c: cIn)
    }

    /// Suppresses the residual echo of `frame` (N 16-bit samples: speex's preprocessor's output, or C),
    /// in place, `latencySamples` late (the overlap-add). `doubleTalk`: `aec`'s detector.
    /// With the far end's echo model: `reference`, the frame's far end before the delay line
    /// (`speakers` interleaved channels, full scale 1), and `delay`, the bulk delay in use
    /// (samples; nil while `delay=auto` has not found it). `echoOutput`: `SuppressorPreprocess.update`'s.
    package func run(_ frame: UnsafeMutablePointer<Int16>, doubleTalk: Bool, pathChanged reported: Bool = false,
                     reference: UnsafePointer<Float>? = nil, speakers: Int = 1, delay: Int? = nil, echoOutput: UnsafePointer<Int16>? = nil) {
        if let farEnd, let reference { farEnd.analyse(reference: reference, speakers: speakers, delay: delay) }
        let n = frameFrames, size = fftSize, l = windowFrames, window = windows.analysis
        if inside != nil { slide(cHist, cIn); slide(yHist, yIn) } // `frame` is C
        for i in 0..<n { eIn[i] = Float(frame[i]) / 32768 }
        LowDelayWindows.slide(eHist, length: l, adding: eIn, count: n)
        // Analysis: the canceller's output C and Ŷ in one complex transform, E in another (D is
        // their sum, Ŷ + C).
        for i in 0..<l {
            re[i] = window[i] * cHist[i]
            im[i] = window[i] * yHist[i]
            re2[i] = window[i] * eHist[i]
        }
        for i in l..<size { re[i] = 0; im[i] = 0; re2[i] = 0 }
        fft.forward(real: re, imag: im)
        realFFT.forward(re2, re: eRe, im: eIm)
        // Ŷ and C move on a frame (behind the preprocessor's output by one).
        if inside == nil { slide(cHist, cIn); slide(yHist, yIn) }

        let a = Self.statsSmoothing, g = Self.gainPowerSmoothing
        // Per bin (`aupipe_res_statistics`, C: eight bins at a time, the same bits as one by one):
        // E = C and Ŷ split from the transform, D = Ŷ + C (the transform is linear); their
        // smoothed powers and cross spectrum, |E|² lightly smoothed, P = max(|Ŷ|², decay·P); the
        // coherence (into `rawGain`, until the gain is computed); the noise floor: the least of
        // C's smoothed power over the last one to two `noiseSeconds`, times the bias of a minimum.
        // Then their sums over the bins.
        aupipe_res_statistics(re, im, size, bins, a, g, tailDecay, Self.minimumBias, see, syy, sdd, sdyRe, sdyIm, eFast, p, rawGain,
                              minNow, minBefore, noise, sums)
        let pSum = sums[0], cohWeighted = sums[1], yWeight = sums[2], dWeight = sums[3]; var noiseSum = sums[4]
        let b = pSum / Float(bins)
        noiseCount += 1
        if noiseCount >= noiseWindow {
            noiseCount = 0
            minBefore.update(from: minNow, count: bins)
            minNow.update(repeating: .greatestFiniteMagnitude, count: bins)
        }
        // S: P spread over ±spreadBins (a running sum).
        var run: Float = 0
        for k in 0...min(spreadBins, bins - 1) { run += p[k] }
        for k in 0..<bins {
            let lo = k - spreadBins, hi = k + spreadBins
            s[k] = run / Float(min(hi, bins - 1) - max(lo, 0) + 1)
            if hi + 1 < bins { run += p[hi + 1] }
            if lo >= 0 { run -= p[lo] }
        }
        // Echo alone: no double talk, D coherent with Ŷ and at most `micOverEcho` above it (the
        // near end adds power the filter does not predict); the model adapts when Ŷ is also
        // well above C's noise.
        // Just after a confirmed echo-path change (`pathChanged`: until the new filter's Ŷ is coherent with D
        // again, `PathChangeTransition`; then C's noise floor held) the coherence tests are set aside (a new
        // filter's estimate is not yet coherent with the microphone, but it is all echo; the level test
        // stays: a near end that starts then is louder than the estimate) and the model learns the
        // transitional residual; the weights it had before are put back when that ends, so that the
        // transition's larger leakage does not deepen the suppression of later double talk.
        let loud = dWeight > Self.micOverEcho * yWeight
        // The transition reads the far-end and coherence tests of `farHeard` and `allowed` below, but
        // from this frame's noise floor before `hold` and the background's incoherence before this
        // frame's update: during the change they differ from the gain's (which see the held floor).
        let pathChanged = transition.update(pathChanged: reported, doubleTalk: doubleTalk, farHeard: !doubleTalk && !loud && pSum > Self.farOverNoise * noiseSum,
                                            coherent: 1 - cohWeighted / max(yWeight, 1e-20) <= max(1 - Self.echoCoherence, Self.backgroundMargin * backgroundIncoherence), noise: noise)
        if pathChanged, !reported { noiseSum = transition.hold(noise) }
        if pathChanged != inPathChange {
            inPathChange = pathChanged
            if pathChanged {
                keptW1.update(from: w1, count: bins); keptW2.update(from: w2, count: bins); keptW3.update(from: w3, count: bins)
            } else {
                w1.update(from: keptW1, count: bins); w2.update(from: keptW2, count: bins); w3.update(from: keptW3, count: bins)
            }
        }
        var predicted: Float = 0, heard: Float = 0
        for k in 0..<bins {
            residual[k] = w1[k] * p[k] + w2[k] * s[k] + w3[k] * b
            predicted += residual[k]
            heard += eFast[k]
        }
        // The far end heard well above the noise, the near end not detected by level or by `aec`'s double-talk
        // detector. After the change `aec` reports, a frame is the change's only while the model explains C.
        let farHeard = !doubleTalk && !loud && pSum > Self.farOverNoise * noiseSum
        let changeFrame = pathChanged && (reported || heard <= Self.explainedMargin * (predicted + noiseSum))
        if reported, loud, heard > Self.explainedMargin * (predicted + noiseSum) { transition.heardNearEnd() }
        let echoOnly = farHeard && (changeFrame || cohWeighted >= Self.echoCoherence * yWeight)
        // For the gain, the coherence test allows for the background's incoherence (its running
        // median over such frames outside a path change).
        let incoherence = 1 - cohWeighted / max(yWeight, 1e-20)
        if farHeard, !pathChanged {
            backgroundIncoherence += backgroundStep * (incoherence > backgroundIncoherence ? 1 : -1)
            // No higher than where it stops mattering (the margin times it reaching
            // `mostIncoherence`), so that it comes down again within 5 s.
            backgroundIncoherence = min(max(backgroundIncoherence, 0), Self.mostIncoherence / Self.backgroundMargin)
        }
        let allowed = max(1 - Self.echoCoherence, Self.backgroundMargin * backgroundIncoherence)
        // A loudspeaker's distortion makes the microphone incoherent with Ŷ too: where the model's residual is a
        // large share of the echo estimate (`explainedShare`) and, with the noise floor, accounts for C's power
        // (within `explainedMargin`), the frame is echo alone whatever its coherence. A near talker adds power the model does not predict.
        if distorted.bold { spread.sources(from: p) }
        var nearEndFrame = nearEnd?.update(re: re, im: im, sdd: sdd, see: see, noise: noise, eFast: eFast,
                                           residual: spread.residual(residual, used: distorted.bold && !doubleTalk && !loud), smoothing: g,
                                           echoOnly: echoOnly, farAlone: farHeard && !pathChanged && incoherence <= allowed, level: UnsafePointer(background.level),
                                           pathChanged: pathChanged, linear: predicted < NearEndPresence.linearShare * pSum) ?? false
        if nearEndFrame, distorted.bold, !doubleTalk, !loud, let nearEnd { nearEndFrame = burst.nearWord(nearEnd, percentile: spread.percentile(residual), noise: noise, eFast: eFast) }
        sinceNear = (doubleTalk || loud) ? 0 : min(sinceNear + 1, explainedHoldFrames)
        let explained = farHeard && sinceNear >= distorted.hold(explainedHoldFrames) && predicted >= distorted.explainedShare(Self.explainedShare) * pSum
            && heard <= Self.explainedMargin * (predicted + noiseSum)
        // Ŷ not yet there (`FarEndEchoModel`): a frame whose C the far end's predicted echo
        // explains (as `explained`'s margin) is echo alone, outside double talk.
        // Once the delay is known, the fast start's filter gives a Ŷ whose coherence with D tells
        // a near talker from the echo even before it cancels much (`FarEndEchoModel.nearIncoherence`).
        // Before it is known, and while the model is in use, D's coherence with the far end at the best
        // lag also does (`FarEndEchoModel.echoByLag`).
        let echoByLag = reference == nil ? nil : farEnd?.echoByLag(sdd: sdd, re: re, im: im, size: size)
        let coherentEnough = echoByLag == true || delay != nil && incoherence <= FarEndEchoModel.nearIncoherence
        var farEndSum: Float = 0
        if let farEnd, reference != nil {
            farEndSum = farEnd.update(sdd: sdd, see: see, noise: noise, coherence: rawGain, nearCoherence: Self.nearCoherence, smoothing: a,
                                      echoOnly: echoOnly, doubleTalk: doubleTalk || !coherentEnough, echoByLag: echoByLag ?? false,
                                      power: UnsafePointer(eFast))
        }
        let farEndExplains = farEndSum > Self.farOverNoise * noiseSum && !doubleTalk && coherentEnough
            && heard <= Self.explainedMargin * (farEndSum + noiseSum)
        // Babble's incoherence: a frame whose C the background's median level and R account for (`BackgroundLevel`).
        let backgroundExplains = background.explains(power: eFast, heard: farHeard && !pathChanged, present: nearEndFrame, powerSum: heard, predicted: predicted)
        let nearActive = (doubleTalk || loud || nearEndFrame || (!changeFrame && !(incoherence <= allowed) && !explained && !backgroundExplains)) && !farEndExplains
        if !nearActive { framesEchoAlone += 1 }
        sb = a * sb + (1 - a) * b
        // The regressors smoothed, and in frames of echo alone one NLMS step per bin where D is
        // coherent with Ŷ, towards C's power less its noise floor (`aupipe_res_adapt`, C).
        if echoOnly { framesAdapted += 1 }
        aupipe_res_adapt(bins, a, p, s, sp, ss, sb, echoOnly ? 1 : 0, rawGain, Self.nearCoherence, see, noise, Self.step, Self.maxWeight, w1, w2, w3)
        // The gains (`aupipe_res_gains`, C): 1 − β·R/|E|², β at most 1 where the near end is
        // present; never below the gain that keeps C's noise floor (the noise bed), nor below
        // the floor; then smoothed over time and over neighbouring bins.
        let floor = nearActive ? activeGain : minGain
        let beta = nearActive ? Self.betaNear : Self.beta
        // R + F: the far end's predicted residual enters the gain as R does (w₃·B + F, B = 1),
        // in the frames it explains (elsewhere a near talker may be what it predicts).
        var w3In = UnsafePointer(w3), bIn = b, w1In = UnsafePointer(w1), w2In = UnsafePointer(w2)
        if farEndExplains, let farEnd {
            let f = farEnd.residual
            // Before the delay is found Ŷ is a filter's at the wrong delay: F alone.
            let early = delay == nil
            for k in 0..<bins { w3Plus[k] = early ? f[k] : w3[k] * b + f[k] }
            (w3In, bIn) = (UnsafePointer(w3Plus), 1)
            if early { (w1In, w2In) = (UnsafePointer(zeros), UnsafePointer(zeros)) }
        }
        // A distorting loudspeaker's echo alone (`DistortedEcho`): no bin kept as near end by coherence.
        let deep = distorted.deep(farHeard: farHeard, nearActive: nearActive, nearHeard: nearHeardRecently)
        if deep, distorted.bold { spread.learn(power: eFast) }
        aupipe_res_gains(bins, w1In, w2In, w3In, p, s, bIn, eFast, noise, rawGain,
                         deep ? 0 : Self.nearCoherence, Self.nearOverResidual, beta, activeGain, floor,
                         Self.gainSmoothing, gain)
        // After a near word: bins this frame's C the model explains get the echo-alone gain (`NearEndRelease`).
        release.update(nearActive: nearActive, pathChanged: pathChanged, echoOnly: echoOnly, re: re, im: im, residual: residual, noise: noise,
                       gain: gain, present: nearEndFrame ? nearEnd?.present : nil, beta: Self.beta, floor: minGain,
                       background: inside.map { UnsafePointer($0.noise.noise) })
        // Synthesis: G·E (C in bins of near end), the inverse transform, the window, overlap-add.
        inside?.update(re: re, im: im, size: size, cRe: eRe, cIm: eIm, c: cHist + (l - n), y: yHist + (l - n), frameFrames: n, echoOutput: echoOutput)
        let shadowTaken = evidence?.apply(window: window, cPower: eFast, smoothing: g, eRe: eRe, eIm: eIm) == true
        for k in 0..<bins { let g = gain[k] * (inside?.gain[k] ?? 1); re[k] = g * eRe[k]; im[k] = g * eIm[k] }
        if let nearEnd, nearEndFrame {
            for k in 0..<bins where nearEnd.present[k] > 0 && !(shadowTaken && evidence?.taken[k] == 1) { re[k] = nearEnd.cRe[k]; im[k] = nearEnd.cIm[k] }
        }
        realFFT.inverse(re: re, im: im, into: re2)
        windows.synthesise(re2, into: synthesised)
        for i in 0..<n { frame[i] = SampleCodec.s16(synthesised[i], clipped: &clipped) }
        framesRun += 1
    }

    /// Moves `history` (the analysis window's L samples) on by a frame, `frame`'s N samples last.
    private func slide(_ history: UnsafeMutablePointer<Float>, _ frame: UnsafePointer<Float>) {
        LowDelayWindows.slide(history, length: windowFrames, adding: frame, count: frameFrames)
    }

    /// Output samples clipped to 16 bits (an overlap-add of gains ≤ 1 stays within full scale
    /// but for rounding).
    package private(set) var clipped = 0
}
