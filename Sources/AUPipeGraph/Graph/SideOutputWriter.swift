import AUPipeFormats

/// A unit that writes side outputs (files, FIFOs, `>(commands)`) besides the stream: `tee`'s
/// copy, `meter`'s `to=` lines and `plot=` file. The pipeline refuses one that would land on
/// the input (`-i`), the output (`-o` or stdout) or a side input another unit reads (a `mix`
/// bus, `aec`'s reference): mirrors `SideInputReader`.
public protocol SideOutputWriter: AnyObject {
    /// Each side output's path and how messages name it (`tee`, `meter's to=`).
    var sideOutputs: [(role: String, path: String)] { get }
}
