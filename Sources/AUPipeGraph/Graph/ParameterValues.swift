import AUPipeFormats

/// A parsed, range-checked parameter value, as `ParameterDescriptor.parse` gives it. Units read
/// their values through typed keys (`values[Keys.db]`, `Keys.db.value(from:)`), not by case.
public enum ParameterValue: Equatable, Sendable {
    case number(Double)
    case integer(Int)
    case duration(StreamDuration)
    case bool(Bool)
    case encoding(SampleEncoding)
    /// A raw stream's format (`s16le:16000:1`).
    case format(StreamFormat)
    case channelMap([Int])
    case timeRanges([TimeRange])
    case numbers([Double])
    /// A choice's word, or text.
    case text(String)
    /// The word `auto` where a parameter takes it (`delay=auto`).
    case auto
    case bus(BusSpec)
    /// The values of a repeatable parameter, in order.
    indirect case list([ParameterValue])
}

/// An interval of stream time, from `start` up to (not including) `end`, or to the end of the
/// stream when `end` is nil (`30-`).
public struct TimeRange: Equatable, Sendable {
    public var start: StreamDuration
    public var end: StreamDuration?

    public init(start: StreamDuration, end: StreamDuration?) {
        self.start = start
        self.end = end
    }
}

/// The values of one unit's parameters after parsing, with defaults filled in. Read them with
/// the unit's typed keys: `values[Keys.db]` (see `Parameter`, `OptionalParameter`).
public struct ParameterValues: Sendable {
    public let unit: String
    package var values: [String: ParameterValue]
    /// Names the user set explicitly (not from defaults).
    public let explicit: Set<String>

    /// The raw value of a parameter, if set: for parameters known only at run time.
    public func value(_ name: String) -> ParameterValue? { values[name] }
}
