import AUPipeFormats
import AUPipeGraph

/// One of `eq`'s bands: `KIND,FREQ[,gain=DB][,q=Q|width=W|slope=S][,order=N][,type=T]`.
package struct FilterBandParameterKind: ParameterKind {
    package var typeDescription: String { "KIND,FREQ[,key=value...]; KIND: peak, lowshelf, highshelf, lowpass, highpass, bandpass, notch, allpass" }

    package func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        do { _ = try FilterBand(band: text) } catch let e as FilterBand.BandError {
            throw parameter.malformed(text, unit: unit, e.message)
        }
        return .text(text)
    }
}

extension ParameterType where Value == FilterBand {
    package static var filterBand: Self {
        Self(.custom(FilterBandParameterKind()), read: { if case .text(let t) = $0 { try? FilterBand(band: t) } else { nil } },
             text: { "\($0.kind.rawValue),\(formatNumber($0.frequency))" })
    }
}

extension FilterBand {
    package struct BandError: Error { let message: String }

    /// Parses an `eq` band (`peak,1k,gain=-3,q=0.7`): a kind (the unit names, or Equalizer
    /// APO's PK, LS, HS, LP, HP, BP, NO, AP), a frequency, then keys.
    package init(band text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let kind = FilterKind.bandNames[parts[0].lowercased()] else {
            throw BandError(message: "does not start with a kind and a frequency, e.g. peak,1k,gain=-3,q=0.7 (kinds: peak, lowshelf, highshelf, lowpass, highpass, bandpass, notch, allpass)")
        }
        guard let f = FormatSpec.hertz(parts[1]), f > 0 else { throw BandError(message: "has frequency '\(parts[1])', not a number of Hz above 0") }
        self.init(kind: kind, frequency: f)
        var given: Set<String> = []
        for item in parts.dropFirst(2) {
            let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw BandError(message: "has '\(item)' where key=value is expected (gain=, q=, width=, slope=, order=, type=)") }
            let key = kv[0].lowercased(), value = kv[1]
            guard given.insert(key).inserted else { throw BandError(message: "gives \(key)= twice") }
            func number(_ range: ClosedRange<Double>) throws -> Double {
                guard let v = DecimalNumber.parse(value.lowercased().hasSuffix("db") ? String(value.dropLast(2)) : value), range.contains(v) else {
                    throw BandError(message: "has \(key)=\(value), not a number in \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))")
                }
                return v
            }
            switch key {
            case "gain" where kind.hasGain: gain = try number(-60...60)
            case "q": width = .q(try number(0.01...100))
            case "width" where !kind.isPass && !kind.isShelf:
                guard let w = FilterWidthParameterKind.width(value) else { throw BandError(message: "has width=\(value); write Hz (100) or octaves (1oct)") }
                width = w
            case "slope" where kind.isShelf: width = .slope(try number(0.01...1))
            case "order" where kind.isPass:
                guard let n = Int(value), (1...8).contains(n) else { throw BandError(message: "has order=\(value), not a whole number in 1...8") }
                order = n
            case "type" where kind.isPass:
                guard let r = PassResponse(rawValue: value.lowercased()) else { throw BandError(message: "has type=\(value); use butterworth or linkwitz-riley") }
                response = r
            default: throw BandError(message: "has \(key)=, which a \(kind.rawValue) band does not take")
            }
        }
        if given.contains("q") && (given.contains("width") || given.contains("slope")) { throw BandError(message: "gives both q= and \(given.contains("width") ? "width" : "slope")=; give one") }
        try check()
    }

    /// The rules a band's combination of settings must follow (for bands and units alike).
    package func check() throws {
        guard kind.isPass else { return }
        if response == .linkwitzRiley && order % 2 == 1 { throw BandError(message: "is Linkwitz-Riley of odd order \(order); Linkwitz-Riley orders are 2, 4, 6, 8") }
        if width != nil && (order != 2 || response == .linkwitzRiley) {
            throw BandError(message: "gives q= with order=\(order)\(response == .linkwitzRiley ? " type=linkwitz-riley" : ""); q= makes one second-order section: drop order= and type=, or q=")
        }
    }
}
