import AUPipeFormats

/// The output stream: its container, its format, and the header bytes for it.
public struct OutputPlan: Equatable, Sendable {
    public var container: ContainerKind
    public var format: StreamFormat
    package var wavChannelMask: UInt32?
    package var cafChannelLayout: [UInt8]?

    /// Decides the output's container and encoding.
    ///
    /// The container is `container` or else the input's. The encoding is `explicitEncoding`
    /// (from `--out-format` or a `convert format=`), which the container must be able to hold;
    /// otherwise the chain's encoding, moved to the nearest one the container holds (s16be into
    /// WAV becomes s16le, u8 into AU becomes s8).
    public init(input: StreamHeader, chainOutput: StreamFormat, container: ContainerKind?, explicitEncoding: SampleEncoding?) throws {
        self = try OutputPlan(format: chainOutput, container: container ?? input.container, explicitEncoding: explicitEncoding)
        if format.channels == input.format.channels {
            wavChannelMask = input.wavChannelMask
            cafChannelLayout = input.cafChannelLayout
        }
    }

    /// The same rule for an output that has no input header to take a channel layout from (a
    /// side output such as `tee`'s): `container`, and `explicitEncoding` or else `format`'s
    /// encoding moved to the nearest one the container holds. `fixes` names the options a
    /// refusal suggests.
    public init(format: StreamFormat, container: ContainerKind, explicitEncoding: SampleEncoding?,
                fixes: EncodingFixes = .mainOutput) throws {
        var format = format
        if let e = explicitEncoding {
            try Self.check(e, fits: container, fixes: fixes)
            format.encoding = e
        } else {
            format.encoding = container.nearestEncoding(to: format.encoding)
        }
        self.container = container
        self.format = format
    }

    /// The options a refusal of an encoding names as its fixes: an encoding option (followed by
    /// the token) and the raw container.
    public struct EncodingFixes: Equatable, Sendable {
        public var encoding: String
        public var raw: String
        public init(encoding: String, raw: String) {
            self.encoding = encoding
            self.raw = raw
        }
        /// `--out-format s16le, or -t raw`.
        public static let mainOutput = EncodingFixes(encoding: "--out-format ", raw: "-t raw")
    }

    /// Refuses (64) an encoding the user asked for that `kind` cannot hold: WAV s16be, AU
    /// s16le, CAF u16. Known before any format is, so a side output checks it at once.
    public static func check(_ encoding: SampleEncoding, fits kind: ContainerKind, fixes: EncodingFixes = .mainOutput) throws {
        let e = encoding
        guard kind.nearestEncoding(to: e) == e else {
            throw AUPipeError.usage("the output is \(kind.rawValue.uppercased()) and cannot hold \(e.token): \(kind.refusal(of: e)); use \(fixes.encoding)\(kind.nearestEncoding(to: e).token), or \(fixes.raw)")
        }
    }

    /// The header to write before the audio: streaming sizes when `dataBytes` is nil.
    /// Its length is the same either way, so it can be rewritten in place at the end.
    public func header(dataBytes: UInt64?) -> [UInt8] {
        switch container {
        case .caf: return CAFFile.header(format, dataBytes: dataBytes, channelLayout: cafChannelLayout)
        case .wav: return WAVFile.header(format, dataBytes: dataBytes, channelMask: wavChannelMask)
        case .au: return AUFile.header(format, dataBytes: dataBytes)
        case .raw: return []
        }
    }

    /// Bytes that follow the audio in a finished file: RIFF's pad byte after odd-sized data.
    public func trailer(dataBytes: UInt64) -> [UInt8] {
        container == .wav && dataBytes & 1 == 1 ? [0] : []
    }
}
