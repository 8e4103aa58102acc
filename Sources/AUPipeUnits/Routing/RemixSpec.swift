import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// One output channel of `remix` as sox's grammar writes it:
///
///     out-spec = in-spec{,in-spec} | 0
///     in-spec  = [in-chan][-[in-chan2]][vol-spec]
///     vol-spec = p|i|v[volume]
///
/// Input channels count from 1; a range's missing ends are 1 and the last channel (`-` is every
/// channel). `v` is a linear factor (default 1), `p` a gain in dB, `i` a gain in dB with the
/// sign inverted. `0` alone is a silent output channel.
public struct RemixOutSpec: Equatable, Sendable {
    /// How a volume is given.
    public enum Volume: Equatable, Sendable {
        /// `vX`: a linear factor X.
        case linear(Double)
        /// `pX`: X dB.
        case power(Double)
        /// `iX`: X dB, polarity inverted.
        case inverted(Double)

        /// The linear factor.
        public var factor: Double {
            switch self {
            case .linear(let v): v
            case .power(let dB): pow(10, dB / 20)
            case .inverted(let dB): -pow(10, dB / 20)
            }
        }
    }

    /// One comma-separated part: a channel or a range of channels, from 1; nil ends are open.
    public struct Part: Equatable, Sendable {
        public var first: Int?
        public var last: Int?
        public var isRange: Bool
        public var volume: Volume?

        /// The input channels (from 0) this part names in a stream of `channels` channels.
        package func channels(of channels: Int) -> ClosedRange<Int>? {
            let a = (first ?? 1) - 1
            let b = isRange ? (last ?? channels) - 1 : a
            return a <= b ? a...b : nil
        }
    }

    /// The parts; empty for a silent channel (`0`).
    public var parts: [Part]
    /// The text as written, for messages.
    public var text: String

    /// Parses one out-spec; nil when it does not follow the grammar.
    public init?(_ text: String) {
        self.text = text
        if text == "0" { parts = []; return }
        var parts: [Part] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let part = Self.part(Substring(piece)) else { return nil }
            parts.append(part)
        }
        self.parts = parts
    }

    /// Parses `[in-chan][-[in-chan2]][vol-spec]`.
    private static func part(_ text: Substring) -> Part? {
        var rest = text
        func number() -> Int? {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            return digits.isEmpty ? nil : Int(digits)
        }
        let first = number()
        var isRange = false, last: Int?
        if rest.first == "-" {
            isRange = true
            rest = rest.dropFirst()
            last = number()
        }
        guard first != nil || isRange else { return nil }
        if let f = first, f < 1 { return nil }
        if let l = last, l < 1 { return nil }
        var volume: Volume?
        if let letter = rest.first {
            let value = rest.dropFirst()
            let number: Double
            if value.isEmpty { number = letter == "v" ? 1 : 0 } else {
                guard let v = DecimalNumber.parse(value) else { return nil }
                number = v
            }
            switch letter {
            case "v": volume = .linear(number)
            case "p": volume = .power(number)
            case "i": volume = .inverted(number)
            default: return nil
            }
        }
        return Part(first: first, last: last, isRange: isRange, volume: volume)
    }
}

/// sox's `-a`, `-m`, `-p`: how channels without a volume are scaled when an output mixes n of them.
public enum RemixScaling: String, Sendable, CaseIterable {
    /// 1/n, except in an out-spec that gives any volume (sox's default).
    case auto
    /// `-a`: 1/n for the channels without a volume, even beside ones with a volume.
    case always
    /// `-m`: no automatic scaling.
    case manual
    /// `-p`: 1/√n where the default would give 1/n.
    case power

    /// The scaling of sox's flag `-a`, `-m` or `-p`, or nil.
    package init?(flag: String) {
        switch flag {
        case "-a": self = .always
        case "-m": self = .manual
        case "-p": self = .power
        default: return nil
        }
    }
}

extension RemixOutSpec {
    /// The row of the mixing matrix for a stream of `channels` input channels: the factor for
    /// each input channel. Throws a usage error when a channel is not in the stream.
    package func row(inputChannels channels: Int, scaling: RemixScaling) throws -> [Double] {
        var row = [Double](repeating: 0, count: channels)
        var named: [(channel: Int, volume: Volume?)] = []
        for part in parts {
            guard let range = part.channels(of: channels) else {
                throw AUPipeError.usage("remix: '\(text)' has a range that runs backwards; write e.g. 1-3")
            }
            guard range.upperBound < channels else {
                throw AUPipeError.usage("remix: '\(text)' names input channel \(range.upperBound + 1) but the stream has \(counted(channels, "channel")) (channels count from 1)")
            }
            for c in range { named.append((c, part.volume)) }
        }
        let n = Double(named.count)
        let anyVolume = named.contains { $0.volume != nil }
        let automatic: Double = switch scaling {
        case .manual: 1
        case .power: anyVolume ? 1 : 1 / n.squareRoot()
        case .auto: anyVolume ? 1 : 1 / n
        case .always: 1 / n
        }
        for (c, volume) in named { row[c] += volume?.factor ?? automatic }
        return row
    }
}

/// The `ParameterKind` of `remix`'s out-specs (and of the scaling flags `-a`, `-m`, `-p`, given
/// first, as sox takes them): checks the grammar when the chain is parsed.
public struct RemixOutSpecKind: ParameterKind {
    public init() {}

    public var typeDescription: String { "sox out-spec: IN[-IN2][v|p|iVOL],... or 0; one per output channel" }

    public func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
        if ["-a", "-m", "-p"].contains(text) { return .text(text) }
        guard RemixOutSpec(text) != nil else {
            throw parameter.malformed(text, unit: unit, "is not a sox out-spec; write input channels from 1 joined by commas, each with an optional range and volume (1,2  2  1v0.5,2v0.5  1-3  -  2i  0)")
        }
        return .text(text)
    }
}

extension ParameterType where Value == String {
    /// A `remix` out-spec (or scaling flag), kept as written.
    package static var remixOutSpec: Self {
        Self(.custom(RemixOutSpecKind()), read: { if case .text(let v) = $0 { v } else { nil } }, text: { $0 })
    }
}
