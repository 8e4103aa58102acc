import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The canceller's output C by its coherence with the far end at the delay (issue 26: the echo
/// a young filter leaves in bins it has not learnt): a floor for the residual echo suppressor's
/// echo estimate R per bin, where R, which follows the filter's own estimate Ŷ, is blind.
///
/// The echo the linear filter leaves is still a filtered copy of the far end X, some windows
/// back at the bulk delay; a near talker and the room's noise are coherent with X at no lag.
/// Per bin k and per lag j around the delay (the analysis windows `firstOffset`... of the
/// delay's, `span` of them), the smoothed cross spectrum S_cx(j, k) of C with X j windows back,
/// X's smoothed power there and C's (the suppressor's smoothing); the bin's share is the best
/// lag's magnitude-squared coherence |S_cx|² / (S_xx · S_cc), less the estimate's bias (what
/// unrelated signals read after the frames smoothed so far), over what is left (0...1). Where
/// the filter has learnt the bin, little of the echo is left in C and the share is small; in a
/// bin it has not, C is the echo and the share is near 1; a near talker's bins read little.
///
/// The floor is the power whose subtraction at the suppressor's over-subtraction `beta` takes
/// `gainPerShare` times the share off the bin's gain (G = 1 − `gainPerShare` · share in a frame
/// of echo alone; in a frame where the near end may be present the suppressor's gentle
/// over-subtraction takes a small part of that).
/// Everything is allocated in `init`; a frame allocates nothing.
package final class ResidualFarCoherence {
    /// Lags held around the delay, and the first's offset from the delay's window (frames: C's
    /// window may be a frame later than the far end's the delay points at).
    package static let span = 4, firstOffset = -1
    /// How much of the gain a share of 1 takes (a share of 1/`gainPerShare` or more leaves the
    /// suppressor's floor in a frame of echo alone).
    package static let gainPerShare: Float = {
        if let v = getenv("AECFIRST3_GAMMA") { return Float(String(cString: v)) ?? 2 }
        return 2
    }()
    /// A share under this is not counted (the estimate's spread).
    package static let leastShare: Float = {
        if let v = getenv("AECFIRST3_THETA") { return Float(String(cString: v)) ?? 0 }
        return 0
    }()
    package static let trace: Bool = getenv("AECFIRST3_TRACE") != nil
    package static let everyFrame: Bool = getenv("AECFIRST3_ALL") != nil
    package static let enabled: Bool = getenv("AECFIRST3_OFF") == nil

    /// Samples per frame (N), the FFT size and its bins; the far end's windows held.
    package let frameFrames: Int, fftSize: Int, bins: Int, lags: Int
    private let smoothing: Float
    private let fft: RealFFT
    private let window: UnsafePointer<Float>
    private let windowFrames: Int
    private let windows: LowDelayWindows
    private let buffers = FloatBuffers()
    /// The far end (mono): this frame's N samples and the L the window covers; its spectrum.
    private let xIn, xHist, work, xr, xi: UnsafeMutablePointer<Float>
    /// X's spectra and smoothed powers of the last `lags` windows (lags × bins, `head` the newest).
    private let ringRe, ringIm, ringPow: UnsafeMutablePointer<Float>
    private let smoothedX: UnsafeMutablePointer<Float>
    private var head = 0
    /// Per lag of the span, S_cx (span × bins, re and im); the best share per bin; the floor.
    private let cxRe, cxIm, share, floorPower: UnsafeMutablePointer<Float>
    /// C's spectrum this frame (bins each).
    private let cRe, cIm: UnsafeMutablePointer<Float>
    /// The delay's window the cross spectra were made for (nil: none yet).
    private var lagInUse: Int? = nil
    /// The smoothing's weights since the cross spectra started (their bias, as `FarEndLagCoherence`).
    private var weights: Float = 0, squaredWeights: Float = 0

    /// For the suppressor's frames (`frameFrames` samples, FFT `fftSize`, windows `windows`);
    /// `maxDelayFrames`: the largest delay (samples); `smoothing`: the suppressor's.
    package init(frameFrames: Int, fftSize: Int, maxDelayFrames: Int, windows: LowDelayWindows, smoothing: Float) {
        self.frameFrames = frameFrames
        self.fftSize = fftSize
        self.windows = windows
        self.smoothing = smoothing
        bins = fftSize / 2 + 1
        lags = (maxDelayFrames + frameFrames - 1) / frameFrames + Self.span + 2
        fft = RealFFT(size: fftSize)
        window = UnsafePointer(windows.analysis)
        windowFrames = windows.length
        let k = bins
        xIn = buffers.make(frameFrames); xHist = buffers.make(windows.length); work = buffers.make(fftSize)
        xr = buffers.make(k); xi = buffers.make(k)
        ringRe = buffers.make(lags * k); ringIm = buffers.make(lags * k); ringPow = buffers.make(lags * k)
        smoothedX = buffers.make(k)
        cxRe = buffers.make(Self.span * k); cxIm = buffers.make(Self.span * k)
        share = buffers.make(k); floorPower = buffers.make(k); cRe = buffers.make(k); cIm = buffers.make(k)
    }

    /// The frame's far end (`speakers` interleaved channels, before the delay line), analysed in
    /// the window the suppressor's far-end model analyses (the L samples before this frame).
    package func analyse(reference: UnsafePointer<Float>, speakers: Int) {
        let n = frameFrames, l = windowFrames, a = smoothing
        for i in 0..<n {
            var x: Float = 0
            for c in 0..<speakers { x += reference[i * speakers + c] }
            xIn[i] = x / Float(speakers)
        }
        for i in 0..<l { work[i] = window[i] * xHist[i] }
        for i in l..<fftSize { work[i] = 0 }
        fft.forward(work, re: xr, im: xi)
        LowDelayWindows.slide(xHist, length: l, adding: xIn, count: n)
        head = (head + 1) % lags
        let r = ringRe + head * bins, i = ringIm + head * bins, p = ringPow + head * bins
        for k in 0..<bins {
            smoothedX[k] = a * smoothedX[k] + (1 - a) * (xr[k] * xr[k] + xi[k] * xi[k])
            r[k] = xr[k]; i[k] = xi[k]; p[k] = smoothedX[k]
        }
    }

    /// After the suppressor's transform of C + j·Ŷ (`re`, `im`, `size` points) and C's smoothed
    /// power `see`: the floor per bin for R (`power`: the power the gain applies to; `beta`: the
    /// suppressor's over-subtraction in frames of echo alone), or nil while the delay is unknown.
    package func update(re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int, see: UnsafePointer<Float>,
                        power: UnsafePointer<Float>, beta: Float, delay: Int?) -> UnsafePointer<Float>? {
        guard Self.enabled, let delay else { return nil }
        let a = smoothing, b = 1 - smoothing
        let first = delay / frameFrames + Self.firstOffset
        if lagInUse != first {
            lagInUse = first
            cxRe.update(repeating: 0, count: Self.span * bins); cxIm.update(repeating: 0, count: Self.span * bins)
            weights = 0; squaredWeights = 0
        }
        weights = a * weights + b
        squaredWeights = a * a * squaredWeights + b * b
        let bias = squaredWeights / (weights * weights)
        share.update(repeating: 0, count: bins)
        for k in 0..<bins { let (r, i, _, _) = TwoRealSpectra.split(re: re, im: im, size: size, bin: k); cRe[k] = r; cIm[k] = i }
        for s in 0..<Self.span {
            let j = min(max(first + s, 0), lags - 1)
            let row = ((head - j + lags) % lags) * bins
            let r = ringRe + row, i = ringIm + row, p = ringPow + row
            let cr = cxRe + s * bins, ci = cxIm + s * bins
            for k in 0..<bins {
                let c_r = cRe[k], c_i = cIm[k]
                // C · conj(X)
                cr[k] = a * cr[k] + b * (c_r * r[k] + c_i * i[k])
                ci[k] = a * ci[k] + b * (c_i * r[k] - c_r * i[k])
                let den = p[k] * see[k]
                if den > 0 { share[k] = max(share[k], min(1, (cr[k] * cr[k] + ci[k] * ci[k]) / den)) }
            }
        }
        let least = Self.leastShare, scale = Self.gainPerShare / beta
        for k in 0..<bins {
            let c = bias < 1 ? max(0, (share[k] - bias) / (1 - bias)) : 0
            share[k] = c
            floorPower[k] = c > least ? scale * (c - least) / (1 - least) * power[k] : 0
        }
        return UnsafePointer(floorPower)
    }
}
