/// Reads whole frames of a stream (after its header) and decodes them to Double, filling each
/// request completely unless the stream ends. Used where two streams are read in lockstep.
final class FrameReader {
    let header: StreamHeader
    private let source: any ByteSource
    private let codec: SampleCodec
    private let frameBytes: Int
    private var remaining: UInt64?
    private let bytes: UnsafeMutableRawBufferPointer
    /// Most frames one `read` returns.
    let capacity: Int
    /// Bytes of an incomplete last frame, known once `read` has returned 0.
    private(set) var trailingBytes = 0
    /// Frames read so far.
    private(set) var frames: Int64 = 0

    init(header: StreamHeader, source: any ByteSource, capacity: Int) {
        self.header = header
        self.source = source
        codec = SampleCodec(header.format.encoding)
        frameBytes = header.format.bytesPerFrame
        remaining = header.dataBytes
        self.capacity = capacity
        bytes = .allocate(byteCount: capacity * frameBytes, alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// Bytes the header declared that never came, once the stream has ended.
    var missingBytes: UInt64 { remaining ?? 0 }

    /// Fills `output` with up to `capacity` frames; fewer only at the end of the stream.
    func read(into output: UnsafeMutablePointer<Double>) throws -> Int {
        var filled = 0
        let want = capacity * frameBytes
        while filled < want, remaining != 0 {
            var ask = want - filled
            if let r = remaining { ask = Int(min(UInt64(ask), r)) }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<(filled + ask)]))
            if n == 0 { break }
            filled += n
            if remaining != nil { remaining! -= UInt64(n) }
        }
        let whole = filled / frameBytes
        if filled < want { trailingBytes = filled - whole * frameBytes }
        codec.decode(bytes.baseAddress!, count: whole * header.format.channels, into: output)
        frames += Int64(whole)
        return whole
    }
}
