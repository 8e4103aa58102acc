/// A stream's header and the audio that follows it, as one reader takes them: the header read
/// (`open`, through `HeaderReader`), how many bytes it still declares (never read past them),
/// and whole frames decoded to float. The main input (`Pipeline`, `StreamLoop`), side inputs
/// (`SideInput`: `mix` buses, `aec`'s reference) and `compare` (`FrameReader`) all read their
/// streams through it.
///
/// The caller reads the bytes (its own way: a block loop, a non-blocking FIFO, lockstep reads),
/// asks how many the header allows (`allowed`), counts what it took (`take`), and decodes
/// whole frames (`decode`); what is left of an incomplete frame waits for the next read. A value
/// type of a few words: nothing is allocated.
public struct StreamDecoder: Sendable {
    public let header: StreamHeader
    /// Bytes per frame of the stream's encoding and channels.
    public let frameBytes: Int
    private let codec: SampleCodec
    /// Audio bytes the header declares that have not been taken yet (nil: to the end of the
    /// stream).
    public private(set) var remaining: UInt64?

    /// The audio after `header`.
    public init(header: StreamHeader) {
        self.header = header
        frameBytes = header.format.bytesPerFrame
        codec = SampleCodec(header.format.encoding)
        remaining = header.dataBytes
    }

    /// Reads the header at the start of `source` (`HeaderReader.read`: CAF, WAV, AU, or raw
    /// audio in `rawFormat`; `formatOption` names the option that gives it, in messages) and
    /// returns the reader of the audio after it, with the source to read that audio from.
    public static func open(_ source: any ByteSource, rawFormat: StreamFormat?, rawFormatIsFallback: Bool = false,
                            formatOption: String = "--in-format") throws -> (StreamDecoder, any ByteSource) {
        let (header, audio) = try HeaderReader.read(source, rawFormat: rawFormat, rawFormatIsFallback: rawFormatIsFallback,
                                                    formatOption: formatOption)
        return (StreamDecoder(header: header), audio)
    }

    public var format: StreamFormat { header.format }

    /// True once every byte the header declares has been taken (never, for a stream read to
    /// its end).
    public var isComplete: Bool { remaining == 0 }

    /// Of `count` bytes, how many the header still declares: `count`, or fewer near the end.
    @inline(__always)
    public func allowed(_ count: Int) -> Int {
        guard let remaining else { return count }
        return Int(min(UInt64(max(0, count)), remaining))
    }

    /// Counts `count` bytes as taken from the stream (read, or decoded).
    @inline(__always)
    public mutating func take(_ count: Int) {
        if remaining != nil { remaining! -= UInt64(count) }
    }

    /// Decodes `frames` whole frames at `bytes` into `output` (frames × channels samples).
    @inline(__always)
    public func decode(_ bytes: UnsafeRawPointer, frames: Int, into output: UnsafeMutablePointer<Float>) {
        codec.decode(bytes, count: frames * header.format.channels, into: output)
    }

    /// The same into doubles, where every bit of 32-bit integers and f64 must survive (`compare`).
    @inline(__always)
    public func decode(_ bytes: UnsafeRawPointer, frames: Int, into output: UnsafeMutablePointer<Double>) {
        codec.decode(bytes, count: frames * header.format.channels, into: output)
    }
}
