/// Parsing of the format spec users type: `TOKEN:RATE:CHANNELS` (`s16le:48000:1`, `f32le:44.1k:2`)
/// or the long form `format=f32le,rate=48000,channels=2[,layout=interleaved]`.
public enum FormatSpec {
    /// Parses a full spec. `option` names the flag it came from, for messages.
    public static func parse(_ text: String, option: String) throws -> StreamFormat {
        let parts = try components(text, option: option)
        guard let token = parts.token, let rate = parts.rate, let channels = parts.channels else {
            throw AUPipeError.usage("\(option) '\(text)' needs TOKEN:RATE:CHANNELS, e.g. s16le:48000:2")
        }
        return StreamFormat(encoding: token, sampleRate: rate, channels: channels)
    }

    /// The parts of a spec, each optional: `s16le` alone gives only the encoding.
    public struct Parts: Equatable, Sendable {
        public var token: SampleEncoding?
        public var rate: Int?
        public var channels: Int?

        public init(token: SampleEncoding? = nil, rate: Int? = nil, channels: Int? = nil) {
            self.token = token
            self.rate = rate
            self.channels = channels
        }
    }

    /// Parses a spec whose parts may be missing: `s16le`, `s16le:16000`, `s16le:16000:1`, `:16000:1`.
    public static func components(_ text: String, option: String) throws -> Parts {
        if text.contains("=") { return try longForm(text, option: option) }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(fields.count) else {
            throw AUPipeError.usage("\(option) '\(text)' has \(fields.count) fields; use TOKEN:RATE:CHANNELS, e.g. s16le:48000:2")
        }
        var parts = Parts()
        if !fields[0].isEmpty { parts.token = try encoding(fields[0], option: option) }
        if fields.count > 1, !fields[1].isEmpty { parts.rate = try parseRate(fields[1], option: option) }
        if fields.count > 2, !fields[2].isEmpty { parts.channels = try parseChannels(fields[2], option: option) }
        return parts
    }

    /// The sample encoding `token`; an unknown one's message names `option` (the flag, or the
    /// unit and parameter it came from).
    private static func encoding(_ token: String, option: String) throws -> SampleEncoding {
        do { return try SampleEncoding(token: token) } catch var error as AUPipeError {
            error.message = "\(option): \(error.message)"
            throw error
        }
    }

    private static func longForm(_ text: String, option: String) throws -> Parts {
        var parts = Parts()
        for pair in text.split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else {
                throw AUPipeError.usage("\(option): '\(pair)' is not key=value; use format=…,rate=…,channels=…")
            }
            switch kv[0].lowercased() {
            case "format": parts.token = try encoding(kv[1], option: option)
            case "rate": parts.rate = try parseRate(kv[1], option: option)
            case "channels": parts.channels = try parseChannels(kv[1], option: option)
            case "layout":
                guard kv[1].lowercased() == "interleaved" else {
                    throw AUPipeError.usage("\(option): layout=\(kv[1]) is not supported; aupipe reads interleaved samples only")
                }
            default:
                throw AUPipeError.usage("\(option): unknown key '\(kv[0])'; the keys are format, rate, channels, layout")
            }
        }
        return parts
    }

    /// A frequency in Hz as users write one: `440`, `1k`, `44.1k`, `440Hz`, `16kHz` (any case);
    /// nil when it is not a finite decimal number. Rates and Hz-valued parameters read it alike.
    package static func hertz(_ text: String) -> Double? {
        var t = text.lowercased()
        if t.hasSuffix("hz") { t.removeLast(2) }
        var scale = 1.0
        if t.hasSuffix("k") { t.removeLast(); scale = 1000 }
        guard let value = DecimalNumber.parse(t) else { return nil }
        return value * scale
    }

    /// A rate in Hz: `48000`, `44.1k`, `44100Hz`, `16kHz`. Must be a whole number of Hz in 1...768000.
    public static func parseRate(_ text: String, option: String) throws -> Int {
        guard let hz = hertz(text) else {
            throw AUPipeError.usage("\(option): rate '\(text)' is not a number; write e.g. 48000 or 44.1k")
        }
        guard hz == hz.rounded(), StreamFormat.rateRange.contains(Int(exactly: hz) ?? 0) else {
            throw AUPipeError.usage("\(option): rate '\(text)' must be a whole number of Hz in 1...768000")
        }
        return Int(hz)
    }

    /// A channel count in 1...64.
    public static func parseChannels(_ text: String, option: String) throws -> Int {
        guard let n = Int(text), StreamFormat.channelRange.contains(n) else {
            throw AUPipeError.usage("\(option): channels '\(text)' must be a whole number in 1...64")
        }
        return n
    }
}
