import AUPipeFormats
import AUPipeGraph

/// `silence threshold=`: the level under which a frame is quiet. Either absolute, in dBFS
/// (`-50dB`, `-50`), or relative to the running loudness (`-30rel`): the mean power of every
/// frame so far whose peak is above −70 dBFS (EBU R128's absolute gate), in dB, plus the
/// (negative) offset.
public enum SilenceThreshold: Equatable, Sendable {
    /// dBFS, −120...0.
    case absolute(Double)
    /// dB relative to the running loudness, −60...0.
    case relative(Double)

    /// The range of an absolute threshold, dBFS.
    static let absoluteRange = -120.0...0
    /// The range of a relative threshold, dB below the running loudness.
    static let relativeRange = -60.0...0
    /// The suffix of a relative threshold.
    static let relativeSuffix = "rel"

    /// Parses `-50`, `-50dB`, `-50dBFS` or `-30rel`; nil when it is none of them.
    init?(parsing text: String) {
        let lower = text.lowercased()
        if lower.hasSuffix(Self.relativeSuffix), let v = Double(lower.dropLast(Self.relativeSuffix.count)), v.isFinite {
            self = .relative(v)
            return
        }
        for suffix in ["dbfs", "db", ""] where lower.hasSuffix(suffix) {
            if let v = Double(lower.dropLast(suffix.count)), v.isFinite { self = .absolute(v); return }
        }
        return nil
    }

    /// The text that parses back to it.
    var text: String {
        switch self {
        case .absolute(let v): "\(formatNumber(v))dB"
        case .relative(let v): "\(formatNumber(v))rel"
        }
    }
}

/// The parameter kind of `SilenceThreshold`.
struct SilenceThresholdKind: ParameterKind {
    var typeDescription: String { "dBFS, -120...0 (-50dB), or dB below the running loudness, -60...0 (-30rel)" }

    func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        guard let value = SilenceThreshold(parsing: text) else {
            throw parameter.malformed(text, unit: unit, "is not a level; expected dBFS like -50dB, or dB below the running loudness like -30rel")
        }
        switch value {
        case .absolute(let v) where !SilenceThreshold.absoluteRange.contains(v):
            throw parameter.outOfRange(text, unit: unit, "is out of range; an absolute threshold is -120...0 dBFS")
        case .relative(let v) where !SilenceThreshold.relativeRange.contains(v):
            throw parameter.outOfRange(text, unit: unit, "is out of range; a relative threshold is -60...0 dB (-30rel)")
        default:
            return .text(value.text)
        }
    }
}

extension ParameterType where Value == SilenceThreshold {
    static var silenceThreshold: Self {
        Self(.custom(SilenceThresholdKind()), read: { if case .text(let t) = $0 { SilenceThreshold(parsing: t) } else { nil } }, text: \.text)
    }
}
