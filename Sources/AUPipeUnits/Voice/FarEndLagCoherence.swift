import AUPipeGraph

/// The microphone's coherence with the far end at every lag the delay search allows, from the
/// call's start (issue 26: the call's first echo, before the delay is found): what tells the
/// echo from a near talker while there is no linear filter's Ŷ to compare the microphone with.
/// The echo is a filtered copy of the far end some windows back, so D is coherent with X at that
/// lag; a near talker is coherent with X at no lag.
///
/// Per bin k and lag j (in the suppressor's frames, j = 0 the window the far-end model analyses
/// this frame): the smoothed cross spectrum S_dx(j, k) of D with X j windows back and X's
/// smoothed power (the smoothed |X|² of j frames ago: the smoothing is the same at every lag),
/// with D's smoothed power S_dd from the suppressor (the same smoothing). The frame's share at
/// lag j is the share of D's power a linear filter at that lag explains,
/// Σ_k |S_dx(j, k)|² / S_xx(j, k) / Σ_k S_dd(k) (0...1; each bin's magnitude-squared coherence
/// weighted by D's power), and the frame's share is the best over the lags less the estimate's
/// bias (what unrelated signals read after the frames smoothed so far), over what is left
/// (divided by 1 − bias, so that 1 stays 1).
/// Everything is allocated in `init`; a frame allocates nothing. It runs only while asked to
/// (`FarEndEchoModel`: from the call's start until the model is out, a few seconds).
package final class FarEndLagCoherence {
    /// Bins per spectrum and lags held.
    package let bins: Int, lags: Int
    private let smoothing: Float
    /// X's spectra (re, im) and smoothed powers of the last `lags` windows (lags × bins each,
    /// `head` the newest), and per lag the smoothed cross spectrum S_dx (re, im; lag j at row j).
    private let xRe, xIm, xPow, dxRe, dxIm: UnsafeMutablePointer<Float>
    /// This frame's smoothed |X|² (bins), before it enters the ring; D's spectrum (re, im).
    private let smoothedX, dRe, dIm: UnsafeMutablePointer<Float>
    private var head = 0
    /// The best lag's rows in the far end's ring and in the cross spectra.
    private var bestRow = 0, bestLagRow = 0
    private let buffers = FloatBuffers()
    /// The smoothing's weights since the far end was first heard, summed and squared-summed:
    /// their ratio Σw²/(Σw)² is what a coherence estimate reads for unrelated signals (1 from a
    /// single frame, (1 − a)/(1 + a) once settled: 0.08 at a = 0.85), taken off the share. One
    /// figure for every lag on purpose: lag j has held the far end j frames fewer and reads more
    /// for a while, but its own larger bias takes a long delay's first echo later, which the 80 ms
    /// run already guards against a near talker (bench/README, "The bias per lag").
    private var weights: Float = 0, squaredWeights: Float = 0

    /// For spectra of `bins` bins, `lags` windows held; `smoothing`: the suppressor's
    /// (`ResidualEchoSuppressor.statsSmoothing`, whose S_dd this reads).
    package init(bins: Int, lags: Int, smoothing: Float) {
        self.bins = bins
        self.lags = lags
        self.smoothing = smoothing
        let n = bins * lags
        xRe = buffers.make(n); xIm = buffers.make(n); xPow = buffers.make(n)
        dxRe = buffers.make(n); dxIm = buffers.make(n)
        smoothedX = buffers.make(bins); dRe = buffers.make(bins); dIm = buffers.make(bins)
    }

    /// This frame's far-end spectrum (`re`, `im`: bins each, the window `FarEndEchoModel`
    /// analyses).
    package func push(re: UnsafePointer<Float>, im: UnsafePointer<Float>) {
        let a = smoothing
        head = (head + 1) % lags
        let r = xRe + head * bins, i = xIm + head * bins, p = xPow + head * bins
        var heard: Float = 0
        for k in 0..<bins { heard += re[k] * re[k] + im[k] * im[k] }
        if heard > 0 || weights > 0 {
            weights = a * weights + (1 - a)
            squaredWeights = a * a * squaredWeights + (1 - a) * (1 - a)
        }
        for k in 0..<bins {
            smoothedX[k] = a * smoothedX[k] + (1 - a) * (re[k] * re[k] + im[k] * im[k])
            r[k] = re[k]; i[k] = im[k]; p[k] = smoothedX[k]
        }
    }

    /// This frame's microphone, D = C + Ŷ from the suppressor's transform of C + j·Ŷ (`re`,
    /// `im`, `size` points: `TwoRealSpectra`); `sdd`, D's smoothed power per bin. Updates the
    /// cross spectra at every lag and returns the best lag's share.
    package func update(sdd: UnsafePointer<Float>, re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int) -> Float {
        let a = smoothing, b = 1 - smoothing
        // No far end yet: nothing to be coherent with (and no work while the far end is silent
        // from the start).
        if weights == 0 { return 0 }
        var total: Float = 0
        for k in 0..<bins {
            let (cr, ci, yr, yi) = TwoRealSpectra.split(re: re, im: im, size: size, bin: k)
            dRe[k] = cr + yr; dIm[k] = ci + yi
            total += sdd[k]
        }
        var best: Float = 0, bestLag = 0
        for j in 0..<lags {
            let row = ((head - j + lags) % lags) * bins
            let r = xRe + row, i = xIm + row, p = xPow + row
            let cr = dxRe + j * bins, ci = dxIm + j * bins
            var explained: Float = 0
            for k in 0..<bins {
                let dr = dRe[k], di = dIm[k]
                // D · conj(X)
                cr[k] = a * cr[k] + b * (dr * r[k] + di * i[k])
                ci[k] = a * ci[k] + b * (di * r[k] - dr * i[k])
                if p[k] > 0 { explained += min((cr[k] * cr[k] + ci[k] * ci[k]) / p[k], sdd[k]) }
            }
            if explained > best { (best, bestLag) = (explained, j) }
        }
        (bestRow, bestLagRow) = (((head - bestLag + lags) % lags) * bins, bestLag * bins)
        // Less what unrelated signals read (the estimate's bias), over what is left.
        let bias = weights > 0 ? squaredWeights / (weights * weights) : 1
        return total > 0 && bias < 1 ? max(0, (best / total - bias) / (1 - bias)) : 0
    }

    /// The echo's share of each bin at the best lag of the last `update` (into `share`, 0...1):
    /// the bin's coherence with the far end there, less the estimate's bias. A bin a near talker
    /// holds is incoherent and gets little. `sdd`: the frame's D smoothed power, as given to
    /// `update`.
    package func shares(sdd: UnsafePointer<Float>, into share: UnsafeMutablePointer<Float>) {
        let p = xPow + bestRow, cr = dxRe + bestLagRow, ci = dxIm + bestLagRow
        let bias = weights > 0 ? squaredWeights / (weights * weights) : 1
        for k in 0..<bins {
            let c = p[k] * sdd[k] > 0 ? min(1, (cr[k] * cr[k] + ci[k] * ci[k]) / (p[k] * sdd[k])) : 0
            share[k] = bias < 1 ? max(0, (c - bias) / (1 - bias)) : 0
        }
    }
}
