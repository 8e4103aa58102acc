import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// Reads whole frames of a stream (after its header) and decodes them to Double, filling each
/// request completely unless the stream ends. Used where two streams are read in lockstep.
package final class FrameReader {
    package var header: StreamHeader { decoder.header }
    private let source: any ByteSource
    /// The bytes the header declares, and their decoding.
    private var decoder: StreamDecoder
    private let frameBytes: Int
    private let bytes: UnsafeMutableRawBufferPointer
    /// Most frames one `read` returns.
    package let capacity: Int
    /// Bytes of an incomplete last frame, known once `read` has returned 0.
    package private(set) var trailingBytes = 0
    /// Frames read so far.
    package private(set) var frames: Int64 = 0

    /// Reads the audio `decoder` declares from `source` (what `StreamDecoder.open` returned).
    package init(_ decoder: StreamDecoder, source: any ByteSource, capacity: Int) {
        self.source = source
        self.decoder = decoder
        frameBytes = decoder.frameBytes
        self.capacity = capacity
        bytes = .allocate(byteCount: capacity * frameBytes, alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// Bytes the header declared that never came, once the stream has ended.
    package var missingBytes: UInt64 { decoder.remaining ?? 0 }

    /// Fills `output` with up to `capacity` frames; fewer only at the end of the stream.
    package func read(into output: UnsafeMutablePointer<Double>) throws -> Int {
        var filled = 0
        let want = capacity * frameBytes
        while filled < want, !decoder.isComplete {
            let ask = decoder.allowed(want - filled)
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[filled..<(filled + ask)]))
            if n == 0 { break }
            filled += n
            decoder.take(n)
        }
        let whole = filled / frameBytes
        if filled < want { trailingBytes = filled - whole * frameBytes }
        decoder.decode(bytes.baseAddress!, frames: whole, into: output)
        frames += Int64(whole)
        return whole
    }
}
