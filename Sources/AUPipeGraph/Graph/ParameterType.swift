import AUPipeFormats

/// The Swift type a parameter reads back as, tied to the runtime kind that parses it.
///
/// A `ParameterType<Value>` pairs a `ParameterDescriptor.Kind` (which parses, range-checks and
/// describes the text) with the two conversions the typed keys need: from the parsed
/// `ParameterValue` to `Value`, and from a `Value` to the text a default is written as in
/// `aupipe units` and `aupipe help` (and parsed back, as any value, when the unit is built).
/// Declare a parameter with one of the factories below (`.gainDB`, `.duration(0...1, bareUnit:
/// .milliseconds)`, `.choice(Policy.self)`); see `Parameter`.
public struct ParameterType<Value: Equatable & Sendable>: Sendable {
    public let kind: ParameterDescriptor.Kind
    /// The typed value of a parsed value of this kind; nil for a value of another kind.
    package let read: @Sendable (ParameterValue) -> Value?
    /// The text that parses back to `value` (a default as help prints it).
    package let text: @Sendable (Value) -> String

    public init(_ kind: ParameterDescriptor.Kind, read: @escaping @Sendable (ParameterValue) -> Value?,
                text: @escaping @Sendable (Value) -> String) {
        self.kind = kind
        self.read = read
        self.text = text
    }
}

extension ParameterType where Value == Double {
    /// A real number in `range`, printed with `unit` (`dB`, `Hz`, `dBFS`; empty for none).
    public static func number(_ range: ClosedRange<Double>, unit: String) -> Self { real(.number(range, unit: unit)) }

    /// A gain in dB, −120...60 (`ParameterDescriptor.Kind.gainDB`).
    public static var gainDB: Self { real(.gainDB) }

    /// A gain in dB, −120...60, or the same range as a linear factor (`0.5x`); read in dB.
    public static var gainDBOrFactor: Self { real(.gainDBOrFactor) }

    /// A stereo position, −1 (left) ... 1 (right) (`ParameterDescriptor.Kind.pan`).
    public static var pan: Self { real(.pan) }

    /// A kind whose values are `.number`s.
    private static func real(_ kind: ParameterDescriptor.Kind) -> Self {
        Self(kind, read: { if case .number(let v) = $0 { v } else { nil } }, text: formatNumber)
    }
}

extension ParameterType where Value == Int {
    /// A whole number in `range`.
    public static func integer(_ range: ClosedRange<Int>) -> Self {
        Self(.integer(range), read: { if case .integer(let v) = $0 { v } else { nil } }, text: { String($0) })
    }

    /// A sample rate in Hz, 1...768000 (`16000`, `44.1k`).
    public static var rate: Self {
        Self(.rate, read: { if case .integer(let v) = $0 { v } else { nil } }, text: { String($0) })
    }
}

extension ParameterType where Value == StreamDuration {
    /// A duration within `range` seconds (a negative lower bound allows negative durations);
    /// a bare number is in `bareUnit`.
    public static func duration(_ range: ClosedRange<Double>, bareUnit: StreamDuration.BareUnit) -> Self {
        Self(.duration(range, bareUnit: bareUnit), read: { if case .duration(let v) = $0 { v } else { nil } }, text: \.description)
    }
}

extension ParameterType where Value == Automatic<StreamDuration> {
    /// `auto`, or a duration within `range` seconds; a bare number is in `bareUnit`.
    public static func durationOrAuto(_ range: ClosedRange<Double>, bareUnit: StreamDuration.BareUnit) -> Self {
        Self(.durationOrAuto(range, bareUnit: bareUnit),
             read: {
                 switch $0 {
                 case .auto: .auto
                 case .duration(let d): .fixed(d)
                 default: nil
                 }
             },
             text: { $0.fixedValue?.description ?? Automatic<StreamDuration>.word })
    }
}

extension ParameterType where Value == Bool {
    /// `1`/`0`, `on`/`off`, `yes`/`no`, `true`/`false`; a default is written `1` or `0`.
    public static var boolean: Self {
        Self(.boolean, read: { if case .bool(let v) = $0 { v } else { nil } }, text: { $0 ? "1" : "0" })
    }
}

extension ParameterType where Value: CaseIterable & RawRepresentable<String> {
    /// One of the enum's cases, written as its raw value (lower case); help lists `allCases` in
    /// declaration order.
    public static func choice(_ type: Value.Type = Value.self) -> Self {
        Self(.choice(Value.allCases.map(\.rawValue)),
             read: { if case .text(let word) = $0 { Value(rawValue: word) } else { nil } },
             text: \.rawValue)
    }
}

extension ParameterType where Value == String {
    /// Text of up to `maxLength` of the characters in `allowed` (case-insensitive; read in upper case).
    public static func text(allowed: String, maxLength: Int) -> Self {
        Self(.text(allowed: allowed, maxLength: maxLength), read: { if case .text(let v) = $0 { v } else { nil } }, text: { $0 })
    }
}

extension ParameterType where Value == String {
    /// A path to write to, kept as written (a file, a FIFO or `>(command)`'s `/dev/fd/N`).
    public static var path: Self {
        Self(.path, read: { if case .text(let v) = $0 { v } else { nil } }, text: { $0 })
    }
}

extension ParameterType where Value == SampleEncoding {
    /// A sample format token (`s16le`, `f32le`, `mulaw`, or an alias).
    public static var encoding: Self {
        Self(.encoding, read: { if case .encoding(let v) = $0 { v } else { nil } }, text: \.token)
    }
}

extension ParameterType where Value == StreamFormat {
    /// A raw stream's format, `TOKEN:RATE:CHANNELS` (`s16le:16000:1`).
    public static var streamFormat: Self {
        Self(.streamFormat, read: { if case .format(let v) = $0 { v } else { nil } }, text: \.spec)
    }
}

extension ParameterType where Value == [Int] {
    /// Input channel indices from 0 (`1,0`).
    public static var channelMap: Self {
        Self(.channelMap, read: { if case .channelMap(let v) = $0 { v } else { nil } },
             text: { $0.map(String.init).joined(separator: ",") })
    }
}

extension ParameterType where Value == [Double] {
    /// Real numbers, each in `range`, printed with `unit` (`440,880`).
    public static func numberList(_ range: ClosedRange<Double>, unit: String) -> Self {
        Self(.numberList(range, unit: unit), read: { if case .numbers(let v) = $0 { v } else { nil } },
             text: { $0.map(formatNumber).joined(separator: ",") })
    }
}

extension ParameterType where Value == [TimeRange] {
    /// Stream-time intervals `START-END` or `START-` (`1.5-3,30-`).
    public static var timeRanges: Self {
        Self(.timeRanges, read: { if case .timeRanges(let v) = $0 { v } else { nil } },
             text: { $0.map { "\($0.start)-\($0.end.map(\.description) ?? "")" }.joined(separator: ",") })
    }
}

/// A value the user gives, or the word `auto`: the unit finds it (`aec delay=auto`).
public enum Automatic<Value: Equatable & Sendable>: Equatable, Sendable {
    case auto
    case fixed(Value)

    /// The word that asks for `auto`.
    public static var word: String { "auto" }

    /// The value given, or nil for `auto`.
    public var fixedValue: Value? {
        if case .fixed(let v) = self { return v }
        return nil
    }
}

/// A whole number or a word: a parameter whose values are numbers for one choice and words for
/// another (`resample quality=`: 0...10 for speex, `high` for soxr).
public enum IntegerOrWord: Hashable, Sendable, CustomStringConvertible {
    case integer(Int)
    case word(String)

    public var description: String {
        switch self {
        case .integer(let v): String(v)
        case .word(let w): w
        }
    }
}

extension ParameterType where Value == IntegerOrWord {
    /// A whole number in `range`, or one of `words` (lower case).
    public static func integerOrChoice(_ range: ClosedRange<Int>, _ words: [String]) -> Self {
        Self(.integerOrChoice(range, words),
             read: {
                 switch $0 {
                 case .integer(let v): .integer(v)
                 case .text(let w): .word(w)
                 default: nil
                 }
             },
             text: \.description)
    }
}
