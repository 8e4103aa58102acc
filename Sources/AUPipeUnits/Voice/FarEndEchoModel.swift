import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s far-end echo model: the residual echo suppressor's echo estimate while the linear
/// filter's (Ŷ) cannot yet be trusted — while the call's first filter learns the room — built
/// on the far end itself, as WebRTC's AEC3 suppresses in its first second (its render power
/// over the delays it is unsure of, times an echo-path gain).
///
/// Per bin k of the suppressor's STFT (the same window, hop and FFT size), per frame:
/// - Q(k): the far end's power |X(k)|² (the reference before the delay line), the most over
///   the lags still possible — while the delay is unknown every lag up to `max-delay=`, once
///   known the two analysis windows around it — held with the tail's decay (`holdSeconds`);
/// - the coupling H(k) (the echo path's gain, power), learnt online from the microphone alone
///   (no Ŷ): towards (D's power − the noise floor) / Q (both smoothed as the suppressor's
///   spectra), where D is at least `micOverNoise` above its floor. Down at any time (a near
///   talker only adds power), up only within `nearOverEcho` of the prediction, outside double
///   talk and in frames taken for the echo's: before the delay is found those the far end
///   explains at one lag (`echoByLag`), once it is known those whose D is coherent with Ŷ
///   (`nearIncoherence`) or, while the fast start's Ŷ is not yet, explained at one lag. It
///   starts at `initialCoupling`. When the delay is found, H is rescaled by the ratio of the
///   two Q's, so what it learnt carries over;
/// - the leakage L(k): the share of the echo the linear stage leaves (C's power over D's),
///   learnt in the frames the suppressor takes for echo alone by Ŷ (coherent), from 1;
/// - the predicted residual F(k) = L·H·Q, handed to the suppressor from the delay's finding
///   until the linear stage first leaves less than `engagedLeakage` of the echo (C's power over
///   D's in those frames, over the bins L learns from), or the suppressor has had
///   `trustedSeconds` of echo alone by Ŷ, or `mostSeconds` of far end have passed (not again
///   after an echo-path change: tried, it took a near talker who started just after one for
///   echo). The suppressor adds it to its own R in the frames
///   it explains (C at most the suppressor's `explainedMargin` times F and the noise, no double
///   talk, D coherent with Ŷ); otherwise it runs as it did without the model.
/// Before the delay is found there is no Ŷ to tell a near talker from the echo (the model
/// handed over in every frame: 10–14 dB of a near talker who starts with the call lost;
/// figures in bench/README.md): there the frames it is handed over in are those whose D the far
/// end explains at one lag (`echoByLag`, `FarEndLagCoherence`), and F is the echo's coherent
/// share of each bin times the power the gain applies to, not H·Q (a near talker's bins are
/// incoherent). Until the model is out, such a frame also counts as coherent once the delay is
/// known, while the fast start's Ŷ is not yet coherent with D.
/// Everything is allocated in `init`; a frame allocates nothing.
package final class FarEndEchoModel {
    /// Q's hold: its decay time constant (s, power), the suppressor's tail (`tailSeconds`):
    /// slower than a room of RT60 1 s decays (0.07 s), so the tail is covered.
    package static let holdSeconds = 0.15
    /// H's first value: an echo as loud as the far end's loudest lag (0 dB); learnt down from
    /// the first frames of echo.
    package static let initialCoupling: Float = 1
    /// H's and L's time constants (s).
    package static let couplingSeconds = 0.1, leakageSeconds = 0.2
    /// A bin's microphone power above this many times the predicted echo (6 dB) is the near
    /// end's: H is not raised by it.
    package static let nearOverEcho: Float = 4
    /// The model is handed to the suppressor while the linear stage leaves at least this share
    /// of the echo (−20 dB).
    package static let engagedLeakage: Float = 0.01
    /// ... or until the suppressor has had this much echo alone by Ŷ (s), or this much far end.
    package static let trustedSeconds = 0.5, mostSeconds = 4.0
    /// Once the delay is known: a frame whose D is less coherent with Ŷ than 1 − this (weighted
    /// by Ŷ's power, as the suppressor's test) is not taken for echo alone by the model, nor
    /// raises H: the near end may be there.
    package static let nearIncoherence: Float = 0.3
    /// D must be this many times its noise floor (10 dB) for H or L to learn from a bin.
    package static let micOverNoise: Float = 10
    /// D's noise floor of the model's own, beside the suppressor's (the larger counts; the
    /// suppressor's first window holds the zeros before the stream, so it reads 0 for the
    /// call's first 2–4 s, and H would learn from the noise before the echo arrives): the least
    /// of D's smoothed power per bin, rising by `floorRiseDB` a second, from `warmSeconds` on
    /// (the window's and the smoothing's start).
    package static let floorRiseDB = 6.0, warmSeconds = 0.15
    /// A frame whose D the far end explains at one lag to this share of its power
    /// (`FarEndLagCoherence`, less the estimate's bias): between what a near talker alone or
    /// noise reads and what an echo alone reads, under what a near talker as loud as the echo
    /// leaves (bench/README.md, "The call's first echo by its coherence with the far end") ...
    package static let echoShare: Float = 0.4
    /// ... for this long in a row (s) is the echo's: a near talker who starts with the echo
    /// lowers the smoothed coherence within a few frames, not in the first (taken from the first
    /// frame, such a talker lost level over the echo's first second; bench/README.md).
    package static let echoRunSeconds = 0.08

    /// Samples per frame (N), the FFT size and its bins; the lags held (frames).
    package let frameFrames: Int, fftSize: Int, bins: Int, lags: Int
    private let fft: RealFFT
    private let holdDecay: Float, couplingRate: Float, leakageRate: Float
    /// The suppressor's analysis window (`LowDelayWindows`, L samples).
    private let window: UnsafePointer<Float>
    private let windowFrames: Int
    /// The far end (mono, full scale 1): this frame's N samples, and the L the window covers.
    private let xIn, xHist: UnsafeMutablePointer<Float>
    /// FFT work (fftSize), the spectrum (bins each).
    private let work, re, im: UnsafeMutablePointer<Float>
    /// |X|² of the last `lags` windows (lags × bins; `head` is the newest).
    private let ring: UnsafeMutablePointer<Float>
    private var head = 0
    /// Per bin: Q over every lag and over the delay's two, held; Q in use smoothed; H; L; F; scratch.
    private let qAll, qKnown, sq, coupling, leakage, predicted, most, floor: UnsafeMutablePointer<Float>
    /// Before the delay, each bin's coherent share at the best lag (`FarEndLagCoherence.shares`).
    private let lagShare: UnsafeMutablePointer<Float>
    private let floorRise: Float, warmFrames: Int
    /// Every buffer below, freed with the object.
    private let buffers: FloatBuffers
    /// Keeps the window alive.
    private let windows: LowDelayWindows
    /// Whether the delay was known at the previous frame.
    private var knewDelay = false
    /// Frames in a row the far end has explained at one lag.
    private var lagRun = 0
    /// From the call's start until the model is out: D's coherence with the far end at every lag,
    /// which tells the call's first echo from a near talker (`echoByLag`).
    private let lagCoherence: FarEndLagCoherence
    /// L over all bins: C's power over D's in frames of echo alone by Ŷ (1 until there are any).
    private var overall: Float = 1
    /// Whether the model is out for good (see `update`).
    private var settled = false
    /// Frames of echo alone by Ŷ, and frames of far end, so far.
    private var trustedCount = 0, farCount = 0
    private let trustedFrames: Int, mostFrames: Int, echoRunFrames: Int
    /// Frames run (until it is out for good), and those in which it was handed to the suppressor.
    package private(set) var framesRun = 0, framesEngaged = 0
    /// The predicted residual of the last frame (F, per bin; valid while `update` returned > 0).
    package var residual: UnsafePointer<Float> { UnsafePointer(predicted) }

    /// For the suppressor's frames of `frameFrames` at `rate` Hz, FFT `fftSize`, analysis window
    /// `windows`' (its `analysis`; nil: 2N-sample sqrt-Hann); `maxDelayFrames` (`max-delay=`,
    /// samples) bounds the lags searched before the delay is known.
    package init(frameFrames: Int, fftSize: Int, rate: Int, maxDelayFrames: Int, windows: LowDelayWindows? = nil) {
        let windows = windows ?? LowDelayWindows(standard: frameFrames)
        self.windows = windows
        self.frameFrames = frameFrames
        self.fftSize = fftSize
        bins = fftSize / 2 + 1
        lags = (maxDelayFrames + frameFrames - 1) / frameFrames + 2
        fft = RealFFT(size: fftSize)
        let seconds = Double(frameFrames) / Double(rate)
        holdDecay = Float(exp(-seconds / Self.holdSeconds))
        couplingRate = Float(1 - exp(-seconds / Self.couplingSeconds))
        leakageRate = Float(1 - exp(-seconds / Self.leakageSeconds))
        floorRise = Float(pow(10, Self.floorRiseDB / 10 * seconds))
        warmFrames = Int((Self.warmSeconds / seconds).rounded(.up))
        trustedFrames = Int((Self.trustedSeconds / seconds).rounded())
        mostFrames = Int((Self.mostSeconds / seconds).rounded())
        echoRunFrames = max(1, Int((Self.echoRunSeconds / seconds).rounded()))
        let buffers = FloatBuffers()
        self.buffers = buffers
        func buffer(_ n: Int, _ value: Float = 0) -> UnsafeMutablePointer<Float> { buffers.make(n, value) }
        let n = frameFrames, k = fftSize / 2 + 1
        window = UnsafePointer(windows.analysis)
        windowFrames = windows.length
        xIn = buffer(n); xHist = buffer(windows.length)
        work = buffer(fftSize); re = buffer(k); im = buffer(k)
        ring = buffer(lags * k)
        qAll = buffer(k); qKnown = buffer(k); sq = buffer(k)
        coupling = buffer(k, Self.initialCoupling); leakage = buffer(k, 1)
        predicted = buffer(k); most = buffer(k); floor = buffer(k, .greatestFiniteMagnitude); lagShare = buffer(k)
        lagCoherence = FarEndLagCoherence(bins: k, lags: lags, smoothing: ResidualEchoSuppressor.statsSmoothing)
    }

    /// Whether this frame's microphone is the far end's echo by its coherence with the far end
    /// at the best lag (`FarEndLagCoherence`: a share of D's power at least `echoShare` for
    /// `echoRunSeconds` in a row); nil once the model is out. `re`, `im`: the suppressor's
    /// transform of C + j·Ŷ (`size` points); `sdd`: D's smoothed power.
    package func echoByLag(sdd: UnsafePointer<Float>, re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int) -> Bool? {
        if settled { return nil }
        let share = lagCoherence.update(sdd: sdd, re: re, im: im, size: size)
        lagRun = share >= Self.echoShare ? lagRun + 1 : 0
        return lagRun >= echoRunFrames
    }


    /// The frame's far end (`speakers` interleaved channels, full scale 1, before the delay
    /// line), then Q for the window the suppressor analyses this frame (the L samples before
    /// this one, as its C and Ŷ); `delay`: the bulk delay in use (samples), nil while unknown.
    package func analyse(reference: UnsafePointer<Float>, speakers: Int, delay: Int?) {
        // Out for good: nothing of it is read again (no CPU after the call's first seconds).
        if settled { return }
        let n = frameFrames
        for i in 0..<n {
            var x: Float = 0
            for c in 0..<speakers { x += reference[i * speakers + c] }
            xIn[i] = x / Float(speakers)
        }
        let l = windowFrames
        for i in 0..<l { work[i] = window[i] * xHist[i] }
        for i in l..<fftSize { work[i] = 0 }
        fft.forward(work, re: re, im: im)
        lagCoherence.push(re: re, im: im)
        LowDelayWindows.slide(xHist, length: l, adding: xIn, count: n)
        head = (head + 1) % lags
        let newest = ring + head * bins
        for k in 0..<bins { newest[k] = re[k] * re[k] + im[k] * im[k] }
        // The most over every lag, while the delay is unknown and in the frame it is found (H
        // is rescaled by it then; later only the delay's two are read), and over the delay's
        // two (the echo of the window `delay` samples back straddles two of the ring's windows).
        if !knewDelay {
            most.update(from: newest, count: bins)
            for j in 1..<lags {
                let slot = ring + ((head - j + lags) % lags) * bins
                for k in 0..<bins { most[k] = max(most[k], slot[k]) }
            }
            for k in 0..<bins { qAll[k] = max(most[k], holdDecay * qAll[k]) }
        }
        let first = min((delay ?? 0) / n, lags - 2)
        let a = ring + ((head - first + lags) % lags) * bins, b = ring + ((head - first - 1 + lags) % lags) * bins
        for k in 0..<bins { qKnown[k] = max(max(a[k], b[k]), holdDecay * qKnown[k]) }
        // The delay just found: what H learnt against every lag carries over to the delay's two.
        if delay != nil, !knewDelay {
            for k in 0..<bins where qKnown[k] > 0 { coupling[k] = min(coupling[k] * qAll[k] / qKnown[k], Self.initialCoupling) }
            sq.update(from: qKnown, count: bins)
        }
        knewDelay = delay != nil
    }

    /// After the suppressor's statistics of the frame (per bin: `sdd`, D's smoothed power;
    /// `see`, C's; `noise`, C's noise floor; `coherence`, D's with Ŷ; `smoothing`, theirs):
    /// learns H (not from double talk upwards: `doubleTalk`) and L (in frames of echo alone by
    /// Ŷ: `echoOnly`, bins whose coherence is at least `nearCoherence`), and predicts F
    /// (`residual`; before the delay, in a frame of `echoByLag`, the echo's coherent share of
    /// each bin of `power`, the power the suppressor's gain applies to). Returns F's sum over
    /// the bins while the model is handed to the suppressor, else 0.
    package func update(sdd: UnsafePointer<Float>, see: UnsafePointer<Float>, noise: UnsafePointer<Float>, coherence: UnsafePointer<Float>,
                        nearCoherence: Float, smoothing a: Float, echoOnly: Bool, doubleTalk: Bool, echoByLag: Bool,
                        power: UnsafePointer<Float>) -> Float {
        if settled { return 0 }
        framesRun += 1
        let q = knewDelay ? qKnown : qAll
        // Before the delay, in a frame the far end explains at one lag: each bin's coherent share
        // of `power`, not H·Q over every lag (a near talker's bins are incoherent).
        let byLag = !knewDelay && echoByLag
        if byLag { lagCoherence.shares(sdd: sdd, into: lagShare) }
        var residualSum: Float = 0, left: Float = 0, heardSum: Float = 0
        for k in 0..<bins {
            sq[k] = a * sq[k] + (1 - a) * q[k]
            let d = sdd[k]
            if framesRun > warmFrames { floor[k] = min(floor[k] * floorRise, d) }
            let z = max(noise[k], floor[k]), heard = d > Self.micOverNoise * z
            if heard, sq[k] > 0 {
                let r = (d - z) / sq[k], h = coupling[k]
                if r < h || (!doubleTalk && r <= Self.nearOverEcho * h) { coupling[k] = h + couplingRate * (r - h) }
            }
            if echoOnly, heard, coherence[k] >= nearCoherence {
                leakage[k] += leakageRate * (min(see[k] / d, 1) - leakage[k])
                left += see[k]
                heardSum += d
            }
            predicted[k] = byLag ? lagShare[k] * power[k] : leakage[k] * coupling[k] * q[k]
            residualSum += predicted[k]
        }
        // The share of the echo the linear stage leaves over all those bins (a near talker's
        // bins, where the echo is seldom heard, would keep their first L of 1).
        if heardSum > 0 { overall += leakageRate * (min(left / heardSum, 1) - overall) }
        // Once the linear stage has cancelled `engagedLeakage`, the model stays out for good (a
        // few frames of echo alone by Ŷ in double talk, a near talker in them, would otherwise
        // bring it back).
        // It also stays out once the suppressor has taken `trustedSeconds` of frames for echo
        // alone by Ŷ (its own model has adapted on them: in babble C's power holds the noise,
        // and L never falls to `engagedLeakage`), and after `mostSeconds` of far end.
        if echoOnly { trustedCount += 1 }
        if residualSum > 0 { farCount += 1 }
        if overall < Self.engagedLeakage || trustedCount >= trustedFrames || farCount >= mostFrames { settled = true }
        // Before the delay is known, only in frames the far end explains at one lag: a near talker
        // at the echo's level (a double talk that starts with the call) cannot be told from the
        // echo by the powers alone.
        guard residualSum > 0, !settled, knewDelay || echoByLag else { return 0 }
        framesEngaged += 1
        return residualSum
    }
}
