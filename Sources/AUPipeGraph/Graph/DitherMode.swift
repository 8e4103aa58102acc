import AUPipeFormats

/// `--dither`: what the output edge does when it rounds samples that carry more precision than
/// a linear integer output of 16 bits or fewer can hold (`EdgeDither`).
public enum DitherMode: String, Sendable, CaseIterable {
    /// The default: seeded TPDF dither where the precision calls for it.
    case auto
    /// Plain rounding (to nearest, ties to even), as before dither existed.
    case off
    /// TPDF dither where the precision calls for it (what `auto` does today).
    case tpdf
    /// Noise-shaped dither (`NoiseShape`) where the precision calls for it, at rates that have
    /// a shape (44.1 and 48 kHz); TPDF at other rates.
    case shaped
}
