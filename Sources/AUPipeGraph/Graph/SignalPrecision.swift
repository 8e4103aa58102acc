import AUPipeFormats

/// How many significant bits the samples at a point of the chain carry (sox's signal
/// precision): 16 when every sample is a 16-bit integer / 32768, 24 when anything a Float32
/// holds may appear. Decided at prepare time, from the input's encoding through what each
/// unit declares (`AudioUnit.outputPrecision(forInput:)`), so that the output edge knows
/// whether rounding to the output's integers loses anything (and then dithers, `EdgeDither`).
public struct SignalPrecision: Comparable, Sendable, CustomStringConvertible {
    /// Significant bits, 1...53.
    public let bits: Int

    public init(bits: Int) {
        self.bits = bits
    }

    /// What a unit that computes in Float32 may produce: the default, and the safe answer (the
    /// edge dithers after it).
    public static let float = SignalPrecision(bits: Float.significandBitCount + 1)

    /// µ-law's 14 and A-law's 13 bits of linear range (as sox counts them).
    private static let muLawBits = 14, aLawBits = 13

    /// The precision of samples decoded from `encoding`: its integer width, 24 for f32, 53 for f64.
    public init(_ encoding: SampleEncoding) {
        switch encoding.kind {
        case .signedInteger, .unsignedInteger: bits = encoding.bits
        case .float: bits = encoding.bits == 32 ? Self.float.bits : Double.significandBitCount + 1
        case .muLaw: bits = Self.muLawBits
        case .aLaw: bits = Self.aLawBits
        }
    }

    public static func < (a: SignalPrecision, b: SignalPrecision) -> Bool { a.bits < b.bits }

    public var description: String { "\(bits) bits" }
}
