/// The command line of `aupipe compare A B`.
public struct CompareOptions: Equatable, Sendable {
    public var a = ""
    public var b = ""
    /// Format of a headerless input (either or both); inputs with a header ignore it.
    public var inFormat: StreamFormat?
    /// Largest difference allowed, in LSB of the coarser of the two encodings.
    public var maxLSB: Double?
    /// Largest difference allowed, in dBFS.
    public var maxDiffDB: Double?
    /// Smallest signal-to-difference ratio allowed, in dB (A is the signal).
    public var minSNR: Double?
    /// Compare the common length when the lengths differ, instead of failing.
    public var allowLength = false
    /// Compare the samples of different encodings (s16le against f32le), instead of failing.
    public var ignoreFormat = false
    public var json = false

    /// True when no tolerance is given: only identical samples pass.
    public var exact: Bool { maxLSB == nil && maxDiffDB == nil && minSNR == nil }

    public init() {}

    static let usage = "usage: aupipe compare A B [--in-format SPEC] [--max-lsb N] [--max-diff-db DB] [--min-snr DB] [--allow-length] [--ignore-format] [--json]"

    /// The options, or nil when they ask for help (`-h`, `--help`).
    public static func parse(_ args: [String]) throws -> CompareOptions? {
        var o = CompareOptions()
        var files: [String] = []
        var i = 0
        func value(_ name: String, inline: String?) throws -> String {
            if let inline { return inline }
            guard i < args.count else { throw AUPipeError.usage("compare: \(name) needs a value; \(usage)") }
            i += 1
            return args[i - 1]
        }
        func number(_ name: String, _ text: String, _ range: ClosedRange<Double>) throws -> Double {
            guard let v = DecimalNumber.parse(text), range.contains(v) else {
                throw AUPipeError.usage("compare: \(name) \(text) is not a number in \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))")
            }
            return v
        }
        while i < args.count {
            let word = args[i]
            i += 1
            guard word.hasPrefix("--") else {
                if word.hasPrefix("-") && word != "-" {
                    if word == "-h" { return nil }
                    throw AUPipeError.usage("compare: unknown option \(word); \(usage)")
                }
                files.append(word)
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0], inline = parts.count > 1 ? parts[1] : nil
            switch name {
            case "--help": return nil
            case "--in-format": o.inFormat = try FormatSpec.parse(try value(name, inline: inline), option: "--in-format")
            case "--max-lsb": o.maxLSB = try number(name, try value(name, inline: inline), 0...1e12)
            case "--max-diff-db": o.maxDiffDB = try number(name, try value(name, inline: inline), -400...20)
            case "--min-snr": o.minSNR = try number(name, try value(name, inline: inline), -400...400)
            case "--allow-length", "--ignore-format", "--json":
                if let inline { throw AUPipeError.usage("compare: \(name) takes no value (got '\(inline)')") }
                if name == "--allow-length" { o.allowLength = true } else if name == "--ignore-format" { o.ignoreFormat = true } else { o.json = true }
            default:
                let known = ["--in-format", "--max-lsb", "--max-diff-db", "--min-snr", "--allow-length", "--ignore-format", "--json"]
                let hint = suggestion(for: name, among: known).map { "; did you mean \($0)?" } ?? ""
                throw AUPipeError.usage("compare: unknown option \(name)\(hint); \(usage)")
            }
        }
        guard files.count == 2 else { throw AUPipeError.usage("compare takes two inputs, got \(files.count); \(usage)") }
        guard files != ["-", "-"] else { throw AUPipeError.usage("compare: only one of A and B can be stdin (-)") }
        (o.a, o.b) = (files[0], files[1])
        return o
    }
}
