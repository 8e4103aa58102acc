import AUPipeFormats

/// A kind of parameter value that parses and describes itself. The common kinds (numbers,
/// durations, choices...) are the cases of `ParameterDescriptor.Kind`; a kind that belongs to
/// one unit or one provider (`mix`'s bus, `aec`'s far end, a plugin's control port) is a type
/// of its own beside it, given as `.custom(...)`: a new kind is one type, with no case to add.
public protocol ParameterKind: Sendable {
    /// The type and range as `aupipe help` prints it (`PATH[,format=SPEC]`, `dB, -120...60`).
    var typeDescription: String { get }
    /// Whether the shells complete the value as a file name.
    var isPath: Bool { get }
    /// Parses and range-checks `text`, a value of `parameter`; `unit` names the unit for
    /// messages, `index` counts the values of a repeatable parameter from 1. Errors come from
    /// `parameter.malformed` and `parameter.outOfRange`, or are the usage errors of the
    /// kind's own parser.
    func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue
}

extension ParameterKind {
    public var isPath: Bool { false }
}

extension ParameterDescriptor {
    /// The usage error for a value `text` of this parameter that is not of its kind (`what`
    /// says why: "is not a number; expected dB, -120...60").
    public func malformed(_ text: String, unit: String, _ what: String) -> AUPipeError {
        AUPipeError(.usage, "\(unit): \(name)=\(text) \(what)", cause: .parameter(owner: unit, name: name, .malformed))
    }

    /// The usage error for a value `text` of this parameter outside its range.
    public func outOfRange(_ text: String, unit: String, _ what: String) -> AUPipeError {
        AUPipeError(.usage, "\(unit): \(name)=\(text) \(what)", cause: .parameter(owner: unit, name: name, .outOfRange))
    }
}
