import AUPipeFormats

/// A unit's `plot=` file (`meter`, `aec`): checked when the unit is built and written whole at
/// the end of the stream. Plots are SVG, so the name must end in `.svg` (any case); anything
/// else is refused (64) before the stream starts, rather than SVG written under a name that
/// promises another format. The file must be a regular file or a new name: it is written with a
/// blocking open at the end, which a FIFO without a reader would hang.
package struct PlotFile {
    package let path: String
    /// The unit, to start messages: `meter`, `aec`.
    package let unit: String

    /// Checks `path` for `unit`'s `plot=`; `example` is a file name to suggest (`levels.svg`).
    package init(path: String, unit: String, example: String) throws {
        self.path = path
        self.unit = unit
        guard path.lowercased().hasSuffix(".svg") else {
            let stem = path.lastIndex(of: ".").map { String(path[..<$0]) } ?? path
            throw AUPipeError.usage("\(unit): plot=\(path): plots are written as SVG; name the file .svg (plot=\(stem.isEmpty ? example : stem + ".svg"))")
        }
        guard try UnitStreams.opener.isRegularFile(path: path, name: label) else {
            throw AUPipeError.usage("\(unit): plot=\(path) is not a regular file; the plot is written at the end, to a file (e.g. plot=\(example))")
        }
    }

    private var label: String { "\(unit) plot= (\(path))" }

    /// Writes `svg` as the whole file.
    package func write(_ svg: String) throws {
        try UnitStreams.opener.writeFile(path: path, name: label, bytes: Array(svg.utf8))
    }
}
