import AUPipeGraph

/// The echo after an echo-path change told from a near talker by the microphone's coherence with
/// the far end at the bulk delay's few lags (issue 26: after the shadow's take-over, until the
/// filter that took over is coherent with D, its Ŷ is not, and the suppressor's tests take many
/// frames for double talk).
///
/// As `FarEndLagCoherence` at the call's start, but only while the suppressor's change lasts
/// (`PathChangeTransition`), outside `aec`'s double talk, and only at `lagsAround` lags from one
/// window before the delay's: D coherent with X there is the new path's echo (a filtered copy of
/// the far end at the delay); a near talker is coherent with it at no lag. A frame whose share is
/// `FarEndEchoModel.echoShare` or more for `FarEndEchoModel.echoRunSeconds` in a row is the
/// echo's, and each bin's coherent share of C's power is its residual (`residual`).
/// (C's own coherence with X, the brief's first design, explains too little of C after a change:
/// C = D − the old filter's Ŷ spreads over many windows; bench/README.md.)
/// Outside a change it only keeps the far end's last samples (a copy per frame); during one, one
/// transform of the far end and `lagsAround` cross spectra per frame. Allocates in `init` only.
package final class PathChangeLagEcho {
    /// Lags held, from one window before the delay's (the echo's early part) to the tail's first windows.
    package static let lagsAround = 5

    package let bins: Int
    private let frameFrames: Int, fftSize: Int, windowFrames: Int, mostLag: Int, runFrames: Int
    private let window: UnsafePointer<Float>
    private let fft: RealFFT
    private let coherence: FarEndLagCoherence
    private let buffers = FloatBuffers()
    /// The far end's last samples (mono, oldest first), a window's work, its spectrum, the shares.
    private let history: UnsafeMutablePointer<Float>, work, xRe, xIm, shares: UnsafeMutablePointer<Float>
    private let historyLength: Int
    private var running = false, first = -1, run = 0
    /// Frames in which a frame was taken for the change's echo (tests).
    package private(set) var framesEcho = 0

    /// For the suppressor's frames of `frameFrames`, transforms of `fftSize`, its analysis
    /// `windows`, delays up to `maxDelayFrames` samples.
    package init(frameFrames: Int, fftSize: Int, rate: Int, maxDelayFrames: Int, windows: LowDelayWindows) {
        self.frameFrames = frameFrames
        self.fftSize = fftSize
        bins = fftSize / 2 + 1
        windowFrames = windows.length
        window = UnsafePointer(windows.analysis)
        fft = RealFFT(size: fftSize)
        mostLag = (maxDelayFrames + frameFrames - 1) / frameFrames
        let seconds = Double(frameFrames) / Double(rate)
        runFrames = max(1, Int((FarEndEchoModel.echoRunSeconds / seconds).rounded()))
        historyLength = (mostLag + Self.lagsAround) * frameFrames + windows.length
        history = buffers.make(historyLength)
        work = buffers.make(fftSize); xRe = buffers.make(bins); xIm = buffers.make(bins); shares = buffers.make(bins)
        coherence = FarEndLagCoherence(bins: bins, lags: Self.lagsAround, smoothing: ResidualEchoSuppressor.statsSmoothing)
    }

    /// This frame's far end (`reference`: `speakers` interleaved channels, before the delay line).
    package func hold(reference: UnsafePointer<Float>, speakers: Int) {
        let n = frameFrames
        history.update(from: history + n, count: historyLength - n)
        let tail = history + historyLength - n
        for i in 0..<n {
            var x: Float = 0
            for c in 0..<speakers { x += reference[i * speakers + c] }
            tail[i] = x / Float(speakers)
        }
    }

    /// Pushes the spectrum of the far end's window that ends `back` frames before this one.
    private func push(back: Int) {
        let start = historyLength - back * frameFrames - windowFrames
        for i in 0..<windowFrames { work[i] = window[i] * history[start + i] }
        for i in windowFrames..<fftSize { work[i] = 0 }
        fft.forward(work, re: xRe, im: xIm)
        coherence.push(re: xRe, im: xIm)
    }

    /// One frame: `changing`, whether the suppressor's change lasts; `delay`, the bulk delay
    /// (samples); `sdd`, D's smoothed power, `re`/`im` the transform of C + j·Ŷ (`size` points).
    /// Returns whether the frame is the change's echo by its lag coherence; then `residual`
    /// gets each bin's coherent share of `power` (C's, per bin).
    package func update(changing: Bool, delay: Int?, sdd: UnsafePointer<Float>, re: UnsafePointer<Float>, im: UnsafePointer<Float>,
                        size: Int, power: UnsafePointer<Float>, residual: UnsafeMutablePointer<Float>) -> Bool {
        guard changing, let delay else { running = false; return false }
        // The youngest lag: a window before the delay's (its echo straddles two windows).
        let youngest = max(0, min(delay / frameFrames - 1, mostLag - 1))
        if !running || youngest != first {
            running = true
            first = youngest
            run = 0
            coherence.reset()
            for j in stride(from: Self.lagsAround - 1, to: 0, by: -1) { push(back: youngest + j) }
        }
        push(back: youngest)
        let share = coherence.update(sdd: sdd, re: re, im: im, size: size)
        run = share >= FarEndEchoModel.echoShare ? run + 1 : 0
        guard run >= runFrames else { return false }
        coherence.shares(sdd: sdd, into: shares)
        for k in 0..<bins { residual[k] = shares[k] * power[k] }
        framesEcho += 1
        return true
    }
}
