import AUPipeFormats
import AUPipeGraph

/// The far end of `aec`: `PATH[,format=SPEC]`, parsed as a bus with only `format`
/// (`ParameterType.reference`). Standard input is refused: it is the microphone.
public struct ReferenceParameterKind: ParameterKind {
    public init() {}

    public var typeDescription: String { "PATH[,format=TOKEN:RATE:CH] (a file, a FIFO or <(command))" }
    public var isPath: Bool { true }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        if text == "-" {
            throw AUPipeError.usage("\(unit): \(parameter.name)=- : stdin is the microphone; give the far end as a file, a FIFO or <(command)")
        }
        return .bus(try BusSpec.parse(text, index: 1, owner: "\(unit): \(parameter.name)", allowed: [BusSpec.Options.format.name]))
    }
}
