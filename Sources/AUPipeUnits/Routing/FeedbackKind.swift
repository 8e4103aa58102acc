import AUPipeFormats
import AUPipeGraph

/// A feedback gain, 0 ≤ g < 1 (`echo feedback=`): at 1 or more every echo would be as loud as
/// the one before, or louder, and the output would never decay, so the refusal says that.
public struct FeedbackKind: ParameterKind {
    /// The largest feedback accepted: 0.999 (an echo every 250 ms then takes 24 min to fall by 120 dB).
    public static let maximum = 0.999

    public init() {}

    public var typeDescription: String { "0...\(formatNumber(Self.maximum)), below 1" }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        guard let v = DecimalNumber.parse(text) else { throw parameter.malformed(text, unit: unit, "is not a number; expected 0 to \(formatNumber(Self.maximum))") }
        guard v < 1 else {
            throw parameter.outOfRange(text, unit: unit, "must be below 1: each echo is feedback times the one before, so at 1 or more they never die away; use e.g. 0.4, at most \(formatNumber(Self.maximum))")
        }
        guard v >= 0, v <= Self.maximum else { throw parameter.outOfRange(text, unit: unit, "is out of range 0...\(formatNumber(Self.maximum))") }
        return .number(v)
    }
}

extension ParameterType where Value == Double {
    /// A feedback gain below 1 (`FeedbackKind`).
    package static var feedback: Self {
        Self(.custom(FeedbackKind()), read: { if case .number(let v) = $0 { v } else { nil } }, text: formatNumber)
    }
}
