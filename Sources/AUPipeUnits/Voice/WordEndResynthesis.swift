import AUPipeGraph

/// The residual echo suppressor's second synthesis of the window that holds a near word's end:
/// the later half of that window, which is the output of the frame just after the word, taken
/// again with the gains of the next window wherever that window releases a bin as echo alone.
///
/// Why: the suppressor's STFT has a hop of one frame and windows of two, so each frame's output
/// is the later half of one window overlap-added to the earlier half of the next. When a near
/// word ends, the window that holds its last samples is in near-end mode (gentle β, the
/// `suppress-active=` floor, bins of near end passing C) and gives its one gain to both halves:
/// its later half, the frame after the word, holds only echo but passes it at the word's gain.
/// The next window, which covers that frame and the one after it, is the first that
/// `NearEndRelease` can release (its bins explained by the residual model), and it is computed
/// before that frame's output is written (the output is one frame late anyway). So the later
/// half can be synthesised again from the earlier window's spectrum, at no added latency, with
/// the least of the two windows' gains in every bin the later window releases; bins where the
/// later window still hears the near end (a word's decaying tail) keep the earlier gain.
///
/// Per frame: `remember` keeps the gain per bin a frame in near-end mode applied (G: the
/// suppressor's times the preprocessor's, 1 where C passes as it is); `resynthesise`, in the first
/// frame of a run `NearEndRelease` releases, right after a remembered one, transforms the earlier
/// window's later half alone (the samples of the frame after the word, under the analysis window's
/// falling half), scales it per released bin by min(G_now, G_then) − G_then, and adds its inverse
/// transform to the overlap-add's carry (`LowDelayWindows.addToCarry`). Only that half's own
/// content is taken again: the word in the earlier half, gained anew, would spread into the frame
/// after it (a spectral gain is a filter) and be heard there. With the standard windows only (the
/// low-delay ones carry too little of a window for it to matter).
/// Everything is allocated in `init`; `remember` and `resynthesise` allocate nothing.
package final class WordEndResynthesis {
    package let bins: Int
    private let size: Int
    private let buffers = FloatBuffers()
    /// The last frame's gain per bin (bins); the later half's spectrum (bins each); time signal (size).
    private let xGain, bRe, bIm, time: UnsafeMutablePointer<Float>
    /// Whether the last frame was remembered (near-end mode, not released).
    private var held = false
    /// Frames synthesised again (for diagnosis).
    package private(set) var framesResynthesised = 0

    /// For a transform of `size` points (`size`/2 + 1 bins).
    package init(size: Int) {
        self.size = size
        bins = size / 2 + 1
        xGain = buffers.make(bins); bRe = buffers.make(bins); bIm = buffers.make(bins); time = buffers.make(size)
    }

    /// This frame's gain per bin, kept when the frame is in near-end mode and not released
    /// (`eligible`), for the next frame.
    package func remember(eligible: Bool, gain: UnsafePointer<Float>) {
        held = eligible
        guard held else { return }
        xGain.update(from: gain, count: bins)
    }

    /// In the first released frame after a remembered one (`released`: `NearEndRelease` released
    /// this frame and not the last): the last window's later half (`history`, this window's first N
    /// samples of what the gain applies to, under `windows`' falling analysis half) again, at
    /// min(1, `gain` / its own gain) in the bins `kept` does not mark (0: released;
    /// `NearEndRelease.heard`): the difference added to the overlap-add's carry. Standard windows only.
    package func resynthesise(released: Bool, kept: UnsafePointer<Float>, gain: UnsafePointer<Float>, history: UnsafePointer<Float>,
                              fft: RealFFT, windows: LowDelayWindows) {
        let n = windows.hop
        guard held, released, windows.length == 2 * n, size >= 2 * n else { return }
        let a = windows.analysis
        for i in 0..<n { time[i] = 0; time[n + i] = a[n + i] * history[i] }
        for i in (2 * n)..<size { time[i] = 0 }
        fft.forward(time, re: bRe, im: bIm)
        for k in 0..<bins {
            let d = kept[k] == 0 && gain[k] < xGain[k] ? gain[k] - xGain[k] : 0
            bRe[k] *= d; bIm[k] *= d
        }
        fft.inverse(re: bRe, im: bIm, into: time)
        windows.addToCarry(time)
        framesResynthesised += 1
    }
}
