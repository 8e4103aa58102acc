import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The analysis and synthesis windows of `aec`'s residual echo suppressor's STFT, at a hop of
/// N samples (the frame), and its overlap-add.
///
/// - Standard (frames of 20 ms or longer): 2N-sample sqrt-Hann windows for both, L = 2N, the
///   output one frame (M = N samples) late.
/// - Low delay (shorter frames; Mauler and Martin, "A low delay, variable resolution, perfect
///   reconstruction spectral analysis-synthesis system for speech enhancement", EUSIPCO 2007):
///   the gain is computed on a LONG analysis window of L samples (`longSeconds`, 40 ms: a 20 ms
///   frame's window, the frequency resolution the suppressor's gain rule, its residual model and
///   its noise estimate were built for), applied zero-phase, and resynthesised with a SHORT
///   synthesis window over the window's last N + M samples, so that the output is only M
///   samples (`overlapSeconds`, 2.5 ms) late instead of a frame.
///   The analysis window a rises as a sqrt-Hann over L − M samples and falls as one over M;
///   the product a·s is a Hann half rising over M samples, 1 for N − M, a Hann half falling
///   over M, which overlap-adds to 1 at a hop of N: a flat gain gives the input back, M samples
///   late (to rounding). The synthesis window is that product over a where it is not zero.
/// Allocates only in `init`; `synthesise` allocates nothing.
package final class LowDelayWindows {
    /// The analysis window's length (L), the hop (N, the frame) and the synthesis overlap (M:
    /// the samples the output comes late), in samples.
    package let length: Int, hop: Int, overlap: Int
    /// The analysis window (L values) and the synthesis window (N + M values, for the last N + M
    /// samples of the L the inverse transform gives back).
    package let analysis: UnsafeMutablePointer<Float>
    private let synthesis: UnsafeMutablePointer<Float>
    /// The previous frame's last M samples, already windowed: its share of this frame's output.
    private let carry: UnsafeMutablePointer<Float>
    private let buffers = FloatBuffers()

    /// The analysis window's length for frames shorter than `longFrameSeconds` (s): a 20 ms
    /// frame's 2N window, whose frequency resolution (a 40 ms window's, at any transform size) the suppressor was built on.
    package static let longSeconds = 0.04
    /// Frames this long or longer (s) keep the standard windows (and their bytes).
    package static let longFrameSeconds = 0.02
    /// The synthesis overlap (s): the latency the suppressor adds beyond the frame. Shorter
    /// ramps the gain's changes between frames more steeply.
    package static let overlapSeconds = 0.0025

    /// The windows for the suppressor's frames of `frameFrames` at `rate` Hz: standard from
    /// `longFrameSeconds`, low delay below.
    package static func suppressor(frameFrames: Int, rate: Int) -> LowDelayWindows {
        let long = Int((longFrameSeconds * Double(rate)).rounded())
        guard frameFrames < long else { return LowDelayWindows(standard: frameFrames) }
        let overlap = min(frameFrames, max(1, Int((overlapSeconds * Double(rate)).rounded())))
        let length = Int((longSeconds * Double(rate)).rounded())
        return LowDelayWindows(length: max(length, frameFrames + overlap + 1), hop: frameFrames, overlap: overlap)
    }

    /// The standard windows: 2N-sample sqrt-Hann (`SqrtHannWindow`) for both, M = N.
    package init(standard hop: Int) {
        length = 2 * hop
        self.hop = hop
        overlap = hop
        analysis = buffers.make(2 * hop)
        SqrtHannWindow.fill(analysis, length: 2 * hop)
        synthesis = analysis
        carry = buffers.make(hop)
    }

    /// Low-delay windows of `length` (L) at a hop of `hop` (N), output `overlap` (M) late;
    /// 1 ≤ M ≤ N and N + M ≤ L.
    package init(length: Int, hop: Int, overlap: Int) {
        precondition(overlap >= 1 && overlap <= hop && hop + overlap <= length)
        self.length = length
        self.hop = hop
        self.overlap = overlap
        analysis = buffers.make(length)
        synthesis = buffers.make(hop + overlap)
        carry = buffers.make(overlap)
        let rise = length - overlap
        for i in 0..<rise { analysis[i] = Float(sin(Double.pi * Double(i) / Double(2 * rise))) }
        for j in 0..<overlap { analysis[rise + j] = Float(cos(Double.pi * Double(j) / Double(2 * overlap))) }
        // The product a·s over the last N + M samples: a Hann half rising over M, 1, a Hann half falling over M.
        let start = length - hop - overlap
        for j in 0..<(hop + overlap) {
            let product: Double
            if j < overlap {
                let r = sin(Double.pi * Double(j) / Double(2 * overlap)); product = r * r
            } else if j < hop {
                product = 1
            } else {
                let f = cos(Double.pi * Double(j - hop) / Double(2 * overlap)); product = f * f
            }
            let a = Double(analysis[start + j])
            synthesis[j] = a > 0 ? Float(product / a) : 0
        }
    }

    /// Moves an analysis window's history on by a frame: `history` holds the last `length`
    /// samples of a signal, `frame` its next `count`; afterwards `history` holds the last `length`
    /// again (`frame`'s last samples only, when `count` ≥ `length`).
    package static func slide(_ history: UnsafeMutablePointer<Float>, length: Int, adding frame: UnsafePointer<Float>, count: Int) {
        guard length > count else {
            history.update(from: frame + (count - length), count: length)
            return
        }
        history.update(from: history + count, count: length - count)
        (history + (length - count)).update(from: frame, count: count)
    }

    /// One frame's output: `y`, the inverse transform of the gained spectrum (its first L
    /// samples: the analysis window's span), windowed and added to the previous frame's overlap
    /// into `out` (N samples, M samples late); `y`'s last M samples, windowed, are kept for the next.
    package func synthesise(_ y: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let n = hop, m = overlap, start = length - n - m
        for i in 0..<n {
            let x = (i < m ? carry[i] : 0) + synthesis[i] * y[start + i]
            out[i] = x
        }
        for i in 0..<m { carry[i] = synthesis[n + i] * y[start + n + i] }
    }
}
