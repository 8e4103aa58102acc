#if canImport(Glibc)
import Glibc
#endif

/// One side input of `mix`, as written on the command line:
/// `input=PATH[,gain=DB][,pan=P][,offset=MS][,loop][,mute][,format=TOKEN:RATE:CH]`.
public struct BusSpec: Equatable, Sendable {
    /// A file, a FIFO, or a process substitution (`/dev/fd/63`); `-` is not allowed (stdin is bus 0).
    public var path: String
    /// Gain in dB, -120...60.
    public var gain: Double = 0
    /// Pan -1 (left) ... 1 (right), for stereo output; nil when not given.
    public var pan: Double?
    /// Where the bus starts on the stream's timeline; negative skips the bus's first frames.
    public var offset: StreamDuration = .frames(0)
    /// Start the bus again from its beginning each time it ends (regular files only).
    public var loop = false
    public var mute = false
    /// The format of a headerless bus.
    public var format: StreamFormat?

    /// Parses the text after `input=`; `index` (from 1) names the bus in messages.
    /// `owner` names the option in messages (`mix: input 2`, `aec: ref`); `allowed` limits the
    /// options after the path (nil: all of them).
    public static func parse(_ text: String, index: Int, owner: String? = nil, allowed: Set<String>? = nil) throws -> BusSpec {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let label = owner ?? "mix: input \(index)"
        let fail = { (what: String) in AUPipeError.usage("\(label) (\(parts[0])): \(what)") }
        guard !parts[0].isEmpty else { throw AUPipeError.usage("\(label) has no path; write \(owner == nil ? "input=PATH[,gain=DB][,pan=P][,offset=MS][,loop]" : "a path, e.g. ref=far.wav")") }
        guard parts[0] != "-" else { throw fail("stdin is the chain's own stream (bus 0); give a file, a FIFO or <(command)") }
        var spec = BusSpec(path: parts[0])
        var seen: Set<String> = []
        for option in parts.dropFirst() {
            let kv = option.split(separator: "=", maxSplits: 1).map(String.init)
            let key = kv[0].lowercased(), value = kv.count > 1 ? kv[1] : nil
            guard seen.insert(key).inserted else { throw fail("\(key) is given twice") }
            if let allowed, !allowed.contains(key) {
                throw fail("takes only \(allowed.sorted().map { $0 + "=" }.joined(separator: ", ")) after the path, not '\(key)'")
            }
            /// The value checked as the parameter of that kind is (`gain db=`, `busK.pan`).
            func number(_ kind: ParameterDescriptor.Kind) throws -> Double {
                let parsed = try ParameterDescriptor(key, kind, default: nil, help: "").parse(value ?? "", unit: "\(label) (\(parts[0]))")
                guard case .number(let v) = parsed else { throw fail("\(key)=\(value ?? "") is not a number") }
                return v
            }
            switch key {
            case "gain":
                // dB (`-6`, `-6dB`), or a linear factor with an x (`0.5x`).
                if let v = value, v.lowercased().hasSuffix("x") {
                    guard let f = Double(v.dropLast()), f.isFinite, f >= 0.000001, f <= 1000 else {
                        throw fail("gain=\(v) is not a linear factor in 0.000001x...1000x")
                    }
                    spec.gain = 20 * Glibc.log10(f)
                } else {
                    spec.gain = try number(.gainDB)
                }
            case "pan": spec.pan = try number(.pan)
            case "offset":
                let text = value ?? ""
                let negative = text.hasPrefix("-")
                guard let d = StreamDuration(negative ? String(text.dropFirst()) : text, bareUnit: .milliseconds) else {
                    throw fail("offset=\(text) is not a duration; write e.g. 250ms, -1.5s or 480f")
                }
                switch d {
                case .seconds(let s):
                    guard s <= 86_400 else { throw fail("offset=\(text) is beyond 24 hours") }
                    spec.offset = .seconds(negative ? -s : s)
                case .frames(let n): spec.offset = .frames(negative ? -n : n)
                }
            case "loop", "mute":
                guard value == nil || ["1", "on", "yes", "true"].contains(value!.lowercased()) || ["0", "off", "no", "false"].contains(value!.lowercased()) else {
                    throw fail("\(key)=\(value!) is not a boolean; write \(key), or \(key)=0")
                }
                let on = value.map { ["1", "on", "yes", "true"].contains($0.lowercased()) } ?? true
                if key == "loop" { spec.loop = on } else { spec.mute = on }
            case "format":
                spec.format = try FormatSpec.parse(value ?? "", option: "mix: input \(index) format")
            default:
                let keys = ["gain", "pan", "offset", "loop", "mute", "format"]
                let hint = suggestion(for: key, among: keys).map { "; did you mean '\($0)'?" } ?? "; the options are \(keys.joined(separator: ", "))"
                throw fail("unknown option '\(key)'\(hint)")
            }
        }
        return spec
    }

    /// Frames of the offset at `rate`, negative for a skip.
    func offsetFrames(atRate rate: Int) -> Int {
        switch offset {
        case .frames(let n): return n
        case .seconds(let s): return s < 0 ? -StreamDuration.seconds(-s).frames(atRate: rate) : StreamDuration.seconds(s).frames(atRate: rate)
        }
    }
}
