import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// One filter as the units and `eq`'s bands describe it: a kind, a frequency in Hz, a gain in
/// dB (peaking and shelves), a width, and for low- and high-pass an order and a response. It
/// designs its second-order sections for a rate, into a `BiquadCascade`, without allocating.
public struct FilterBand: Equatable, Sendable {
    public var kind: FilterKind
    /// Centre or corner frequency, Hz, 0 < frequency < rate/2.
    public var frequency: Double
    /// Gain at the centre (peaking) or of the shelf, dB; 0 for other kinds.
    public var gain: Double = 0
    /// Width: Q, octaves, Hz or a shelf's slope. For low- and high-pass, nil means Butterworth
    /// (or Linkwitz-Riley) of `order`; a Q means one cookbook section with that Q.
    public var width: FilterWidth?
    /// Order of a low- or high-pass, 1...8.
    public var order = 2
    public var response = PassResponse.butterworth
    /// A `biquad`'s own coefficients.
    public var raw: BiquadCoefficients?

    public init(kind: FilterKind, frequency: Double, gain: Double = 0, width: FilterWidth? = nil, order: Int = 2,
                response: PassResponse = .butterworth, raw: BiquadCoefficients? = nil) {
        self.kind = kind
        self.frequency = frequency
        self.gain = gain
        self.width = width
        self.order = order
        self.response = response
        self.raw = raw
    }

    /// The Q of band-pass, notch and all-pass when none is given: 0.707, sox's and ffmpeg's
    /// default (1/√2 to three places). A shelf's default is S = 1 (the steepest slope without a
    /// bump); a peaking section's Q = 1; low- and high-pass are Butterworth.
    package static let defaultQ = 0.707

    /// How many sections the band designs: fixed by its kind, order and response, so that a
    /// live change of frequency, gain or Q keeps the cascade's shape.
    public var sectionCount: Int {
        guard kind.isPass, width == nil else { return 1 }
        return ButterworthDesign.sectionCount(order: order, linkwitzRiley: response == .linkwitzRiley)
    }

    /// Section `index` (< sectionCount) at `rate` Hz.
    public func section(_ index: Int, rate: Double) -> BiquadCoefficients {
        let f = frequency, w = width ?? .q(Self.defaultQ)
        switch kind {
        case .lowpass, .highpass:
            if let width { return kind == .lowpass ? CookbookDesign.lowpass(f, rate: rate, width: width) : CookbookDesign.highpass(f, rate: rate, width: width) }
            return ButterworthDesign.section(index, order: order, linkwitzRiley: response == .linkwitzRiley, f0: f, rate: rate, highpass: kind == .highpass)
        case .bandpass: return CookbookDesign.bandpass(f, rate: rate, width: w)
        case .notch: return CookbookDesign.notch(f, rate: rate, width: w)
        case .allpass: return CookbookDesign.allpass(f, rate: rate, width: w)
        case .peaking: return CookbookDesign.peaking(f, rate: rate, gainDB: gain, width: width ?? .q(1))
        case .lowshelf: return CookbookDesign.lowshelf(f, rate: rate, gainDB: gain, width: width ?? .slope(1))
        case .highshelf: return CookbookDesign.highshelf(f, rate: rate, gainDB: gain, width: width ?? .slope(1))
        case .biquad: return raw ?? .identity
        }
    }

    /// Writes the band's sections into `cascade` from section `first`.
    package func design(into cascade: BiquadCascade, from first: Int, rate: Double) {
        for i in 0..<sectionCount { cascade.setSection(first + i, section(i, rate: rate)) }
    }

    /// The band a fraction `t` (0...1) of the way from `self` to `target`: frequency and width
    /// geometrically (as the ear hears them), gain linearly in dB. Each step is a filter of
    /// its own, stable as both ends are, so that a glide never blows up.
    package func interpolated(to target: FilterBand, _ t: Double) -> FilterBand {
        var b = target
        b.frequency = frequency * pow(target.frequency / frequency, t)
        b.gain = gain + (target.gain - gain) * t
        if let from = width, let to = target.width, from.with(1) == to.with(1) {
            b.width = to.with(from.value * pow(to.value / from.value, t))
        }
        return b
    }
}
