import AUPipeFormats
import AUPipeGraph

/// `dither`'s parameters.
extension DitherUnit {
    /// The noise `type=` adds.
    public enum NoiseType: String, CaseIterable, Sendable {
        /// Triangular, white.
        case tpdf
        /// TPDF shaped by Wannamaker's F-weighted filter (`NoiseShape`), 44.1 and 48 kHz only.
        case shaped
    }

    public enum Keys {
        /// The integer width to dither to, 2...24 bits (16: CD, s16).
        public static let bits = Parameter("bits", .integer(2...24), default: 16, help: "integer width to dither and round to, in bits")
        /// The noise: `tpdf` or `shaped`.
        public static let type = Parameter("type", .choice(NoiseType.self), default: .tpdf,
                                           help: "tpdf (white) or shaped (F-weighted; 44.1 and 48 kHz only)")
        /// The seed of the noise, 0...2^32−1: the same seed gives the same bytes.
        public static let seed = Parameter("seed", .integer(0...4_294_967_295), default: 0, help: "seed of the noise; the same seed gives the same bytes")
    }
}
