import AUPipeFormats
import AUPipeGraph

/// `meter`'s parameters.
extension MeterUnit {
    public enum Keys {
        /// Seconds between JSON lines, 0.1 ... 3600 s; none: no lines (1 s when `to=` is given).
        public static let every = OptionalParameter("every", .duration(0.1...3600, bareUnit: .seconds),
                                                    help: "write a JSON line of levels this often; default none, or 1s with to=")
        /// Where the lines go; none: stderr.
        public static let to = OptionalParameter("to", .path, help: "where every= lines go: a file, a FIFO (never stalls the stream) or >(command); default stderr")
        /// An SVG plot of loudness and true peak over stream time, written at the end.
        public static let plot = OptionalParameter("plot", .path, help: "draw momentary and short-term loudness and true peak over stream time into this SVG file (a .svg name) at the end; no default")
    }
}
