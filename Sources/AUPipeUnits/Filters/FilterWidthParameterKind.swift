import AUPipeFormats
import AUPipeGraph

/// `width=` of `bandpass`, `notch`, `allpass` and `equalizer`: a bandwidth in Hz (`100`,
/// `1k`, `100hz`) or in octaves (`1oct`, `0.5o`, sox's suffix).
package struct FilterWidthParameterKind: ParameterKind {
    package var typeDescription: String { "Hz (100, 1k), or octaves with oct (1oct, 0.5oct)" }

    /// The width `text` gives, or nil.
    package static func width(_ text: String) -> FilterWidth? {
        let t = text.lowercased()
        for suffix in ["oct", "o"] where t.hasSuffix(suffix) {
            guard let v = DecimalNumber.parse(String(t.dropLast(suffix.count))), v > 0, v <= 10 else { return nil }
            return .octaves(v)
        }
        guard let hz = FormatSpec.hertz(t), hz > 0, hz <= 384_000 else { return nil }
        return .hertz(hz)
    }

    package func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        guard Self.width(text) != nil else {
            throw parameter.malformed(text, unit: unit, "is not a width; write Hz (100, 1k) or octaves (1oct), each above 0 (octaves up to 10)")
        }
        return .text(text)
    }
}

extension ParameterType where Value == FilterWidth {
    /// A bandwidth in Hz or octaves (`FilterWidthParameterKind`).
    package static var filterWidth: Self {
        Self(.custom(FilterWidthParameterKind()), read: { if case .text(let t) = $0 { FilterWidthParameterKind.width(t) } else { nil } },
             text: { w in
                 switch w {
                 case .octaves(let v): "\(formatNumber(v))oct"
                 default: formatNumber(w.value)
                 }
             })
    }
}

/// `eq file=`: a file to read, completed as a file name.
package struct InputPathParameterKind: ParameterKind {
    package var typeDescription: String { "PATH of a text file" }
    package var isPath: Bool { true }
    package func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue { .text(text) }
}
