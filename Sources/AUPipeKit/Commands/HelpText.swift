/// The texts of `--help`, `aupipe units` and `aupipe help UNIT`, generated from the unit
/// descriptors so that they always match what the parser accepts.
public enum HelpText {
    public static let version = "aupipe 0.1.0"

    public static var usage: String {
        """
        aupipe — an AudioUnit-style processing chain for Unix pipes

        Usage:
          aupipe [OPTIONS] UNIT [ARG]... [: UNIT [ARG]...]...
          aupipe info [--in-format SPEC] [FILE|-]
          aupipe units
          aupipe help UNIT
          aupipe demo [-o PATH]

        Reads PCM with a CAF, WAV or AU header (or raw PCM described by --in-format) from stdin,
        runs it through the units in order and writes it to stdout. An ARG is key=value, or a
        bare value for the unit's main parameter (resample 16000, gain -6). With no units the
        stream is copied, converted only as --out-format and -t ask.

        Options:
          -i, --input PATH        read from PATH instead of stdin
          -o, --output PATH       write to PATH instead of stdout; when the output is a regular
                                  file (this or a redirected stdout), header sizes are patched
                                  at the end
          --in-format SPEC        format of headerless input: TOKEN:RATE:CHANNELS, e.g. s16le:48000:1
          --out-format SPEC       output encoding (s16le), or TOKEN:RATE:CHANNELS to also convert
                                  rate and channel count at the end of the chain
          -t, --type TYPE         output container: caf, wav, au or raw (default: the input's)
          --block DURATION        most frames processed per step (default 10ms; 480f = frames)
          --stats[=json]          print per-unit figures on stderr at the end
          --check                 validate the chain against the input's header (from -i, or stdin
                                  unless it is a terminal), print the formats, and exit
          -h, --help              show this help
          -V, --version           show the version

        Format tokens: u8 s8 s16le s24le s32le u16le u24le u32le f32le f64le (…be), mulaw, alaw;
        ALSA (S16_LE, S24_3LE, FLOAT_LE), GStreamer (F32LE) and ffmpeg (s16, flt) spellings work too.

        Units:
        \(HelpText.unitList)

        Exit status: 0 ok (also when the reader closes the pipe early, or after SIGINT/SIGTERM),
        64 usage error, 65 bad input data, 66 input cannot be opened, 70 internal error,
        73 output cannot be created, 74 I/O error.

        Examples:
          arecord -t raw -f S16_LE -r 48000 -c 1 | aupipe --in-format s16le:48000:1 resample 16000 -t wav | opusenc - out.opus
          aupipe -i in.wav convert channels=1 : gain -3 -o mono.wav
          aupipe help resample
        """
    }

    static var unitList: String {
        UnitRegistry.all.map { "  " + padded($0.name, 10) + $0.summary }.joined(separator: "\n")
    }

    /// `aupipe units`: every unit with its parameters on one line each.
    public static var units: String {
        UnitRegistry.all.map { d in
            let params = d.parameters.map { p in
                "\(p.name)=\(p.defaultValue ?? "…")" + (p.name == d.primary ? "*" : "")
            }.joined(separator: " ")
            return padded(d.name, 10) + d.summary + "\n          " + params
        }.joined(separator: "\n") + "\n\n(* takes a bare value; 'aupipe help UNIT' describes each parameter)"
    }

    static func padded(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }

    /// `aupipe help UNIT`.
    public static func unit(_ d: UnitDescriptor) -> String {
        var lines = ["\(d.name) — \(d.summary)", ""]
        lines += d.details.split(separator: "\n").map { String($0) }
        lines += ["", "Parameters:"]
        for p in d.parameters {
            let def = p.defaultValue.map { "default \($0)" } ?? "no default"
            let primary = p.name == d.primary ? " (bare value)" : ""
            lines.append("  \(p.name)\(primary): \(p.help)")
            lines.append("      \(p.typeDescription); \(def)")
        }
        lines += ["", "Example:", "  \(d.example)"]
        return lines.joined(separator: "\n")
    }
}
