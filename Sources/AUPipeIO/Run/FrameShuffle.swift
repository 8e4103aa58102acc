import AUPipeFormats

/// Moves samples between frames as bytes: output channel o of each frame is a copy of the bytes
/// of input channel `sources[o]`, or of an encoded zero for a silent channel. The stream loop's
/// path for a chain that only selects, reorders, duplicates or silences channels
/// (`Chain.channelSelection`), in place of decoding to float and encoding back.
///
/// Only for encodings whose float round trip is exact, so that the bytes are the float path's:
/// linear integers of 24 bits or fewer (Float32 holds them exactly) and f32. Not s32 or f64
/// (Float32 keeps 24 of their bits), nor µ-law and A-law (their negative zero comes back as
/// positive zero).
package struct FrameShuffle {
    package let inChannels: Int
    package let outChannels: Int
    /// Bytes per sample: 1, 2, 3 or 4.
    package let width: Int
    /// Per output channel, the input channel it copies, or -1 for silence.
    package let sources: [Int]
    /// The encoding's zero, little-endian in the low `width` bytes (u8 0x80, u16 0x8000).
    private let zero: UInt32

    /// nil when `encoding` is not one whose bytes the float path keeps (see the type's comment).
    package init?(selection: [Int?], inChannels: Int, encoding: SampleEncoding) {
        switch encoding.kind {
        case .signedInteger, .unsignedInteger: guard encoding.bits <= 24 else { return nil }
        case .float: guard encoding.bits == 32 else { return nil }
        case .muLaw, .aLaw: return nil
        }
        guard selection.allSatisfy({ $0 == nil || (0..<inChannels).contains($0!) }) else { return nil }
        self.inChannels = inChannels
        outChannels = selection.count
        width = encoding.bytesPerSample
        sources = selection.map { $0 ?? -1 }
        var bytes: (UInt32, UInt32) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { b in
            var zero: Float = 0
            _ = SampleCodec(encoding).encode(&zero, count: 1, into: b.baseAddress!)
        }
        zero = UInt32(littleEndian: bytes.0)
    }

    /// True when this is the swap of a stereo pair (`remix 2 1`): one rotation per frame.
    private var swapsPair: Bool { inChannels == 2 && sources == [1, 0] }

    /// Writes `frames` frames from `input` (`inChannels` × `width` bytes each) to `output`
    /// (`outChannels` × `width` bytes each). The two must not overlap.
    package func run(_ input: UnsafeRawPointer, frames: Int, into output: UnsafeMutableRawPointer) {
        switch width {
        case 1: swapsPair ? rotate(input, frames, output, UInt16.self) : gather(input, frames, output, UInt8.self)
        case 2: swapsPair ? rotate(input, frames, output, UInt32.self) : gather(input, frames, output, UInt16.self)
        case 4: swapsPair ? rotate(input, frames, output, UInt64.self) : gather(input, frames, output, UInt32.self)
        default: gather3(input, frames, output)
        }
    }

    /// A stereo pair swapped: each frame, read as one word, rotated by half its width.
    @inline(__always)
    private func rotate<W: FixedWidthInteger & UnsignedInteger>(_ input: UnsafeRawPointer, _ frames: Int, _ output: UnsafeMutableRawPointer, _: W.Type) {
        let size = MemoryLayout<W>.size, half = W(W.bitWidth / 2)
        for f in 0..<frames {
            let v = input.loadUnaligned(fromByteOffset: f &* size, as: W.self)
            output.storeBytes(of: v << half | v >> half, toByteOffset: f &* size, as: W.self)
        }
    }

    /// Any selection, one output channel at a time: a strided copy of one input channel, or
    /// the zero written down a column.
    @inline(__always)
    private func gather<W: FixedWidthInteger & UnsignedInteger>(_ input: UnsafeRawPointer, _ frames: Int, _ output: UnsafeMutableRawPointer, _: W.Type) {
        let size = MemoryLayout<W>.size
        let inStride = inChannels &* size, outStride = outChannels &* size
        for (o, s) in sources.enumerated() {
            let out = output + o &* size
            if s < 0 {
                let z = W(truncatingIfNeeded: zero)
                for f in 0..<frames { out.storeBytes(of: z, toByteOffset: f &* outStride, as: W.self) }
            } else {
                let from = input + s &* size
                for f in 0..<frames {
                    out.storeBytes(of: from.loadUnaligned(fromByteOffset: f &* inStride, as: W.self), toByteOffset: f &* outStride, as: W.self)
                }
            }
        }
    }

    /// 3-byte samples (s24, u24): two bytes and one per sample.
    private func gather3(_ input: UnsafeRawPointer, _ frames: Int, _ output: UnsafeMutableRawPointer) {
        let inStride = inChannels &* 3, outStride = outChannels &* 3
        let zeroLow = UInt16(truncatingIfNeeded: zero), zeroHigh = UInt8(truncatingIfNeeded: zero >> 16)
        for (o, s) in sources.enumerated() {
            let out = output + o &* 3
            if s < 0 {
                for f in 0..<frames {
                    out.storeBytes(of: zeroLow, toByteOffset: f &* outStride, as: UInt16.self)
                    out.storeBytes(of: zeroHigh, toByteOffset: f &* outStride &+ 2, as: UInt8.self)
                }
            } else {
                let from = input + s &* 3
                for f in 0..<frames {
                    let low = from.loadUnaligned(fromByteOffset: f &* inStride, as: UInt16.self)
                    let high = from.load(fromByteOffset: f &* inStride &+ 2, as: UInt8.self)
                    out.storeBytes(of: low, toByteOffset: f &* outStride, as: UInt16.self)
                    out.storeBytes(of: high, toByteOffset: f &* outStride &+ 2, as: UInt8.self)
                }
            }
        }
    }
}
