import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The analysis window of `spectrogram` (`window=`), as sox's `spectrogram -w` offers them:
/// the trade between a narrow peak (rectangular) and low side lobes (blackman), hann between.
public enum SpectrogramWindow: String, CaseIterable, Sendable {
    case hann, hamming, blackman, bartlett, rectangular

    /// The `size` coefficients, periodic (the window of a DFT of `size` points), 0...1.
    package func coefficients(size: Int) -> [Float] {
        (0..<size).map { n in
            let p = 2 * Double.pi * Double(n) / Double(size)
            switch self {
            case .hann: return Float(0.5 - 0.5 * cos(p))
            case .hamming: return Float(0.54 - 0.46 * cos(p))
            case .blackman: return Float(0.42 - 0.5 * cos(p) + 0.08 * cos(2 * p))
            case .bartlett: return Float(1 - abs(2 * Double(n) / Double(size) - 1))
            case .rectangular: return 1
            }
        }
    }
}
