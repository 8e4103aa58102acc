import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Estimates the bulk delay of an echo path: how many frames `d` (0...maxDelay) the far-end
/// (reference, loudspeaker) signal must be delayed to line up with the near-end (microphone)
/// signal, mic[n] ≈ h · ref[n − d] — the shift to apply to the reference before an echo
/// canceller whose filter tail is shorter than the acoustic delay. The lag reported is that
/// of the strongest path, which in a room can trail the first (direct) arrival by a few ms:
/// shift the reference by a few ms less than the estimate, so no part of the echo comes
/// before the canceller's filter starts.
///
/// Algorithm: GCC-PHAT over a sliding window, smoothed, with hysteresis.
/// 0. Above 16 kHz both streams are first decimated by `decimation` = ⌈rate / 16 kHz⌉ (to
///    11–16 kHz, by `Decimator`, the same filter for both, so its delay cancels): the analysis
///    uses 100 Hz–7 kHz only, and this keeps the FFT small and a `maxDelay` of up to 3.5 s
///    possible at any rate. "Frames" in steps 1–4 are frames at this analysis rate.
/// 1. Both streams go into history rings. Every hop of a quarter of a second (once enough
///    frames have come for the first), the last half second of microphone frames
///    (Hann-weighted) and the reference frames that could have made their echo (the same
///    half second plus the longest lag before it) are transformed together by one complex FFT
///    of `fftSize` points (mic as the real part, reference as the imaginary part, both
///    zero-padded), so the circular correlation holds every lag 0...maxDelay without wrap,
///    each of them summing over the whole window.
/// 2. A window in which either signal is near-silent (mean square below `silenceLevel`) is
///    skipped: it changes nothing and is not counted as an estimate.
/// 3. The cross-spectrum G = conj(Mic)·Ref is whitened per bin (PHAT, divided by |G| plus a
///    small fraction of its band mean, so empty bins do not become loud noise), limited to
///    100 Hz...min(7 kHz, 0.45·rate), and smoothed exponentially across windows
///    (S ← smoothing·S + (1 − smoothing)·G/|G|). The inverse FFT of S is the whitened
///    correlation; its largest magnitude over the lags 0...maxDelay is this window's peak.
/// 4. The peak counts only if it stands `threshold` times above the noise floor, the median
///    magnitude over the lags 0...max(maxDelay, 511 frames): then its lag (refined by a
///    parabola through the peak and its neighbours when decimated, in stream frames) is this
///    estimate's candidate.
/// 5. Hysteresis (`DelayHysteresis`): the first estimate, and any later change, needs the same
///    candidate (within ±1 ms, or `firstEstimateTolerance` for the first) to win
///    `requiredWins` consecutive estimates; a window whose candidate is the current estimate,
///    or whose peak is too weak, breaks a challenger's run. Candidates within ±1 ms of the
///    current estimate do not move it (no jitter).
///
/// Timing, in stream frames: the first analysis comes after `firstAnalysisFrames` (half a
/// second plus `maxDelay`), the next every `hopFrames` (a quarter of a second); with speech on
/// both sides the first estimate is ready after about
/// `firstAnalysisFrames + (requiredWins − 1) · hopFrames`: 1.5 s with `maxDelay` 0.5 s, 3 s with
/// 2 s. Analyses happen at fixed frame counts, so the results do not depend on how the streams
/// are cut into blocks. An analysis costs two FFTs of `fftSize` points (16384 for `maxDelay`
/// 0.5 s at 16 or 48 kHz: under 1 ms in a release build) in the `push` call that completes it.
///
/// Everything is allocated in `init`; `push` allocates nothing. One thread at a time.
public final class DelayEstimator {
    /// The analysis window (s) unless `init` is given another.
    public static let defaultWindowSeconds = 0.5
    /// Frames per second of both streams.
    public let sampleRate: Int
    /// The largest delay looked for, in frames.
    public let maxDelay: Int
    /// Stream frames per analysis frame: ⌈sampleRate / 16000⌉ (1 up to 16 kHz, 3 at 44.1 and
    /// 48 kHz). Estimates are exact to the frame at 1, otherwise within about one analysis
    /// frame (parabolic interpolation between analysis frames).
    public let decimation: Int
    /// FFT points (at the analysis rate): the smallest power of two ≥ half a second plus
    /// max(maxDelay, 511 frames).
    public let fftSize: Int
    /// Microphone frames (stream frames) per analysis window: half a second.
    public let windowFrames: Int
    /// Stream frames between analyses: half a window.
    public let hopFrames: Int
    /// Stream frames before the first analysis: half a second plus `maxDelay` (at least 32 ms),
    /// or a quarter of a second with `analysesFromFirstHop`.
    public var firstAnalysisFrames: Int { (analysesFromFirstHop ? hop : span) * decimation }

    /// A window counts only when the mean square of both signals in it is at least this
    /// (linear; default 1e-7, an RMS of −70 dBFS).
    public var silenceLevel: Float = 1e-7
    /// How far above the noise floor (median correlation magnitude) a peak must stand to count
    /// (ratio, default 20). Unrelated speech-like signals give 5–13 (median 7.5); an echo 30 dB
    /// over the noise gives about 100, and still 50–70 under equal-level double talk.
    public var threshold: Double = 20
    /// The weight the previous smoothed cross-spectrum keeps at each analysis, 0..<1 (default 0.5).
    public var smoothing: Float = 0.5
    /// Hops from one analysis to the next (≥ 1, default 1): more analyses less often, for a
    /// caller that needs fewer (`aec`'s drift tracker once it has a drift: one a second).
    public var hopsPerAnalysis = 1 {
        didSet { hopsPerAnalysis = max(1, hopsPerAnalysis) }
    }
    /// Whether the analyses start after one hop (a quarter of a second) rather than after
    /// `span` (default false): before the streams' start both are silence, as the zeroed rings
    /// hold them, so these analyses are exact. Set before the first `push` (`aec`'s delay).
    public var analysesFromFirstHop = false {
        didSet { if received == 0 { nextAnalysis = analysesFromFirstHop ? hop : span } }
    }
    /// Consecutive estimates a new candidate must win before it is reported (default 3).
    public var requiredWins: Int {
        get { hysteresis.requiredWins }
        set { hysteresis.requiredWins = max(1, newValue) }
    }

    /// Frames the candidates that make the first estimate may differ by from one to the next
    /// (≥ 1; default the hysteresis's 1 ms, at least 1 frame). See
    /// `DelayHysteresis.firstTolerance`.
    public var firstEstimateTolerance: Int {
        get { hysteresis.firstTolerance }
        set { hysteresis.firstTolerance = max(1, newValue) }
    }

    /// The reported bulk delay in frames (0...maxDelay), or nil until a delay has won.
    public var estimate: Int? { hysteresis.estimate }
    /// How clearly the latest analysis supports the reported delay: the smoothed correlation's
    /// magnitude at that lag over the noise floor (at the strongest lag while there is no
    /// estimate), on the scale of `threshold`. At or above `threshold` (20): confirmed; an echo
    /// in a room 30 dB over the noise gives about 100; unrelated signals 5–13. 0 before the
    /// first analysis.
    public private(set) var confidence: Double = 0
    /// The latest analysis's strongest peak over the noise floor, whether or not it counted.
    public private(set) var peakToFloor: Double = 0
    /// The latest analysis's strongest lag in frames when it counted (peak over `threshold`),
    /// else nil.
    public private(set) var candidate: Int?
    /// Windows analysed (not skipped for silence).
    public private(set) var estimatesMade = 0
    /// Windows skipped because one of the signals was near-silent.
    public private(set) var windowsSkipped = 0
    /// Stream frames pushed so far.
    public private(set) var framesPushed = 0
    /// Stream frames pushed when the latest analysis (or skipped window) was made: its window's
    /// microphone frames end there (the frame of `push` that completed it, not the call's end).
    public private(set) var analysedAt = 0

    private var hysteresis: DelayHysteresis
    /// The latest analysis's noise floor (0: the window was skipped, or none yet) and strongest
    /// lag (analysis frames); its correlation stays in `re` until the next analysis.
    private var floorMagnitude: Float = 0
    private var strongestLag = 0
    private let fft: FFT
    private let micDecimator: Decimator, refDecimator: Decimator
    /// A block of both streams' decimated frames (`decimatedCapacity` + 1 each).
    private let decimatedMic, decimatedRef: UnsafeMutablePointer<Float>
    private let decimatedCapacity = 1024
    /// In analysis frames: the longest lag searched, the lags the floor is taken over (all of
    /// them sum over the whole window), the window, the hop, and the reference span
    /// (window + floorLags) that the rings hold.
    private let lags: Int, floorLags: Int, window: Int, hop: Int, span: Int
    /// History rings of `span` frames; `ringPosition` is where the next one goes.
    private let micRing: UnsafeMutablePointer<Float>
    private let refRing: UnsafeMutablePointer<Float>
    private var ringPosition = 0
    /// Analysis frames received, and the count at which the next analysis is due.
    private var received = 0
    private var nextAnalysis: Int
    private let hann: UnsafeMutablePointer<Float>
    /// FFT work arrays (`fftSize`), and the smoothed whitened cross-spectrum for bins 0...N/2.
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let smoothRe: UnsafeMutablePointer<Float>
    private let smoothIm: UnsafeMutablePointer<Float>
    /// Scratch for bin magnitudes and for the median (`fftSize` values).
    private let scratch: UnsafeMutablePointer<Float>
    /// `OrderStatistic.select`'s histogram (`radixBuckets` counts).
    private let histogram: UnsafeMutablePointer<Int32>
    /// The band analysed, in bins.
    private let lowBin: Int, highBin: Int
    /// Regularization of the PHAT weight: a fraction of the band's mean |G|.
    private let regularization: Float = 0.05

    /// Prepares an estimator for two mono streams at `sampleRate` (≥ 1000) looking for delays
    /// of 0...`maxDelay` frames. `maxDelay` may be up to 3.5 s at any rate (precisely: half a
    /// second plus `maxDelay` must fit in 65536 frames at the analysis rate). `windowSeconds`
    /// (default 0.5) is the analysis window (the hop is half of it), and `highestHz` (default
    /// 7 kHz) the top of the band analysed: a shorter window and a lower band keep the peak of
    /// an echo whose lag moves (clock drift: `aec`'s `DriftTracker`) sharp.
    public init(sampleRate: Int, maxDelay: Int, windowSeconds: Double = DelayEstimator.defaultWindowSeconds, highestHz: Double = 7000) {
        precondition(sampleRate >= 1000, "sample rate \(sampleRate) too low for delay estimation")
        precondition(maxDelay >= 0, "negative maxDelay")
        let q = (sampleRate + 15_999) / 16_000
        let analysisRate = Double(sampleRate) / Double(q)
        let window = Int(analysisRate * windowSeconds)
        let lags = (maxDelay + q - 1) / q
        let floorLags = max(lags, 511)
        precondition(window + floorLags <= FFT.maxSize,
                     "maxDelay \(maxDelay) too long at \(sampleRate) Hz (half a second plus the delay is over \(FFT.maxSize) frames at \(analysisRate) Hz)")
        self.sampleRate = sampleRate
        self.maxDelay = maxDelay
        decimation = q
        self.lags = lags
        self.floorLags = floorLags
        self.window = window
        hop = window / 2
        span = window + floorLags
        var n = 1
        while n < span { n *= 2 }
        fftSize = n
        windowFrames = window * q
        hopFrames = hop * q
        nextAnalysis = span
        hysteresis = DelayHysteresis(tolerance: max(1, sampleRate / 1000), requiredWins: 3)
        fft = FFT(size: n)
        micDecimator = Decimator(factor: q)
        refDecimator = Decimator(factor: q)
        decimatedMic = .allocate(capacity: decimatedCapacity + 1)
        decimatedRef = .allocate(capacity: decimatedCapacity + 1)
        micRing = .allocate(capacity: span)
        micRing.initialize(repeating: 0, count: span)
        refRing = .allocate(capacity: span)
        refRing.initialize(repeating: 0, count: span)
        hann = .allocate(capacity: window)
        for i in 0..<window {
            hann[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(window)))
        }
        re = .allocate(capacity: n)
        im = .allocate(capacity: n)
        scratch = .allocate(capacity: n)
        histogram = .allocate(capacity: OrderStatistic.radixBuckets)
        smoothRe = .allocate(capacity: n / 2 + 1)
        smoothRe.initialize(repeating: 0, count: n / 2 + 1)
        smoothIm = .allocate(capacity: n / 2 + 1)
        smoothIm.initialize(repeating: 0, count: n / 2 + 1)
        let binHz = analysisRate / Double(n)
        lowBin = max(1, Int((100 / binHz).rounded(.up)))
        highBin = min(n / 2 - 1, Int((min(highestHz, 0.45 * analysisRate) / binHz).rounded(.down)))
    }

    deinit {
        micRing.deallocate()
        refRing.deallocate()
        hann.deallocate()
        re.deallocate()
        im.deallocate()
        scratch.deallocate()
        histogram.deallocate()
        decimatedMic.deallocate()
        decimatedRef.deallocate()
        smoothRe.deallocate()
        smoothIm.deallocate()
    }

    /// Adds `frames` frames of both streams (mono, the same frames of time) and runs every
    /// analysis that falls due.
    public func push(mic: UnsafePointer<Float>, ref: UnsafePointer<Float>, frames: Int) {
        let base = framesPushed
        framesPushed += frames
        if decimation > 1 {
            // Both streams decimated a block at a time (the same phase: they take the same
            // frames), then each output in turn into the rings, analysing as it falls due.
            var done = 0
            while done < frames {
                let n = min(frames - done, decimatedCapacity * decimation)
                refDecimator.push(ref + done, count: n, into: decimatedRef) { _, _ in }
                micDecimator.push(mic + done, count: n, into: decimatedMic) { k, input in
                    micRing[ringPosition] = decimatedMic[k]
                    refRing[ringPosition] = decimatedRef[k]
                    ringPosition = ringPosition + 1 == span ? 0 : ringPosition + 1
                    received += 1
                    if received == nextAnalysis { analysedAt = base + done + input + 1; analyse() }
                }
                done += n
            }
            return
        }
        var done = 0
        while done < frames {
            let count = min(frames - done, nextAnalysis - received)
            var left = count, from = done
            while left > 0 {
                let run = min(left, span - ringPosition)
                (micRing + ringPosition).update(from: mic + from, count: run)
                (refRing + ringPosition).update(from: ref + from, count: run)
                ringPosition = (ringPosition + run) % span
                left -= run
                from += run
            }
            done += count
            received += count
            if received == nextAnalysis { analysedAt = base + done; analyse() }
        }
    }

    /// One window: GCC-PHAT, smoothing, peak picking, hysteresis.
    private func analyse() {
        nextAnalysis += hop * hopsPerAnalysis
        let n = fftSize
        // The rings' `span` frames, oldest first: all of them from the reference, the last
        // `window` from the microphone.
        // (The rings are read as two runs, from `ringPosition` to their end and from their
        // start: no division per frame; the sums go in the same order, oldest first.)
        var micEnergy = 0.0, refEnergy = 0.0
        let micStart = span - window, wrap = span - ringPosition
        (im + wrap).update(from: refRing, count: ringPosition)
        im.update(from: refRing + ringPosition, count: wrap)
        for i in 0..<span {
            let r = im[i]
            refEnergy += Double(r * r)
        }
        for i in micStart..<span {
            let m = i < wrap ? micRing[ringPosition + i] : micRing[i - wrap]
            micEnergy += Double(m * m)
            re[i - micStart] = m * hann[i - micStart]
        }
        (re + window).update(repeating: 0, count: n - window)
        (im + span).update(repeating: 0, count: n - span)
        if micEnergy / Double(window) < Double(silenceLevel) || refEnergy / Double(span) < Double(silenceLevel) {
            windowsSkipped += 1
            floorMagnitude = 0
            return
        }
        fft.forward(real: re, imag: im)

        // Split the two real spectra; G = conj(M)·R for the band, its magnitude in `scratch`.
        var magnitudeSum: Float = 0
        for k in lowBin...highBin {
            let a = re[k], b = im[k], c = re[n - k], d = im[n - k]
            let mr = 0.5 * (a + c), mi = 0.5 * (b - d)
            let rr = 0.5 * (b + d), ri = 0.5 * (c - a)
            let gr = mr * rr + mi * ri, gi = mr * ri - mi * rr
            let magnitude = (gr * gr + gi * gi).squareRoot()
            scratch[k] = magnitude
            magnitudeSum += magnitude
            // Bin k is read only here (bins above N/2 only as mirrors): G can go in its place.
            re[k] = gr
            im[k] = gi
        }
        let floor = regularization * magnitudeSum / Float(highBin - lowBin + 1) + Float.leastNormalMagnitude
        let keep = smoothing, take = 1 - smoothing
        for k in lowBin...highBin {
            let w = 1 / (scratch[k] + floor)
            smoothRe[k] = keep * smoothRe[k] + take * re[k] * w
            smoothIm[k] = keep * smoothIm[k] + take * im[k] * w
        }
        // A Hermitian spectrum: the correlation is real.
        re.update(repeating: 0, count: n)
        im.update(repeating: 0, count: n)
        for k in lowBin...highBin {
            re[k] = smoothRe[k]
            im[k] = smoothIm[k]
            re[n - k] = smoothRe[k]
            im[n - k] = -smoothIm[k]
        }
        fft.inverse(real: re, imag: im)

        // Lag d sits at index floorLags − d (the reference span starts floorLags before the
        // window). The floor: the median magnitude over the lags 0...floorLags.
        var best = 0, bestValue: Float = -1
        for d in 0...lags {
            let v = abs(re[floorLags - d])
            if v > bestValue { bestValue = v; best = d }
        }
        for i in 0...floorLags { scratch[i] = abs(re[i]) }
        let median = OrderStatistic.select(scratch, count: floorLags + 1, rank: floorLags / 2, histogram: histogram)
        estimatesMade += 1
        floorMagnitude = median
        strongestLag = best
        peakToFloor = median > 0 ? Double(bestValue / median) : 0
        candidate = peakToFloor >= threshold ? streamLag(best) : nil
        hysteresis.update(candidate: candidate)
        let shown = hysteresis.estimate.map { min(lags, ($0 + decimation / 2) / decimation) } ?? best
        confidence = median > 0 ? Double(abs(re[floorLags - shown]) / median) : 0
    }

    /// The latest analysis's strongest peak (whether or not it counted): its lag in stream
    /// frames, refined between frames by a parabola, and its height over the noise floor (the
    /// scale of `threshold`); nil when the latest window was skipped as silent.
    public var strongestPeak: (lag: Double, height: Double)? { peak(near: Double(strongestLag * decimation), radius: 0) }

    /// The highest peak of the latest analysis's correlation within `radius` stream frames of
    /// `lag` (clamped to 0...maxDelay): its lag in stream frames, refined between frames by a
    /// parabola through it and its neighbours, and its height over the noise floor; nil when
    /// the latest window was skipped as silent. For following one path's lag as it drifts
    /// (`DriftTracker`); valid until the next analysis.
    public func peak(near lag: Double, radius: Int) -> (lag: Double, height: Double)? {
        guard floorMagnitude > 0 else { return nil }
        let centre = Int((lag / Double(decimation)).rounded())
        let r = radius == 0 ? 0 : max(1, (radius + decimation - 1) / decimation)
        let low = max(0, centre - r), high = min(lags, centre + r)
        guard low <= high else { return nil }
        var best = low, bestValue: Float = -1
        for d in low...high {
            let v = abs(re[floorLags - d])
            if v > bestValue { bestValue = v; best = d }
        }
        // Lag d is at index floorLags − d: its neighbours d − 1 and d + 1 at k + 1 and k − 1.
        let n = fftSize, k = floorLags - best
        let before = abs(re[k + 1]), after = abs(re[(k - 1 + n) % n])
        let curve = before - 2 * bestValue + after
        let offset = curve < 0 ? max(-0.5, min(0.5, 0.5 * (before - after) / curve)) : 0
        return ((Double(best) + Double(offset)) * Double(decimation), Double(bestValue / floorMagnitude))
    }

    /// An analysis lag in stream frames: scaled by `decimation`, refined by the parabola through
    /// the peak and its neighbours (read from the correlation in `re`), within 0...maxDelay.
    private func streamLag(_ lag: Int) -> Int {
        if decimation == 1 { return lag }
        let n = fftSize, k = floorLags - lag
        let before = abs(re[k + 1]), at = abs(re[k]), after = abs(re[(k - 1 + n) % n])
        let curve = before - 2 * at + after
        let offset = curve < 0 ? max(-0.5, min(0.5, 0.5 * (before - after) / curve)) : 0
        let frames = ((Double(lag) + Double(offset)) * Double(decimation)).rounded()
        return max(0, min(maxDelay, Int(frames)))
    }
}
