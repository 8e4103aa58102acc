import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// The taps of a band-limited fractional delay: a Kaiser-windowed sinc, 2·`halfLength` taps,
/// for `delay` and `echo`.
///
/// For a delay of `fraction` frames (0 ≤ fraction < 1), tap k (k = −halfLength+1 ... halfLength)
/// is sinc(k − fraction) · kaiser((k − fraction) / halfLength), applied as
/// y[n] = Σ x[n − k] · tap[k]. Below 0.45 × the rate the response differs from the ideal
/// e^(−jω·fraction) by less than −90 dB (−93.6 dB at a half frame, the worst case), which a
/// 64-tap window with β = 10 gives; above it the response rolls off towards the Nyquist
/// frequency. A whole-frame delay needs no taps (`isWhole`): it is a copy, bit-exact.
public enum FractionalDelayTaps {
    /// Taps on each side of the interpolated point: 32, so 64 taps, the shortest window for
    /// which the error below 0.45 × the rate stays under −90 dB (48 taps reach only −86 dB).
    public static let halfLength = 32
    /// The Kaiser window's β: 10 trades the window's main lobe (the roll-off above 0.45 × the
    /// rate) for side lobes below −90 dB.
    public static let kaiserBeta = 10.0
    /// The look-ahead the taps need, in frames: the interpolated point lies `halfLength − 1`
    /// frames before the newest input frame the taps reach.
    public static let lookAhead = halfLength - 1

    /// Writes the 2·`halfLength` taps for `fraction` into `taps` (tap k at index k + halfLength − 1).
    public static func fill(_ taps: UnsafeMutablePointer<Float>, fraction: Double) {
        let h = Double(halfLength)
        let norm = besselI0(kaiserBeta)
        for i in 0..<(2 * halfLength) {
            let t = Double(i - halfLength + 1) - fraction
            let r = t / h
            let window = abs(r) >= 1 ? 0 : besselI0(kaiserBeta * (1 - r * r).squareRoot()) / norm
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            taps[i] = Float(sinc * window)
        }
    }

    /// The modified Bessel function of the first kind, order 0, by its power series (to the
    /// last bit of a Double for the arguments a Kaiser window uses, 0...20).
    package static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        let q = x * x / 4
        repeat {
            term *= q / (k * k)
            sum += term
            k += 1
        } while term > sum * 1e-17
        return sum
    }
}
