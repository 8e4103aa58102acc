import AUPipeFormats

/// A length of stream time as the user wrote it: seconds, or an exact frame count.
///
/// Text forms: `20ms`, `1.5s`, `480f` (frames). A bare number takes the unit the parameter
/// declares (milliseconds for ramps and blocks, seconds for positions on the timeline).
public enum StreamDuration: Equatable, Sendable, CustomStringConvertible {
    case seconds(Double)
    case frames(Int)

    public enum BareUnit: String, Sendable {
        case milliseconds = "ms"
        case seconds = "s"
    }

    /// Parses `text`; nil when it is not a duration.
    public init?(_ text: String, bareUnit: BareUnit) {
        let t = text.lowercased()
        if t.hasSuffix("ms"), let v = DecimalNumber.parse(t.dropLast(2)) { self = .seconds(v / 1000) }
        else if t.hasSuffix("s"), let v = DecimalNumber.parse(t.dropLast()) { self = .seconds(v) }
        else if t.hasSuffix("f"), let n = Int(t.dropLast()) { self = .frames(n) }
        else if let v = DecimalNumber.parse(t) { self = .seconds(bareUnit == .milliseconds ? v / 1000 : v) }
        else { return nil }
    }

    /// A duration in milliseconds (`.milliseconds(20)` is `20ms`).
    public static func milliseconds(_ ms: Double) -> StreamDuration { .seconds(ms / 1000) }

    /// Whole frames at `rate` Hz, rounded to nearest, at most 2^53 (beyond any stream).
    public func frames(atRate rate: Int) -> Int {
        switch self {
        case .frames(let n): return min(n, 1 << 53)
        case .seconds(let s): return Int(min((s * Double(rate)).rounded(), 0x1p53))
        }
    }

    /// The duration `factor` times as long (a frame count rounded, at least 1 frame).
    package func scaled(by factor: Double) -> StreamDuration {
        switch self {
        case .frames(let n): return .frames(max(1, Int((Double(n) * factor).rounded())))
        case .seconds(let s): return .seconds(s * factor)
        }
    }

    /// Seconds, when known without a rate.
    public var seconds: Double? {
        if case .seconds(let s) = self { return s }
        return nil
    }

    public var description: String {
        switch self {
        case .frames(let n): return "\(n)f"
        case .seconds(let s):
            return s < 1 ? "\(formatNumber(s * 1000))ms" : "\(formatNumber(s))s"
        }
    }
}
