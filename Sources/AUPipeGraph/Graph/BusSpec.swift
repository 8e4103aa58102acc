import AUPipeFormats

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

    /// The options after a bus's path, declared once: parsed and range-checked by the same
    /// `ParameterDescriptor` machinery as a unit's parameters, and read back typed.
    public enum Options {
        /// Gain in dB, −120...60 (`-6`, `-6dB`), or a linear factor in the same range (`0.5x`).
        public static let gain = Parameter("gain", .gainDBOrFactor, default: 0, help: "bus gain in dB, or a linear factor like 0.5x")
        /// Pan, −1 (left) ... 1 (right), stereo output only; no pan unless given.
        public static let pan = OptionalParameter("pan", .pan, help: "position in a stereo output")
        /// Where the bus starts on the stream's timeline, within ±24 h (frames unlimited);
        /// negative skips its beginning; a bare number is in milliseconds.
        public static let offset = Parameter("offset", .duration(-86_400...86_400, bareUnit: .milliseconds), default: .frames(0),
                                             help: "start on the stream's timeline; negative skips the bus's beginning")
        /// Start again at the end (regular files); `loop` alone is `loop=1`.
        public static let loop = Parameter("loop", .boolean, default: false, help: "start again from the beginning at the end")
        /// Silence the bus; `mute` alone is `mute=1`.
        public static let mute = Parameter("mute", .boolean, default: false, help: "silence the bus")
        /// The format of a headerless bus.
        public static let format = OptionalParameter("format", .streamFormat, help: "the format of a raw bus")

        /// Every option, in the order of the syntax.
        public static let all: [any AnyParameter] = [gain, pan, offset, loop, mute, format]
    }

    /// Parses the text after `input=`; `index` (from 1) names the bus in messages.
    /// `owner` names the option in messages (`mix: input 2`, `aec: ref`); `allowed` limits the
    /// options after the path to those names (nil: all of them).
    public static func parse(_ text: String, index: Int, owner: String? = nil, allowed: Set<String>? = nil) throws -> BusSpec {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let label = owner ?? "mix: input \(index)"
        let fail = { (what: String) in AUPipeError.usage("\(label) (\(parts[0])): \(what)") }
        guard !parts[0].isEmpty else { throw AUPipeError.usage("\(label) has no path; write \(owner == nil ? "input=PATH[,gain=DB][,pan=P][,offset=MS][,loop]" : "a path, e.g. ref=far.wav")") }
        guard parts[0] != "-" else { throw fail("stdin is the chain's own stream (bus 0); give a file, a FIFO or <(command)") }
        let options = Options.all.map(\.descriptor).filter { allowed?.contains($0.name) ?? true }
        var arguments: [String] = []
        var seen: Set<String> = []
        for option in parts.dropFirst() {
            guard !option.isEmpty else { throw fail("an empty option: two ',' in a row, or a ',' at the end") }
            let kv = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let key = kv[0].lowercased()
            guard !key.isEmpty else { throw fail("'\(option)' has no option name before '='") }
            guard seen.insert(key).inserted else { throw fail("\(key) is given twice") }
            if let allowed, !allowed.contains(key) {
                throw fail("takes only \(allowed.sorted().map { $0 + "=" }.joined(separator: ", ")) after the path, not '\(key)'")
            }
            guard let descriptor = options.first(where: { $0.name == key }) else {
                let keys = Options.all.map(\.name)
                let hint = suggestion(for: key, among: keys).map { "; did you mean '\($0)'?" } ?? "; the options are \(keys.joined(separator: ", "))"
                throw fail("unknown option '\(key)'\(hint)")
            }
            // A switch written alone (`loop`) is on.
            let bare: String
            if case .boolean = descriptor.kind { bare = "1" } else { bare = "" }
            arguments.append("\(key)=\(kv.count > 1 ? kv[1] : bare)")
        }
        let values = try ParameterDescriptor.parse(arguments, parameters: options, primary: nil, owner: "\(label) (\(parts[0]))")
        return BusSpec(path: parts[0], gain: values[Options.gain], pan: values[Options.pan], offset: values[Options.offset],
                       loop: values[Options.loop], mute: values[Options.mute], format: values[Options.format])
    }

    /// The text `parse` reads back as this bus (`bed.wav,gain=-12,loop`).
    public var argument: String {
        var text = path
        if gain != Options.gain.defaultValue { text += ",gain=\(formatNumber(gain))" }
        if let pan { text += ",pan=\(formatNumber(pan))" }
        if offset != Options.offset.defaultValue { text += ",offset=\(offset)" }
        if loop { text += ",loop" }
        if mute { text += ",mute" }
        if let format { text += ",format=\(format.spec)" }
        return text
    }

    /// Frames of the offset at `rate`, negative for a skip.
    package func offsetFrames(atRate rate: Int) -> Int {
        switch offset {
        case .frames(let n): return n
        case .seconds(let s): return s < 0 ? -StreamDuration.seconds(-s).frames(atRate: rate) : StreamDuration.seconds(s).frames(atRate: rate)
        }
    }
}
