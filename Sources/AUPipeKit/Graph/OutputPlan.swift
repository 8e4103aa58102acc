/// The output stream: its container, its format, and the header bytes for it.
public struct OutputPlan: Equatable, Sendable {
    public var container: ContainerKind
    public var format: StreamFormat
    var wavChannelMask: UInt32?
    var cafChannelLayout: [UInt8]?

    /// Decides the output's container and encoding.
    ///
    /// The container is `container` or else the input's. The encoding is `explicitEncoding`
    /// (from `--out-format` or a `convert format=`), which the container must be able to hold;
    /// otherwise the chain's encoding, moved to the nearest one the container holds (s16be into
    /// WAV becomes s16le, u8 into AU becomes s8).
    public init(input: StreamHeader, chainOutput: StreamFormat, container: ContainerKind?, explicitEncoding: SampleEncoding?) throws {
        let kind = container ?? input.container
        var format = chainOutput
        if let e = explicitEncoding {
            guard kind.nearestEncoding(to: e) == e else {
                throw AUPipeError.usage("the output is \(kind.rawValue.uppercased()) and cannot hold \(e.token): \(kind.refusal(of: e)); use --out-format \(kind.nearestEncoding(to: e).token), or -t raw")
            }
            format.encoding = e
        } else {
            format.encoding = kind.nearestEncoding(to: chainOutput.encoding)
        }
        self.container = kind
        self.format = format
        if format.channels == input.format.channels {
            wavChannelMask = input.wavChannelMask
            cafChannelLayout = input.cafChannelLayout
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
