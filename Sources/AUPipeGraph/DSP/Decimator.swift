import AUPipeFormats
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
/// output). Allocates only in `init`. With `factor` 1 every input comes out unchanged.
package final class Decimator {
    /// Input frames per output frame (≥ 1).
    package let factor: Int
    /// Filter length (1 when `factor` is 1).
    package let taps: Int
    private let coefficients: UnsafeMutablePointer<Float>
    /// The last `taps` inputs, written twice (at i and i + taps) so that they always sit
    /// contiguously, newest last, at history[position + 1 ... position + taps].
    private let history: UnsafeMutablePointer<Float>
    private var position = 0
    private var phase = 0

    package init(factor: Int) {
        precondition(factor >= 1, "decimation factor \(factor) below 1")
        self.factor = factor
        taps = factor == 1 ? 1 : 32 * factor + 1
        coefficients = .allocate(capacity: taps)
        history = .allocate(capacity: 2 * taps)
        history.initialize(repeating: 0, count: 2 * taps)
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
        history.deallocate()
    }

    /// Takes one input frame; returns an output frame for every `factor`-th input, else nil.
    @inline(__always)
    package func push(_ x: Float) -> Float? {
        if factor == 1 { return x }
        position = position + 1 == taps ? 0 : position + 1
        history[position] = x
        history[position + taps] = x
        let due = phase == 0
        phase = phase + 1 == factor ? 0 : phase + 1
        guard due else { return nil }
        // The window is symmetric: the order of the products does not matter.
        let window = history + position + 1
        var acc: Float = 0
        for j in 0..<taps { acc += coefficients[j] * window[j] }
        return acc
    }
}
