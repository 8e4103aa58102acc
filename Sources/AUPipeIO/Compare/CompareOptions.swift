import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

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
    /// How far the lengths may differ (the common part is then compared); nil: not at all.
    public var allowLength: LengthAllowance?
    /// Compare the samples of different sample types (s16le against f32le), instead of failing.
    /// Byte order alone (s16le against s16be) is no difference and needs no option.
    public var ignoreFormat = false
    public var json = false

    /// True when no tolerance is given: only identical samples pass.
    public var exact: Bool { maxLSB == nil && maxDiffDB == nil && minSNR == nil }

    public init() {}

    package static let usage = "usage: aupipe compare [--in-format SPEC] [--max-lsb N] [--max-diff-db DB] [--min-snr DB] [--allow-length[=N|P%]] [--ignore-format] [--json] [--] A B"

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
        /// A number in `range`, with `unit` as an optional suffix (`-80dB`), as units' parameters take it.
        func number(_ name: String, _ text: String, _ range: ClosedRange<Double>, unit: String = "") throws -> Double {
            let shown = "\(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
            guard let v = ParameterDescriptor.number(text, unit: unit) else {
                throw AUPipeError.usage("compare: \(name) \(text) is not a number; expected \(unit.isEmpty ? "" : unit + ", ")\(shown)")
            }
            guard range.contains(v) else { throw AUPipeError.usage("compare: \(name) \(text) is out of range \(shown)") }
            return v
        }
        var pathsOnly = false
        while i < args.count {
            let word = args[i]
            i += 1
            // After `--` every word is a path, even one that starts with '-'.
            if pathsOnly { files.append(word); continue }
            if word == "--" { pathsOnly = true; continue }
            guard word.hasPrefix("--") else {
                if word.hasPrefix("-") && word != "-" {
                    if word == "-h" { return nil }
                    throw AUPipeError.usage("compare: unknown option \(word) (a path that starts with '-' goes after --: compare -- \(word) B); \(usage)")
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
            case "--max-diff-db": o.maxDiffDB = try number(name, try value(name, inline: inline), -400...20, unit: "dB")
            case "--min-snr": o.minSNR = try number(name, try value(name, inline: inline), -400...400, unit: "dB")
            case "--allow-length":
                // The bound comes after '=' only: a bare flag must not swallow the path after it.
                guard let inline else { o.allowLength = .bare; continue }
                guard let allowance = LengthAllowance.parse(inline) else {
                    throw AUPipeError.usage("compare: --allow-length=\(inline) is neither a frame count (0 or more, e.g. --allow-length=480) nor a percentage of A's length (0...100, e.g. --allow-length=1%)")
                }
                o.allowLength = allowance
            case "--ignore-format", "--json":
                if let inline { throw AUPipeError.usage("compare: \(name) takes no value (got '\(inline)')") }
                if name == "--ignore-format" { o.ignoreFormat = true } else { o.json = true }
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
