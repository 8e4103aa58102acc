import AUPipeFormats

/// A noise-shaping filter for dither: the error-feedback coefficients h1...hN, whose noise
/// transfer 1 − Σ h_k z^−k moves the rounding noise out of the band where hearing is most
/// sensitive (2 to 5 kHz) into the top octave.
///
/// The one shape aupipe has is Wannamaker's 9-tap F-weighted filter (R. A. Wannamaker,
/// "Psychoacoustically Optimal Noise Shaping", J. Audio Eng. Soc. 40(7/8), 1992), designed for
/// 44.1 kHz and used, as sox uses it, within 5 % of 46 kHz: 44.1 and 48 kHz. There the noise in
/// 1–5 kHz is 19 dB below unshaped TPDF's (−12 dB below 1 kHz); the total noise power is
/// 18.4 dB above it, most of it above 15 kHz.
public struct NoiseShape: Sendable, Equatable {
    public let name: String
    /// h1...hN, applied to the errors of the previous N samples.
    public let coefficients: [Double]
    /// The rate the shape is centred on, in Hz, and how far from it (relative) it still applies.
    public let centreRate: Double
    public let tolerance: Double

    /// Wannamaker's 9-tap F-weighted shape (see above).
    public static let fWeighted = NoiseShape(
        name: "f-weighted",
        coefficients: [2.412, -3.370, 3.937, -4.174, 3.353, -2.205, 1.281, -0.569, 0.0847],
        centreRate: 46000, tolerance: 0.05)

    /// Every shape, in order of preference.
    public static let all = [fWeighted]

    /// The shape for `rate` Hz, or nil when none applies (shaped dither then falls back to TPDF).
    public static func forRate(_ rate: Int) -> NoiseShape? {
        all.first { abs(Double(rate) - $0.centreRate) / $0.centreRate <= $0.tolerance }
    }

    /// The rates (Hz, rounded outward) at which some shape applies, for messages.
    public static var rateRange: ClosedRange<Int> {
        let s = fWeighted
        return Int((s.centreRate * (1 - s.tolerance)).rounded(.up))...Int((s.centreRate * (1 + s.tolerance)).rounded(.down))
    }
}
