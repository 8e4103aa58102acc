#if canImport(Glibc)
import Glibc
#endif

/// Estimates the bulk delay of an echo path: how many frames `d` (0...maxDelay) the far-end
/// (reference, loudspeaker) signal must be delayed to line up with the near-end (microphone)
/// signal, mic[n] ≈ h · ref[n − d] — the shift to apply to the reference before an echo
/// canceller whose filter tail is shorter than the acoustic delay.
///
/// Algorithm: GCC-PHAT over a sliding window, smoothed, with hysteresis.
/// 1. Both streams go into history rings. Every `hopFrames` frames (once `windowFrames` frames
///    `fftSize` frames have come), the last `windowFrames` microphone frames (Hann-weighted)
///    and the last `fftSize` = `windowFrames + maxDelay` reference frames (those that could
///    have made that echo) are transformed together by one complex FFT (mic as the real part,
///    zero-padded; reference as the imaginary part), so the circular correlation holds every
///    lag 0...maxDelay without wrap, and every one of its `fftSize` lags sums the same number
///    of products (which keeps the noise floor of step 4 honest).
/// 2. A window in which either signal is near-silent (mean square below `silenceLevel`) is
///    skipped: it changes nothing and is not counted as an estimate.
/// 3. The cross-spectrum G = conj(Mic)·Ref is whitened per bin (PHAT, divided by |G| plus a
///    small fraction of its band mean, so empty bins do not become loud noise), limited to
///    100 Hz...min(7 kHz, 0.45·rate), and smoothed exponentially across windows
///    (S ← smoothing·S + (1 − smoothing)·G/|G|). The inverse FFT of S is the whitened
///    correlation; its largest magnitude over the lags 0...maxDelay is this window's peak.
/// 4. The peak counts only if it stands `threshold` times above the noise floor (the median
///    magnitude over all `fftSize` lags): then its lag is this estimate's candidate.
/// 5. Hysteresis (`DelayHysteresis`): the first estimate, and any later change, needs the same
///    candidate (within ±1 ms) to win `requiredWins` consecutive estimates; a window whose
///    candidate is the current estimate, or whose peak is too weak, breaks a challenger's run.
///    Candidates within ±1 ms of the current estimate do not move it (no jitter).
///
/// Timing: the first analysis comes after `fftSize` frames, the next every `hopFrames`; with
/// speech on both sides the first estimate is ready after about
/// `fftSize + (requiredWins − 1) · hopFrames` frames (1.55 s at 16 kHz with `maxDelay` 0.5 s).
/// Analyses happen at fixed frame counts, so the results do not depend on how the streams are
/// cut into blocks.
///
/// Everything is allocated in `init`; `push` allocates nothing. One thread at a time.
public final class DelayEstimator {
    /// Frames per second of both streams.
    public let sampleRate: Int
    /// The largest delay looked for, in frames.
    public let maxDelay: Int
    /// FFT points: the smallest power of two ≥ `sampleRate / 2 + maxDelay` (at most 65536);
    /// also the reference frames each analysis looks at.
    public let fftSize: Int
    /// Microphone frames per analysis window: `fftSize − maxDelay`, from half a second up to
    /// half a second plus `maxDelay` (16 kHz, `maxDelay` 0.5 s: 8384 frames, 524 ms).
    public let windowFrames: Int
    /// Frames between analyses (half a window).
    public let hopFrames: Int

    /// A window counts only when the mean square of both signals in it is at least this
    /// (linear; default 1e-7, an RMS of −70 dBFS).
    public var silenceLevel: Float = 1e-7
    /// How far above the noise floor (median correlation magnitude) a peak must stand to count
    /// (ratio, default 10; white noise alone gives about 6).
    public var threshold: Double = 10
    /// The weight the previous smoothed cross-spectrum keeps at each analysis, 0..<1 (default 0.5).
    public var smoothing: Float = 0.5
    /// Consecutive estimates a new candidate must win before it is reported (default 3).
    public var requiredWins: Int {
        get { hysteresis.requiredWins }
        set { hysteresis.requiredWins = max(1, newValue) }
    }

    /// The reported bulk delay in frames (0...maxDelay), or nil until a delay has won.
    public var estimate: Int? { hysteresis.estimate }
    /// The height, 0...1, of the smoothed whitened correlation at the reported delay (at the
    /// strongest lag while there is none): 1 is a pure delay without noise; a clear echo in a
    /// room gives 0.2–0.7, noise alone under 0.05. 0 before the first estimate.
    public private(set) var confidence: Double = 0
    /// The latest estimate's peak over the noise floor (median magnitude over all lags).
    public private(set) var peakToFloor: Double = 0
    /// The latest estimate's strongest lag when it counted (peak above `threshold`), else nil.
    public private(set) var candidate: Int?
    /// Windows analysed (not skipped for silence).
    public private(set) var estimatesMade = 0
    /// Windows skipped because one of the signals was near-silent.
    public private(set) var windowsSkipped = 0
    /// Frames pushed so far.
    public private(set) var framesPushed = 0

    private var hysteresis: DelayHysteresis
    private let fft: FFT
    /// History rings of `fftSize` frames; `ringPosition` is where the next frame goes.
    private let micRing: UnsafeMutablePointer<Float>
    private let refRing: UnsafeMutablePointer<Float>
    private var ringPosition = 0
    private var nextAnalysis: Int
    private let hann: UnsafeMutablePointer<Float>
    /// FFT work arrays (`fftSize`), and the smoothed whitened cross-spectrum for bins 0...N/2.
    private let re: UnsafeMutablePointer<Float>
    private let im: UnsafeMutablePointer<Float>
    private let smoothRe: UnsafeMutablePointer<Float>
    private let smoothIm: UnsafeMutablePointer<Float>
    /// `fftSize`: the frames in the rings.
    private let spanFrames: Int
    /// Scratch for the median (`fftSize` magnitudes).
    private let scratch: UnsafeMutablePointer<Float>
    /// The band analysed, in bins.
    private let lowBin: Int, highBin: Int
    /// The sum of the smoothing weights so far (the smoothed spectrum divided by it is unbiased).
    private var weightSum: Float = 0
    /// Regularization of the PHAT weight: a fraction of the band's mean |G|.
    private let regularization: Float = 0.05

    /// Prepares an estimator for two mono streams at `sampleRate` looking for delays of
    /// 0...`maxDelay` frames. `maxDelay + sampleRate / 2` must be at most 65536 (at 48 kHz,
    /// `maxDelay` up to 865 ms; at 16 kHz, up to 3.5 s).
    public init(sampleRate: Int, maxDelay: Int) {
        precondition(sampleRate >= 1000, "sample rate \(sampleRate) too low for delay estimation")
        precondition(maxDelay >= 0, "negative maxDelay")
        let minWindow = sampleRate / 2
        precondition(minWindow + maxDelay <= FFT.maxSize,
                     "maxDelay \(maxDelay) too long at \(sampleRate) Hz (window + delay over \(FFT.maxSize) frames)")
        self.sampleRate = sampleRate
        self.maxDelay = maxDelay
        var n = 1
        while n < minWindow + maxDelay { n *= 2 }
        fftSize = n
        windowFrames = n - maxDelay
        hopFrames = max(windowFrames / 2, 1)
        spanFrames = n
        nextAnalysis = n
        hysteresis = DelayHysteresis(tolerance: max(1, sampleRate / 1000), requiredWins: 3)
        fft = FFT(size: n)
        micRing = .allocate(capacity: spanFrames)
        micRing.initialize(repeating: 0, count: spanFrames)
        refRing = .allocate(capacity: spanFrames)
        refRing.initialize(repeating: 0, count: spanFrames)
        hann = .allocate(capacity: windowFrames)
        for i in 0..<windowFrames {
            hann[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(windowFrames)))
        }
        re = .allocate(capacity: n)
        im = .allocate(capacity: n)
        scratch = .allocate(capacity: n)
        smoothRe = .allocate(capacity: n / 2 + 1)
        smoothRe.initialize(repeating: 0, count: n / 2 + 1)
        smoothIm = .allocate(capacity: n / 2 + 1)
        smoothIm.initialize(repeating: 0, count: n / 2 + 1)
        let binHz = Double(sampleRate) / Double(n)
        lowBin = max(1, Int((100 / binHz).rounded(.up)))
        highBin = min(n / 2 - 1, Int((min(7000, 0.45 * Double(sampleRate)) / binHz).rounded(.down)))
    }

    deinit {
        micRing.deallocate()
        refRing.deallocate()
        hann.deallocate()
        re.deallocate()
        im.deallocate()
        scratch.deallocate()
        smoothRe.deallocate()
        smoothIm.deallocate()
    }

    /// Adds `frames` frames of both streams (mono, the same frames of time) and runs every
    /// analysis that falls due.
    public func push(mic: UnsafePointer<Float>, ref: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(frames - done, nextAnalysis - framesPushed)
            var left = count, from = done
            while left > 0 {
                let run = min(left, spanFrames - ringPosition)
                (micRing + ringPosition).update(from: mic + from, count: run)
                (refRing + ringPosition).update(from: ref + from, count: run)
                ringPosition = (ringPosition + run) % spanFrames
                left -= run
                from += run
            }
            done += count
            framesPushed += count
            if framesPushed == nextAnalysis {
                analyse()
                nextAnalysis += hopFrames
            }
        }
    }

    /// One window: GCC-PHAT, smoothing, peak picking, hysteresis.
    private func analyse() {
        let n = fftSize
        // The last `spanFrames` frames of the rings, oldest first; the mic's last `windowFrames`.
        var micEnergy = 0.0, refEnergy = 0.0
        let micStart = spanFrames - windowFrames
        for i in 0..<spanFrames {
            let slot = (ringPosition + i) % spanFrames
            let r = refRing[slot]
            refEnergy += Double(r * r)
            im[i] = r
            if i >= micStart {
                let m = micRing[slot]
                micEnergy += Double(m * m)
                re[i - micStart] = m * hann[i - micStart]
            }
        }
        for i in windowFrames..<n { re[i] = 0 }
        if micEnergy / Double(windowFrames) < Double(silenceLevel) || refEnergy / Double(n) < Double(silenceLevel) {
            windowsSkipped += 1
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
            // Park G where the mirrored bin's data is no longer needed: bins N−k (k ≥ lowBin)
            // are read for k only, so G goes into re/im at k after both reads.
            re[k] = gr
            im[k] = gi
        }
        let floor = regularization * magnitudeSum / Float(highBin - lowBin + 1) + Float.leastNormalMagnitude
        let keep = smoothing, take = 1 - smoothing
        weightSum = keep * weightSum + take
        for k in lowBin...highBin {
            let w = 1 / (scratch[k] + floor)
            smoothRe[k] = keep * smoothRe[k] + take * re[k] * w
            smoothIm[k] = keep * smoothIm[k] + take * im[k] * w
        }
        // A Hermitian spectrum: the correlation is real.
        for k in 0...(n / 2) { re[k] = 0; im[k] = 0 }
        for k in lowBin...highBin {
            re[k] = smoothRe[k]
            im[k] = smoothIm[k]
            re[n - k] = smoothRe[k]
            im[n - k] = -smoothIm[k]
        }
        for k in (n / 2 + 1)..<n where k > n - lowBin || k < n - highBin { re[k] = 0; im[k] = 0 }
        fft.inverse(real: re, imag: im)

        // Lag d sits at index maxDelay − d. The floor: the median magnitude over all lags.
        var best = 0, bestValue: Float = -1
        for d in 0...maxDelay {
            let v = abs(re[maxDelay - d])
            if v > bestValue { bestValue = v; best = d }
        }
        for i in 0..<n { scratch[i] = abs(re[i]) }
        let median = Self.select(scratch, count: n, rank: n / 2)
        estimatesMade += 1
        peakToFloor = median > 0 ? Double(bestValue / median) : 0
        // A pure delay gives every band bin unit weight: the peak is 2·(bins)/N after the 1/N.
        let unit = Float(2 * (highBin - lowBin + 1)) / Float(n) * weightSum
        candidate = peakToFloor >= threshold ? best : nil
        hysteresis.update(candidate: candidate)
        let shown = hysteresis.estimate ?? best
        confidence = hysteresis.estimate == nil && candidate == nil ? 0 : Double(min(1, abs(re[maxDelay - shown]) / unit))
    }

    /// The element of rank `rank` (0-based, ascending) of `values[0..<count]`, reordering them
    /// (Hoare's quickselect, middle pivot).
    static func select(_ values: UnsafeMutablePointer<Float>, count: Int, rank: Int) -> Float {
        var lo = 0, hi = count - 1
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    let t = values[i]; values[i] = values[j]; values[j] = t
                    i += 1; j -= 1
                }
            }
            if rank <= j { hi = j } else if rank >= i { lo = i } else { break }
        }
        return values[rank]
    }
}

/// The decision rule of `DelayEstimator`, on its own: which candidate delays get reported.
///
/// Each estimate gives a candidate lag in frames, or nil when its peak did not stand clear of
/// the noise. A candidate within `tolerance` frames of the reported estimate confirms it (and
/// ends any challenger's run). Any other candidate is a challenger: it must come
/// `requiredWins` times in a row (each within `tolerance` of the previous) to become the
/// estimate, and a nil candidate ends its run too. The first estimate is reached the same way.
public struct DelayHysteresis: Sendable {
    /// Frames two candidates may differ by and still count as the same delay.
    public var tolerance: Int
    /// Consecutive wins a challenger needs (1: every counted candidate is reported at once).
    public var requiredWins: Int
    /// The reported delay in frames, nil until a candidate has won.
    public private(set) var estimate: Int?
    /// The challenger and its consecutive wins so far.
    public private(set) var challenger: Int?
    public private(set) var wins = 0
    /// How often the estimate was set or changed.
    public private(set) var changes = 0

    public init(tolerance: Int, requiredWins: Int) {
        self.tolerance = tolerance
        self.requiredWins = max(1, requiredWins)
    }

    /// Takes one estimate's candidate (nil: no clear peak).
    public mutating func update(candidate: Int?) {
        guard let lag = candidate else {
            challenger = nil
            wins = 0
            return
        }
        if let current = estimate, abs(lag - current) <= tolerance {
            challenger = nil
            wins = 0
            return
        }
        if let c = challenger, abs(lag - c) <= tolerance {
            wins += 1
        } else {
            wins = 1
        }
        challenger = lag
        if wins >= requiredWins {
            estimate = lag
            changes += 1
            challenger = nil
            wins = 0
        }
    }
}
