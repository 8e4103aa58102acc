import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A unit parameter as `aupipe units`, `aupipe help UNIT` and the argument parser see it:
/// name, type with unit and range, default and help. Units declare these; nothing else
/// describes a parameter, so the help and the validation cannot disagree.
public struct ParameterDescriptor: Sendable {
    /// The common kinds of value; a unit's own kind is a `ParameterKind` given as `.custom`.
    public enum Kind: Sendable {
        /// A real number in `range`, printed with `unit` (`dB`, `Hz`); `-6dB` may carry the unit,
        /// and a number in Hz may also be written in kHz as rates are (`1k`, `1kHz`).
        case number(ClosedRange<Double>, unit: String)
        /// A whole number in `range`.
        case integer(ClosedRange<Int>)
        /// A whole number in `range` (given as `.integer`), or one of `words` (given as
        /// `.text`): `resample quality=`, whose values depend on the engine.
        case integerOrChoice(ClosedRange<Int>, [String])
        /// A sample rate in Hz (`16000`, `44.1k`), 1...768000.
        case rate
        /// A stream duration within `range` seconds; a bare number is in `bareUnit`. With a
        /// negative lower bound it may be negative (`-1.5s`, `-480f`: `mix`'s bus offset).
        case duration(ClosedRange<Double>, bareUnit: StreamDuration.BareUnit)
        /// `1`/`0`, `on`/`off`, `yes`/`no`, `true`/`false`.
        case boolean
        /// A sample format token (`s16le`, `f32le`, `mulaw`, or an alias).
        case encoding
        /// Comma-separated input channel indices from 0 (`1,0`, `0,0`).
        case channelMap
        /// Comma-separated stream-time intervals `START-END` (`1.5-3`, `480f-960f`, `500ms-2s`),
        /// or `START-` for one that runs to the end of the stream; bare numbers are seconds.
        case timeRanges
        /// Comma-separated real numbers, each in `range` (`440,880,1320`; in Hz also `1k,2.5k`).
        case numberList(ClosedRange<Double>, unit: String)
        /// One of a fixed set of words.
        case choice([String])
        /// Text made only of the characters in `allowed` (case-insensitive), 1...`maxLength` long.
        case text(allowed: String, maxLength: Int)
        /// A duration as `.duration`, or the word `auto` (given as `.auto`).
        case durationOrAuto(ClosedRange<Double>, bareUnit: StreamDuration.BareUnit)
        /// A gain in dB in `range` (`-6`, `-6dB`), or a linear amplitude factor with an `x`
        /// (`0.5x`, 20·log10(0.5) dB) whose gain is in `range`; given in dB as `.number`.
        case gainOrFactor(ClosedRange<Double>)
        /// A raw stream's format, `TOKEN:RATE:CHANNELS` (`s16le:16000:1`), given as `.format`.
        case streamFormat
        /// A path to write to (a file, a FIFO or `>(command)`), kept as written; given as `.text`.
        case path
        /// A kind of its own (`ParameterKind`) that parses and describes itself: `mix`'s bus
        /// (`BusParameterKind`), `aec`'s far end (`ReferenceParameterKind`), a plugin's control
        /// port (`PluginControlRange`).
        case custom(any ParameterKind)
        /// A real number in `range` (with an optional `unit` suffix: `-500ppm`), given as
        /// `.number`, or one of `words` (lower case), given as `.text` (`aec drift=auto|off|PPM`).
        case numberOrChoice(ClosedRange<Double>, unit: String, [String])
    }

    public let name: String
    public let kind: Kind
    /// The default as text, or nil when the parameter is unset unless given.
    public let defaultValue: String?
    /// A default that is not a value until the stream is known, in words for the help
    /// (`0.0008 × the sample rate`); nil for none. Only where `defaultValue` is nil.
    public let defaultNote: String?
    public let help: String
    /// Whether the parameter can be changed while audio runs (`--control`: `set UNIT.NAME VALUE`).
    public let isLive: Bool
    /// Whether it may be given more than once (`mix input=a.wav input=b.wav`); its values then
    /// come as a list, in order.
    public let isRepeatable: Bool

    public init(_ name: String, _ kind: Kind, default defaultValue: String?, help: String, live: Bool = false, repeatable: Bool = false,
                defaultNote: String? = nil) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.defaultNote = defaultValue == nil ? defaultNote : nil
        self.help = help
        isLive = live
        isRepeatable = repeatable
    }

    /// The same parameter under another name (`mix`'s `bus2.gain` for a bus's `gain`).
    public func renamed(_ name: String) -> ParameterDescriptor {
        ParameterDescriptor(name, kind, default: defaultValue, help: help, live: isLive, repeatable: isRepeatable, defaultNote: defaultNote)
    }

    /// `default VALUE`, `default NOTE`, or `no default`, as the help says it.
    public var defaultDescription: String {
        (defaultValue ?? defaultNote).map { "default \($0)" } ?? "no default"
    }

    /// The type and range as `aupipe help` prints it: `dB, -120...60`.
    public var typeDescription: String {
        switch kind {
        case .number(let r, let unit):
            return (unit.isEmpty ? "" : "\(unit), ") + "\(formatNumber(r.lowerBound))...\(formatNumber(r.upperBound))" + (unit == "Hz" ? " (1k allowed)" : "")
        case .integer(let r): return "integer, \(r.lowerBound)...\(r.upperBound)"
        case .integerOrChoice(let r, let words): return "integer, \(r.lowerBound)...\(r.upperBound), or one of \(words.joined(separator: ", "))"
        case .rate: return "Hz, 1...768000 (44.1k allowed)"
        case .duration(let r, let bare):
            return "duration (ms, s or frames like 480f; bare number in \(bare.rawValue)), \(formatNumber(r.lowerBound * 1000))...\(formatNumber(r.upperBound * 1000)) ms"
        case .boolean: return "boolean, 0/1, on/off"
        case .encoding: return "sample format, e.g. s16le, f32le, mulaw"
        case .channelMap: return "channel list, e.g. 1,0"
        case .timeRanges: return "intervals START-END in s (or ms, frames), comma-separated (1.5-3,5-6); START- runs to the end"
        case .numberList(let r, let unit):
            return "comma-separated \(unit), each \(formatNumber(r.lowerBound))...\(formatNumber(r.upperBound))" + (unit == "Hz" ? " (1k allowed)" : "")
        case .choice(let words): return "one of \(words.joined(separator: ", "))"
        case .text(let allowed, let max): return "up to \(max) of the characters \(allowed)"
        case .gainOrFactor(let r):
            let f = Self.factorRange(r)
            return "dB, \(formatNumber(r.lowerBound))...\(formatNumber(r.upperBound)), or a linear factor \(formatFactor(f.lowerBound))x...\(formatFactor(f.upperBound))x"
        case .streamFormat: return "TOKEN:RATE:CHANNELS, e.g. s16le:48000:2"
        case .path: return "PATH (a file, a FIFO or >(command))"
        case .custom(let kind): return kind.typeDescription
        case .numberOrChoice(let r, let unit, let words):
            return "one of \(words.joined(separator: ", ")), or \(unit.isEmpty ? "a number" : unit), \(formatNumber(r.lowerBound))...\(formatNumber(r.upperBound))"
        case .durationOrAuto(let r, let bare):
            return "auto, or a duration (ms, s or frames like 480f; bare number in \(bare.rawValue)), \(formatNumber(r.lowerBound * 1000))...\(formatNumber(r.upperBound * 1000)) ms"
        }
    }

    /// Parses and range-checks `text`; `unit` names the unit for messages, `index` counts the
    /// values of a repeatable parameter from 1.
    package func parse(_ text: String, unit: String, index: Int = 1) throws -> ParameterValue {
        let fail = { (what: String) in self.malformed(text, unit: unit, what) }
        let outOfRange = { (what: String) in self.outOfRange(text, unit: unit, what) }
        switch kind {
        case .number(let range, let u):
            guard let v = Self.number(text, unit: u) else { throw fail("\(Self.notANumber(text, unit: u) ?? "is not a number"); expected \(typeDescription)") }
            guard range.contains(v) else { throw outOfRange("is out of range \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))\(u.isEmpty ? "" : " " + u)") }
            return .number(v)
        case .integer(let range):
            guard let v = Int(text) else { throw fail("is not a whole number; expected \(typeDescription)") }
            guard range.contains(v) else { throw outOfRange("is out of range \(range.lowerBound)...\(range.upperBound)") }
            return .integer(v)
        case .integerOrChoice(let range, let words):
            if let word = words.first(where: { $0 == text.lowercased() }) { return .text(word) }
            guard let v = Int(text) else { throw fail("is neither a whole number nor one of \(words.joined(separator: ", ")); expected \(typeDescription)") }
            guard range.contains(v) else { throw outOfRange("is out of range \(range.lowerBound)...\(range.upperBound)") }
            return .integer(v)
        case .rate:
            do { return .integer(try FormatSpec.parseRate(text, option: "")) } catch {
                throw fail("is not a rate: write a whole number of Hz in 1...768000, e.g. 16000 or 44.1k")
            }
        case .duration(let range, let bare):
            guard let d = StreamDuration(text, bareUnit: bare) else {
                throw fail(range.lowerBound < 0 ? "is not a duration; write e.g. 250ms, -1.5s or 480f" : "is not a duration; write e.g. 20ms, 1.5s or 480f")
            }
            switch d {
            case .seconds(let s):
                guard range.contains(s) else {
                    throw outOfRange("is out of range \(formatNumber(range.lowerBound * 1000))...\(formatNumber(range.upperBound * 1000)) ms")
                }
            case .frames(let n):
                guard n >= 0 || range.lowerBound < 0 else { throw fail("must not be negative") }
            }
            return .duration(d)
        case .boolean:
            switch text.lowercased() {
            case "1", "on", "yes", "true": return .bool(true)
            case "0", "off", "no", "false": return .bool(false)
            default: throw fail("is not a boolean; use 1 or 0 (on/off)")
            }
        case .encoding:
            do { return .encoding(try SampleEncoding(token: text)) } catch let e as AUPipeError { throw e.prefixed(unit) }
        case .channelMap:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            var map: [Int] = []
            for p in parts {
                guard let i = Int(p), (0..<StreamFormat.channelRange.upperBound).contains(i) else {
                    throw fail("is not a list of channel numbers from 0, e.g. 1,0")
                }
                map.append(i)
            }
            guard StreamFormat.channelRange.contains(map.count) else { throw fail("names \(map.count) channels; 1...64 allowed") }
            return .channelMap(map)
        case .timeRanges:
            var ranges: [TimeRange] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let ends = part.split(separator: "-", omittingEmptySubsequences: false)
                // An empty END (`30-`) runs to the end of the stream.
                guard ends.count == 2, let a = StreamDuration(String(ends[0]), bareUnit: .seconds) else {
                    throw fail("is not a list of START-END intervals; write e.g. 1.5-3, 1.5-3,5-6.25 or 30- (to the end)")
                }
                let b = ends[1].isEmpty ? nil : StreamDuration(String(ends[1]), bareUnit: .seconds)
                guard ends[1].isEmpty || b != nil else {
                    throw fail("is not a list of START-END intervals; write e.g. 1.5-3, 1.5-3,5-6.25 or 30- (to the end)")
                }
                for d in [a] + (b.map { [$0] } ?? []) {
                    if case .seconds(let s) = d, s < 0 { throw fail("has a negative time") }
                    if case .seconds(let s) = d, s > 1e7 { throw fail("has a time beyond 10000000 s (115 days)") }
                    if case .frames(let n) = d, n < 0 { throw fail("has a negative time") }
                }
                if let sa = a.seconds, let sb = b?.seconds, sb <= sa { throw fail("has an interval that ends before it starts (\(part))") }
                ranges.append(TimeRange(start: a, end: b))
            }
            return .timeRanges(ranges)
        case .numberList(let range, let u):
            var list: [Double] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let v = Self.number(String(part), unit: u) else {
                    throw fail(Self.notANumber(String(part), unit: u).map { "has \(part), which \($0)" } ?? "is not a comma-separated list of numbers")
                }
                guard range.contains(v) else { throw outOfRange("has \(part), out of range \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound)) \(u)") }
                list.append(v)
            }
            guard list.count <= 64 else { throw fail("lists \(list.count) values; at most 64") }
            return .numbers(list)
        case .choice(let words):
            guard let word = words.first(where: { $0 == text.lowercased() }) else {
                throw fail("is not one of \(words.joined(separator: ", "))")
            }
            return .text(word)
        case .custom(let kind):
            return try kind.parse(text, of: self, unit: unit, index: index)
        case .gainOrFactor(let range):
            // dB (`-6`, `-6dB`), or a linear factor with an x (`0.5x`).
            guard text.lowercased().hasSuffix("x") else {
                return try ParameterDescriptor(name, .number(range, unit: "dB"), default: nil, help: help).parse(text, unit: unit)
            }
            let factors = Self.factorRange(range)
            guard let f = DecimalNumber.parse(text.dropLast()), factors.contains(f) else {
                throw outOfRange("is not a linear factor in \(formatFactor(factors.lowerBound))x...\(formatFactor(factors.upperBound))x")
            }
            return .number(20 * log10(f))
        case .streamFormat:
            return .format(try FormatSpec.parse(text, option: "\(unit): \(name)"))
        case .path:
            return .text(text)
        case .numberOrChoice(let range, let u, let words):
            if let word = words.first(where: { $0 == text.lowercased() }) { return .text(word) }
            guard let v = Self.number(text, unit: u) else {
                if let why = Self.notANumber(text, unit: u) { throw fail("\(why); expected \(typeDescription)") }
                throw fail("is neither a number nor one of \(words.joined(separator: ", ")); expected \(typeDescription)") }
            guard range.contains(v) else { throw outOfRange("is out of range \(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))\(u.isEmpty ? "" : " " + u)") }
            return .number(v)
        case .durationOrAuto(let range, let bare):
            if text.lowercased() == Automatic<StreamDuration>.word { return .auto }
            return try ParameterDescriptor(name, .duration(range, bareUnit: bare), default: nil, help: help).parse(text, unit: unit)
        case .text(let allowed, let maxLength):
            let upper = text.uppercased()
            guard upper.count <= maxLength, upper.allSatisfy({ allowed.contains($0) }) else {
                throw fail("must be up to \(maxLength) of the characters \(allowed)")
            }
            return .text(upper)
        }
    }
}

extension ParameterDescriptor.Kind {
    /// The range of every gain in dB: −120...60.
    public static let gainRange: ClosedRange<Double> = -120...60
    /// A gain in dB, −120...60 (a `dB` suffix allowed): `gain db=`, `mix`'s gains and its buses'.
    public static let gainDB = Self.number(gainRange, unit: "dB")
    /// A gain in dB, −120...60, or as a linear factor 0.000001x...1000x: `mix`'s `input=...,gain=`.
    public static let gainDBOrFactor = Self.gainOrFactor(gainRange)
    /// A stereo position, −1 (left) ... 1 (right): `mix`'s bus pan.
    public static let pan = Self.number(-1...1, unit: "")
}

extension ParameterDescriptor {
    /// The error for a second bare value `word` when the argument `first` (and its value) already
    /// set the primary parameter: most often a missing `:` before a unit (`gain -6 gain -3`) or
    /// a unit word written apart (`gain 6 dB`).
    package static func strayValue(_ word: String, after given: (argument: String, value: String), primary: ParameterDescriptor,
                           owner: String, list: String) -> AUPipeError {
        let first = given.argument, value = given.value
        let units = UnitRegistry.knownNames()
        if units.contains(owner), units.contains(word.lowercased()) {
            return .usage("\(owner): a second value '\(word)' after '\(first)': '\(word)' is a unit; is a ':' missing between two units? Write '\(owner) \(first) : \(word) ...'")
        }
        if case .number(_, let unit) = primary.kind, !unit.isEmpty, word.lowercased() == unit.lowercased() {
            return .usage("\(owner): '\(word)' is not a \(owner) parameter; write '\(owner) \(value)' or '\(owner) \(primary.name)=\(value)' (or \(value)\(unit), without a space)")
        }
        let colon = units.contains(owner) ? ", or is a ':' missing before a unit" : ""
        return .usage("\(owner): a second value '\(word)' after '\(first)'; \(owner) takes one bare value (\(primary.name)=): is '\(word)' a stray word\(colon)? \(owner)'s parameters are \(list)")
    }

    /// The linear amplitude factors of the gains in `dB`: 10^(dB/20).
    package static func factorRange(_ dB: ClosedRange<Double>) -> ClosedRange<Double> {
        pow(10, dB.lowerBound / 20)...pow(10, dB.upperBound / 20)
    }

    /// A real number written with or without its `unit` (`-6`, `-6dB`); one in Hz also in kHz
    /// (`1k`, `1kHz`), as rates are. Nil when it is not a finite decimal number (`DecimalNumber`).
    package static func number(_ text: String, unit: String) -> Double? {
        if unit == "Hz" { return FormatSpec.hertz(text) }
        return DecimalNumber.parse(withoutUnit(text, unit))
    }

    /// `text` without a trailing `unit` (any case).
    private static func withoutUnit(_ text: String, _ unit: String) -> String {
        var t = text
        if !unit.isEmpty, t.lowercased().hasSuffix(unit.lowercased()) { t.removeLast(unit.count) }
        return t
    }

    /// Why `number` refused `text` when Swift would read it (hexadecimal, nan, inf:
    /// `DecimalNumber.refusal`); nil when it is no number at all.
    package static func notANumber(_ text: String, unit: String) -> String? {
        var t = withoutUnit(text, unit == "Hz" ? "" : unit).lowercased()
        if unit == "Hz" {
            if t.hasSuffix("hz") { t.removeLast(2) }
            if t.hasSuffix("k") { t.removeLast() }
        }
        return DecimalNumber.refusal(t)
    }

    /// Parses `arguments` (`key=value`, or a bare value for `primary`) against `parameters`,
    /// filling in defaults. `owner` (a unit or signal name) starts every message. Unknown keys
    /// get a did-you-mean; repeated keys and empty values are refused.
    public static func parse(_ arguments: [String], parameters: [ParameterDescriptor], primary: String?, owner: String) throws -> ParameterValues {
        let list = parameters.isEmpty ? "(none)" : parameters.map(\.name).joined(separator: ", ")
        var values: [String: ParameterValue] = [:]
        var explicit: Set<String> = []
        /// The argument that set each parameter, as written, and its value (for messages).
        var written: [String: (argument: String, value: String)] = [:]
        for argument in arguments {
            let typed: String, text: String
            // A key is a name (letters, digits, -, and _ as plugin port symbols have); `bus.wav,offset=1s`
            // is a bare value with an = in it.
            if let eq = argument.firstIndex(of: "="),
               argument[..<eq].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), eq != argument.startIndex {
                typed = String(argument[..<eq]).lowercased()
                text = String(argument[argument.index(after: eq)...])
            } else {
                guard let primary else {
                    throw AUPipeError.usage("\(owner): '\(argument)' needs a key, as key=value; \(owner)'s parameters are \(list)")
                }
                if explicit.contains(primary), let p = parameters.first(where: { $0.name == primary }), !p.isRepeatable {
                    throw strayValue(argument, after: written[primary] ?? ("", ""), primary: p, owner: owner, list: list)
                }
                typed = primary
                text = argument
            }
            // Plugin port symbols may hold capitals (LV2): names match case-insensitively.
            guard let descriptor = parameters.first(where: { $0.name == typed }) ?? parameters.first(where: { $0.name.lowercased() == typed }) else {
                let suggested = suggestion(for: typed, among: parameters.map(\.name))
                let hint = suggested.map { "; did you mean '\($0)'?" } ?? "; \(owner)'s parameters are \(list)"
                throw AUPipeError(.usage, "\(owner): unknown parameter '\(typed)'\(hint)",
                                  cause: .parameter(owner: owner, name: typed, .unknown(suggestion: suggested)))
            }
            let key = descriptor.name
            guard !explicit.contains(key) || descriptor.isRepeatable else {
                throw AUPipeError(.usage, "\(owner): \(key) is given twice; give it once", cause: .parameter(owner: owner, name: key, .repeated))
            }
            guard !text.isEmpty else {
                throw AUPipeError(.usage, "\(owner): \(key)= has no value; expected \(descriptor.typeDescription)",
                                  cause: .parameter(owner: owner, name: key, .missing))
            }
            if descriptor.isRepeatable {
                var list: [ParameterValue] = []
                if case .list(let earlier) = values[key] { list = earlier }
                list.append(try descriptor.parse(text, unit: owner, index: list.count + 1))
                values[key] = .list(list)
            } else {
                values[key] = try descriptor.parse(text, unit: owner)
            }
            explicit.insert(key)
            written[key] = (argument, text)
        }
        for p in parameters where values[p.name] == nil {
            if let d = p.defaultValue { values[p.name] = try p.parse(d, unit: owner) }
        }
        return ParameterValues(unit: owner, values: values, explicit: explicit)
    }
}

/// A positive number printed without an exponent (`0.000001`, not `1e-06`), for linear factors.
package func formatFactor(_ v: Double) -> String {
    let text = formatNumber(v)
    let parts = text.split(separator: "e")
    guard parts.count == 2, let exponent = Int(parts[1]), exponent < 0 else { return text }
    let mantissa = parts[0], digits = mantissa.filter(\.isNumber)
    let point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
    guard point <= 0 else { return text }
    return "0." + String(repeating: "0", count: -point) + digits
}
