#if canImport(Glibc)
import Glibc
#endif

/// The analysis and synthesis window of `aec`'s STFTs (the residual echo suppressor, its
/// far-end echo model, the comfort noise): sqrt-Hann over 2N samples, w[i] = sin(πi/2N), whose
/// squares overlap-add to 1 at a hop of N.
enum SqrtHannWindow {
    /// Writes the 2N = `length` values into `window`.
    static func fill(_ window: UnsafeMutablePointer<Float>, length: Int) {
        for i in 0..<length { window[i] = Float(sin(Double.pi * Double(i) / Double(length))) }
    }
}
