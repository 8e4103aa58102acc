import AUPipeFormats
import AUPipeGraph

/// A delay as the user wrote it: seconds, or frames that may hold a fraction (`2.5f`).
public enum DelayTime: Equatable, Sendable, CustomStringConvertible {
    case seconds(Double)
    case frames(Double)

    /// Parses `10ms`, `0.5s`, `480f`, `2.5f` or a bare `0`; nil for anything else, a bare
    /// number other than 0 included.
    public init?(_ text: String) {
        let t = text.lowercased()
        if t.hasSuffix("ms"), let v = DecimalNumber.parse(t.dropLast(2)) { self = .seconds(v / 1000) }
        else if t.hasSuffix("s"), let v = DecimalNumber.parse(t.dropLast()) { self = .seconds(v) }
        else if t.hasSuffix("f"), let v = DecimalNumber.parse(t.dropLast()) { self = .frames(v) }
        else if let v = DecimalNumber.parse(t), v == 0 { self = .frames(0) }
        else { return nil }
    }

    /// Frames at `rate` Hz, with the fraction.
    public func frames(atRate rate: Int) -> Double {
        switch self {
        case .seconds(let s): s * Double(rate)
        case .frames(let n): n
        }
    }

    public var description: String {
        switch self {
        case .frames(let n): "\(formatNumber(n))f"
        case .seconds(let s): s < 1 ? "\(formatNumber(s * 1000))ms" : "\(formatNumber(s))s"
        }
    }

    /// Parses a comma-separated list; the reason when it fails.
    package static func list(_ text: String, maxSeconds: Double) -> Result<[DelayTime], ListError> {
        var list: [DelayTime] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = String(part)
            if let bare = DecimalNumber.parse(word), bare != 0 { return .failure(.bare(word)) }
            guard let d = DelayTime(word) else { return .failure(.malformed(word)) }
            let tooLong: Bool
            switch d {
            case .seconds(let s): tooLong = s < 0 || s > maxSeconds
            case .frames(let n): tooLong = n < 0 || n > maxSeconds * 768_000
            }
            if tooLong { return .failure(.range(word)) }
            list.append(d)
        }
        return list.count <= StreamFormat.channelRange.upperBound ? .success(list) : .failure(.count(list.count))
    }

    package enum ListError: Error {
        case bare(String), malformed(String), range(String), count(Int)
    }
}

/// Comma-separated delays, one per channel (`delay 0,2.5ms`): each in ms, s or frames
/// (`10ms`, `0.5s`, `480f`, `2.5f`); a bare number must be 0 (the unit is not guessed: sox
/// reads a bare number as seconds, aupipe's durations as milliseconds).
public struct DurationListKind: ParameterKind {
    /// The longest delay, in seconds.
    public let maxSeconds: Double

    public init(maxSeconds: Double) { self.maxSeconds = maxSeconds }

    public var typeDescription: String {
        "durations (ms, s or frames like 480f or 2.5f), comma-separated, each 0...\(formatNumber(maxSeconds * 1000)) ms"
    }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        switch DelayTime.list(text, maxSeconds: maxSeconds) {
        case .success: return .text(text)
        case .failure(.bare(let word)):
            throw parameter.malformed(text, unit: unit, "has \(word) without a unit; write \(word)ms, \(word)s or \(word)f (frames)")
        case .failure(.malformed(let word)):
            throw parameter.malformed(text, unit: unit, "has \(word.isEmpty ? "an empty value" : word), not a duration; write e.g. 10ms, 0,2.5ms or 2.5f")
        case .failure(.range(let word)):
            throw parameter.outOfRange(text, unit: unit, "has \(word), out of range 0...\(formatNumber(maxSeconds * 1000)) ms")
        case .failure(.count(let n)):
            throw parameter.malformed(text, unit: unit, "lists \(n) durations; at most \(StreamFormat.channelRange.upperBound)")
        }
    }
}

extension ParameterType where Value == [DelayTime] {
    /// Delays, one per channel, each up to `maxSeconds` (`DurationListKind`).
    package static func delayList(maxSeconds: Double) -> Self {
        Self(.custom(DurationListKind(maxSeconds: maxSeconds)),
             read: {
                 guard case .text(let text) = $0, case .success(let list) = DelayTime.list(text, maxSeconds: maxSeconds) else { return nil }
                 return list
             },
             text: { $0.map(\.description).joined(separator: ",") })
    }
}
