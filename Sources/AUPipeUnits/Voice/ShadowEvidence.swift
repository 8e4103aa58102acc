import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The residual echo suppressor's use of a running shadow canceller (`ShadowCanceller`) before
/// it takes over: per bin, where the shadow's output is much quieter than the canceller's in use,
/// the shadow's spectrum is passed instead of C's.
///
/// Why: after an echo-path change, the 0.2–1 s until the shadow takes over are double talk to
/// `aec`'s detector (the cancellation has fallen), and nothing in C or D told the old filter's
/// wrong echo estimate from a near talker's onset (bench/README.md, "The change by its lag
/// coherence"), so the suppressor passed the new path's echo nearly as it came. The shadow, a
/// fresh linear filter retrained on the frames since the fall, is that evidence: a linear filter
/// of the far end cannot cancel a near talker, so a bin it leaves `quieterDB` quieter than the
/// canceller in use holds echo the shadow explains, and the shadow's output there is what a
/// take-over would give in that bin. In double talk (no change) the fresh shadow is louder than
/// the adapted canceller in every bin of the talker and nothing changes; where a near talker is
/// present beside a new path's echo, the shadow's output still holds the talker (its spectrum
/// replaces C's, it is not a gain on C), so the near end is never scaled down by it.
///
/// After the take-over the replaced state runs on beside the shadow now in use (for the
/// preprocessor, or to be handed its place back), adapting to the new path too: its output is
/// used in the same way until it stops (`EchoPathChange.shadowBeside`).
///
/// Per bin k, per frame, with the other filter's windowed spectrum Sₖ on the suppressor's STFT
/// and its power |Sₖ|² smoothed as the suppressor smooths C's (`gainPowerSmoothing`): C's
/// spectrum is replaced by Sₖ where `quieterDB` · |Sₖ|² < |Cₖ|² (smoothed powers). The suppressor's gains, computed on C, then apply to it. Only where the
/// suppressor's transform is of C itself (its preprocessing inside, `SuppressorPreprocess`).
/// While no other filter runs, C's samples fill its history (the window's earlier part when one
/// starts), and nothing is transformed. Everything is allocated in `init`; nothing
/// after allocates.
package final class ShadowEvidence {
    /// How much quieter (dB) the shadow's smoothed power must be than C's for its spectrum to
    /// be passed in a bin.
    package static let quieterDB: Float = 6

    package let bins: Int
    private let fftSize: Int, windowLength: Int, frameFrames: Int
    private let ratio: Float
    private let fft: RealFFT
    private let buffers = FloatBuffers()
    /// The shadow's output over the analysis window (C's where none ran), this frame's samples,
    /// the windowed work buffer, its spectrum and smoothed power.
    private let history, frame, work, sRe, sIm, power: UnsafeMutablePointer<Float>
    /// Per bin, 1 where the latest frame passed the shadow's spectrum, else 0.
    package let taken: UnsafeMutablePointer<Float>
    /// Whether this frame's samples are a running shadow's, and whether the last frame's were.
    private var shadowNow = false, shadowBefore = false
    /// Frames in which some bin took the shadow's spectrum, and the bins taken over the stream (tests, stats).
    package private(set) var framesUsed = 0, binsTaken = 0

    /// For the suppressor's transform of `fftSize` points (`bins` bins) over an analysis window
    /// of `windowLength` samples, in frames of `frameFrames`.
    package init(bins: Int, fftSize: Int, windowLength: Int, frameFrames: Int) {
        self.bins = bins
        self.fftSize = fftSize
        self.windowLength = windowLength
        self.frameFrames = frameFrames
        ratio = Float(pow(10, Double(Self.quieterDB) / 10))
        fft = RealFFT(size: fftSize)
        history = buffers.make(windowLength); frame = buffers.make(frameFrames); work = buffers.make(fftSize)
        sRe = buffers.make(bins); sIm = buffers.make(bins); power = buffers.make(bins); taken = buffers.make(bins)
    }

    /// This frame: the other filter's output (N 16-bit samples, `EchoPathChange.shadowBeside`;
    /// nil when none runs), else C's samples (`c`, full scale 1).
    package func capture(shadow: UnsafePointer<Int16>?, c: UnsafePointer<Float>) {
        shadowNow = shadow != nil
        if let shadow {
            for i in 0..<frameFrames { frame[i] = Float(shadow[i]) / 32768 }
        } else {
            frame.update(from: c, count: frameFrames)
        }
        LowDelayWindows.slide(history, length: windowLength, adding: frame, count: frameFrames)
    }

    /// While the other filter runs: its spectrum through `window` (the suppressor's analysis window),
    /// its power smoothed by `smoothing` (per frame; its first frame unsmoothed), and, in bins
    /// where it is `quieterDB` under `cPower` (C's power, smoothed alike), (`eRe`, `eIm`), C's
    /// spectrum, replaced by it. Returns whether a bin was.
    @discardableResult
    package func apply(window: UnsafePointer<Float>, cPower: UnsafePointer<Float>, smoothing g: Float,
                       eRe: UnsafeMutablePointer<Float>, eIm: UnsafeMutablePointer<Float>) -> Bool {
        defer { shadowBefore = shadowNow }
        guard shadowNow else {
            if shadowBefore { taken.update(repeating: 0, count: bins) }
            return false
        }
        for i in 0..<windowLength { work[i] = window[i] * history[i] }
        for i in windowLength..<fftSize { work[i] = 0 }
        fft.forward(work, re: sRe, im: sIm)
        let first = !shadowBefore, h = 1 - g
        var count = 0
        for k in 0..<bins {
            let p = sRe[k] * sRe[k] + sIm[k] * sIm[k]
            power[k] = first ? p : g * power[k] + h * p
            let quieter = ratio * power[k] < cPower[k]
            taken[k] = quieter ? 1 : 0
            if quieter {
                eRe[k] = sRe[k]
                eIm[k] = sIm[k]
                count += 1
            }
        }
        if count > 0 { framesUsed += 1; binsTaken += count }
        return count > 0
    }
}
