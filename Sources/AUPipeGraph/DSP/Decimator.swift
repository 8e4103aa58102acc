import AUPipeFormats
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// Integer-factor decimation of one mono stream: a linear-phase FIR low-pass, then every
/// `factor`-th sample.
///
/// The filter is a Hamming-windowed sinc of `32·factor + 1` taps with its cutoff at half the
/// output rate (−6 dB there): flat to about 0.45 × the output rate, at least ~50 dB down from
/// 0.55 × the output rate, so what folds back onto 0...0.45 × the output rate is negligible.
/// DC gain 1. Its group delay is `16·factor` input frames, the same for every stream decimated
/// by the same factor, so it drops out of a delay measured between two of them.
///
/// Output m is the filtered value at input frame m·factor (the first input gives the first
/// output), whatever the blocks the input comes in. Allocates only in `init`. With `factor` 1
/// every input comes out unchanged.
package final class Decimator {
    /// Input frames per output frame (≥ 1).
    package let factor: Int
    /// Filter length (1 when `factor` is 1).
    package let taps: Int
    private let coefficients: UnsafeMutablePointer<Float>
    /// The last `taps − 1` inputs (oldest first), then a block's inputs: the windows of the
    /// block's outputs lie in it contiguously. Room for `chunk` inputs at a time.
    private let line: UnsafeMutablePointer<Float>
    /// `aupipe_fir_decimate`'s scratch.
    private let scratch: UnsafeMutablePointer<Float>
    /// Inputs since the last output, modulo `factor` (0: the next input gives one).
    private var phase = 0
    /// The most inputs one kernel call takes.
    private static let chunk = 1024

    package init(factor: Int) {
        precondition(factor >= 1, "decimation factor \(factor) below 1")
        self.factor = factor
        taps = factor == 1 ? 1 : 32 * factor + 1
        coefficients = .allocate(capacity: taps)
        line = .allocate(capacity: taps - 1 + Self.chunk)
        line.initialize(repeating: 0, count: taps - 1 + Self.chunk)
        scratch = .allocate(capacity: factor * (Self.chunk / factor + taps / factor + 3))
        let middle = Double(taps - 1) / 2
        var sum = 0.0
        var h = [Double](repeating: 1, count: taps)
        if taps > 1 {
            for i in 0..<taps {
                let t = Double(i) - middle
                let x = Double.pi * t / Double(factor)
                let sinc = t == 0 ? 1 : sin(x) / x
                let window = 0.54 - 0.46 * cos(2 * Double.pi * Double(i) / Double(taps - 1))
                h[i] = sinc * window
            }
        }
        for v in h { sum += v }
        for i in 0..<taps { coefficients[i] = Float(h[i] / sum) }
    }

    deinit {
        coefficients.deallocate()
        line.deallocate()
        scratch.deallocate()
    }

    /// The filter's coefficients (for the tests).
    package var coefficientsForTests: [Float] { Array(UnsafeBufferPointer(start: coefficients, count: taps)) }

    /// Takes `count` input frames from `x` and writes their outputs into `y` (one for every
    /// `factor`-th input: at most count / factor + 1), calling `each(k)` after output k is
    /// written, with the index in `x` of the input it came with. Each output is Σⱼ c[j]·w[j] over
    /// the window of the last `taps` inputs, oldest first, summed in order of j from 0
    /// (`aupipe_fir_decimate`, eight outputs at a time: the same bits as one at a time).
    package func push(_ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>, each: (_ output: Int, _ input: Int) -> Void) {
        if factor == 1 {
            y.update(from: x, count: count)
            for i in 0..<count { each(i, i) }
            return
        }
        var done = 0, written = 0
        while done < count {
            let n = min(Self.chunk, count - done)
            (line + taps - 1).update(from: x + done, count: n)
            // The first input of the block with an output, and the outputs.
            let first = (factor - phase) % factor
            let outputs = first < n ? (n - 1 - first) / factor + 1 : 0
            aupipe_fir_decimate(coefficients, taps, line + first, factor, y + written, outputs, scratch)
            for k in 0..<outputs { each(written + k, done + first + k * factor) }
            written += outputs
            phase = (phase + n) % factor
            // The last taps − 1 inputs go to the front for the next block.
            line.update(from: line + n, count: taps - 1)
            done += n
        }
    }
}
