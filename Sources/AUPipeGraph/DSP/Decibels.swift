import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Decibels as aupipe uses them: amplitude ratios, 20·log10.
package enum Decibels {
    /// The amplitude factor of `dB` decibels: 10^(dB/20) (0 dB = 1, −6.02 dB ≈ 0.5).
    package static func amplitude(_ dB: Double) -> Double { pow(10, dB / 20) }
}
