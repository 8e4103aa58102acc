import AUPipeFormats

/// A unit that reads side inputs (files, FIFOs, `<(commands)`) besides the stream: `mix`'s
/// buses, `aec`'s reference. The pipeline refuses an output that would overwrite one of them.
public protocol SideInputReader: AnyObject {
    /// Each side input's path and how messages name it (`mix's input 2`, `aec's reference`).
    var sideInputs: [(role: String, path: String)] { get }
}
