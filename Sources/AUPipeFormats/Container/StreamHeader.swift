/// What an input's header said: container, format, how much audio follows, and the channel
/// layout details worth carrying to the output.
public struct StreamHeader: Equatable, Sendable {
    public var container: ContainerKind
    public var format: StreamFormat
    /// Audio bytes that follow the header, or nil for "to the end of the stream".
    public var dataBytes: UInt64?
    /// Bytes of header read before the audio.
    public var headerBytes: Int64
    /// WAV_FORMAT_EXTENSIBLE's dwChannelMask, when the input had one.
    public var wavChannelMask: UInt32?
    /// The body of a CAF `chan` chunk, when the input had one.
    public var cafChannelLayout: [UInt8]?

    public init(container: ContainerKind, format: StreamFormat, dataBytes: UInt64?, headerBytes: Int64,
                wavChannelMask: UInt32? = nil, cafChannelLayout: [UInt8]? = nil) {
        self.container = container
        self.format = format
        self.dataBytes = dataBytes
        self.headerBytes = headerBytes
        self.wavChannelMask = wavChannelMask
        self.cafChannelLayout = cafChannelLayout
    }

    /// 32-bit sizes that writers put on pipes when the length is unknown; all mean "to the end".
    package static let streamingSizes32: Set<UInt32> = [0, 0x7FFF_F000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]
}

/// Detection of the input's container from its first bytes.
public enum HeaderReader {
    /// Reads the header from `source`. Without `rawFormat`, the input must start with `caff`,
    /// `RIFF`/`RF64`, or `.snd`. With it, headerless input is read as that format; a header is
    /// still recognised, and must agree with `rawFormat`. FLAC, Ogg, MP3, AAC and Wave64 are
    /// refused with a hint to decode them (see `ForeignStream`), with `rawFormat` too unless
    /// all that marks them is an MPEG frame sync.
    /// Returns the header and the source to read the audio from.
    /// With `rawFormatIsFallback`, a recognised header wins over `rawFormat` instead of having
    /// to agree with it (`aupipe compare`, where one spec serves two inputs).
    /// `formatOption` names the option that gives a raw format, in messages (`format=` for a mix bus).
    public static func read(_ source: any ByteSource, rawFormat: StreamFormat?, rawFormatIsFallback: Bool = false,
                            formatOption: String = "--in-format") throws -> (StreamHeader, any ByteSource) {
        var magic: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16)
        /// Reads until `magic` holds `count` bytes or the stream ends.
        func fill(to count: Int) throws {
            while magic.count < count {
                let n = try scratch.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<(count - magic.count)])) }
                if n == 0 { break }
                magic += scratch[0..<n]
            }
        }
        try fill(to: 4)
        let tag = String(decoding: magic, as: UTF8.self)
        // Wave64 is told from raw PCM by its whole 16-byte GUID.
        if tag == "riff" { try fill(to: ForeignStream.wave64Magic.count) }
        if let foreign = ForeignStream.identify(magic), foreign.isCertain || rawFormat == nil {
            throw foreign.refusal(source: source.name, formatOption: formatOption)
        }
        let header: StreamHeader
        var putBack: [UInt8] = []
        switch tag {
        case "caff": header = try CAFFile.readHeader(source)
        case "RIFF", "RF64": (header, putBack) = try WAVFile.readHeader(source, riffTag: tag)
        case ".snd": header = try AUFile.readHeader(source)
        default:
            guard let rawFormat else {
                if magic.isEmpty {
                    throw AUPipeError(.dataError, "\(source.name): the input is empty; expected a CAF, WAV or AU stream, or raw PCM with \(formatOption)",
                                      cause: .emptyInput)
                }
                let gap = formatOption.hasSuffix("=") ? "" : " "
                let shown = magic.prefix(4).map { (32...126).contains($0) ? String(UnicodeScalar($0)) : "." }.joined()
                throw AUPipeError.data("\(source.name): no CAF, WAV or AU header (starts with '\(shown)'); for raw PCM give \(formatOption)\(gap)TOKEN:RATE:CHANNELS, e.g. \(formatOption)\(gap)s16le:48000:1")
            }
            let header = StreamHeader(container: .raw, format: rawFormat, dataBytes: nil, headerBytes: 0)
            return (header, PrefixedSource(prefix: magic, base: source))
        }
        if let rawFormat, rawFormat != header.format, !rawFormatIsFallback {
            throw AUPipeError.usage("\(source.name): the \(header.container.rawValue.uppercased()) header says \(header.format.spec) but \(formatOption) says \(rawFormat.spec); drop \(formatOption) or fix it")
        }
        return (header, putBack.isEmpty ? source : PrefixedSource(prefix: putBack, base: source))
    }
}
