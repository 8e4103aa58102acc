import AUPipeFormats
import AUPipeGraph

/// `sidechain=PATH[,format=SPEC]` of `compressor` and `gate`: the input the level is read from
/// (a file, a FIFO or `<(command)`), parsed as a bus with only `format`. Standard input is
/// refused: it is the stream being compressed.
public struct SidechainParameterKind: ParameterKind {
    public init() {}

    public var typeDescription: String { "PATH[,format=TOKEN:RATE:CH] (a file, a FIFO or <(command))" }
    public var isPath: Bool { true }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        if text == "-" {
            throw AUPipeError.usage("\(unit): \(parameter.name)=- : stdin is the stream itself; give the side chain as a file, a FIFO or <(command)")
        }
        return .bus(try BusSpec.parse(text, index: 1, owner: "\(unit): \(parameter.name)", allowed: [BusSpec.Options.format.name]))
    }
}

extension ParameterType where Value == BusSpec {
    /// The side chain of `compressor` and `gate`: `PATH[,format=SPEC]`.
    package static var sidechain: Self {
        Self(.custom(SidechainParameterKind()), read: { if case .bus(let v) = $0 { v } else { nil } }, text: \.argument)
    }
}

extension ParameterType where Value == Automatic<Double> {
    /// `auto`, or a number within `range` in `unit` (`makeup=6`, `makeup=auto`).
    package static func numberOrAuto(_ range: ClosedRange<Double>, unit: String) -> Self {
        Self(.numberOrChoice(range, unit: unit, [Automatic<Double>.word]),
             read: {
                 switch $0 {
                 case .text(Automatic<Double>.word): .auto
                 case .number(let v): .fixed(v)
                 default: nil
                 }
             },
             text: { $0.fixedValue.map(formatNumber) ?? Automatic<Double>.word })
    }
}

extension ParameterType where Value == Double {
    /// A number within `range`, or `inf` (read as +∞): `gate ratio=` (∞ is a gate).
    package static func numberOrInfinity(_ range: ClosedRange<Double>, unit: String) -> Self {
        Self(.numberOrChoice(range, unit: unit, ["inf"]),
             read: {
                 switch $0 {
                 case .text("inf"): .infinity
                 case .number(let v): v
                 default: nil
                 }
             },
             text: { $0.isInfinite ? "inf" : formatNumber($0) })
    }
}
