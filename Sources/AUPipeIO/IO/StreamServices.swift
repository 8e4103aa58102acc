import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// The I/O layer's side of `UnitStreams`: side inputs, side outputs, line outputs and files at
/// the end, as units open them, over file descriptors (`SideInput`, `SideOutput`, `LineOutput`,
/// `SideOutputFile`). Installed by `UnitRegistry.standard` and by every `Pipeline`, so that any
/// run, command or program that makes units through the standard registry or runs a chain has it.
public struct StreamServices: UnitStreamOpening {
    public init() {}

    /// Makes this the opener units use. Idempotent.
    public static func install() { UnitStreams.opener = StreamServices() }

    package func sideInput(_ r: SideInputRequest) throws -> any SideInputStream {
        try SideInput(spec: r.spec, index: r.index, label: r.label, target: r.target, maxFrames: r.maxFrames,
                      realTime: r.realTime, wait: r.wait, channelMismatch: r.channelMismatch)
    }

    package func sideOutput(path: String, options: SideOutputOptions) throws -> any SideOutputStream {
        try SideOutput(path: path, options: options)
    }

    package func lineOutput(path: String?, label: String) throws -> any LineOutputStream {
        try LineOutput(path: path, label: label)
    }

    package func isRegularFile(path: String, name: String) throws -> Bool {
        try SideOutputFile(path: path, name: name, stop: .signals).kind == .regular
    }

    package func writeFile(path: String, name: String, bytes: [UInt8]) throws {
        try SideOutputFile(path: path, name: name, stop: .signals).createFile().write(bytes)
    }
}

extension SideOutput: SideOutputStream {}
