import AUPipeFormats
import AUPipeGraph

/// A side input of `mix`: `PATH[,gain=DB][,pan=P][,offset=MS][,loop][,mute][,format=SPEC]`,
/// parsed into a `BusSpec` (`ParameterType.bus`).
public struct BusParameterKind: ParameterKind {
    public init() {}

    public var typeDescription: String { "PATH[,gain=DB][,pan=-1..1][,offset=MS][,loop][,mute][,format=SPEC], repeatable" }
    public var isPath: Bool { true }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        .bus(try BusSpec.parse(text, index: index))
    }
}
