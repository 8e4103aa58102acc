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
    /// The encoding's zero as its bytes, in the first `width` of these four (u8 0x80, u16be 0x80 0x00).
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
        swapsPair = inChannels == 2 && sources == [1, 0]
        var bytes: (UInt32, UInt32) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { b in
            var zero: Float = 0
            _ = SampleCodec(encoding).encode(&zero, count: 1, into: b.baseAddress!)
        }
        zero = bytes.0
    }

    /// The swap of a stereo pair (`remix 2 1`): one rotation per frame.
    private let swapsPair: Bool

    /// Writes `frames` frames from `input` (`inChannels` × `width` bytes each) to `output`
    /// (`outChannels` × `width` bytes each). The two must not overlap.
    package func run(_ input: UnsafeRawPointer, frames: Int, into output: UnsafeMutableRawPointer) {
        switch width {
        case 3: gather3(input, frames, output)
        default:
            if !swapsPair { gather(input, frames, output) }
            else if width == 1 { rotate(input, frames, output, UInt16.self) }
            else if width == 2 { rotate(input, frames, output, UInt32.self) }
            else { rotate(input, frames, output, UInt64.self) }
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

    /// Any selection, one output channel at a time: a strided copy of one input channel, or of
    /// the encoded zero (read from `zero` with a stride of 0) down a silent column. Concrete
    /// loops per width (a generic one allocated per call in unoptimized builds).
    private func gather(_ input: UnsafeRawPointer, _ frames: Int, _ output: UnsafeMutableRawPointer) {
        withUnsafeBytes(of: zero) { zeroBytes in
            let w = width, outStride = outChannels &* w
            for o in 0..<outChannels {
                let s = sources[o]
                let from = s < 0 ? zeroBytes.baseAddress! : input + s &* w
                let inStride = s < 0 ? 0 : inChannels &* w
                let to = output + o &* w
                switch w {
                case 1: Self.column(from, inStride, to, outStride, frames, UInt8.self)
                case 2: Self.column(from, inStride, to, outStride, frames, UInt16.self)
                default: Self.column(from, inStride, to, outStride, frames, UInt32.self)
                }
            }
        }
    }

    @inline(__always)
    private static func column(_ from: UnsafeRawPointer, _ inStride: Int, _ to: UnsafeMutableRawPointer, _ outStride: Int, _ frames: Int, _: UInt8.Type) {
        for f in 0..<frames { to.storeBytes(of: from.load(fromByteOffset: f &* inStride, as: UInt8.self), toByteOffset: f &* outStride, as: UInt8.self) }
    }

    @inline(__always)
    private static func column(_ from: UnsafeRawPointer, _ inStride: Int, _ to: UnsafeMutableRawPointer, _ outStride: Int, _ frames: Int, _: UInt16.Type) {
        for f in 0..<frames { to.storeBytes(of: from.loadUnaligned(fromByteOffset: f &* inStride, as: UInt16.self), toByteOffset: f &* outStride, as: UInt16.self) }
    }

    @inline(__always)
    private static func column(_ from: UnsafeRawPointer, _ inStride: Int, _ to: UnsafeMutableRawPointer, _ outStride: Int, _ frames: Int, _: UInt32.Type) {
        for f in 0..<frames { to.storeBytes(of: from.loadUnaligned(fromByteOffset: f &* inStride, as: UInt32.self), toByteOffset: f &* outStride, as: UInt32.self) }
    }

    /// 3-byte samples (s24, u24): two bytes and one per sample, from the input or from `zero`.
    private func gather3(_ input: UnsafeRawPointer, _ frames: Int, _ output: UnsafeMutableRawPointer) {
        withUnsafeBytes(of: zero) { zeroBytes in
            let outStride = outChannels &* 3
            for o in 0..<outChannels {
                let s = sources[o]
                let from = s < 0 ? zeroBytes.baseAddress! : input + s &* 3
                let inStride = s < 0 ? 0 : inChannels &* 3
                let to = output + o &* 3
                for f in 0..<frames {
                    let low = from.loadUnaligned(fromByteOffset: f &* inStride, as: UInt16.self)
                    let high = from.load(fromByteOffset: f &* inStride &+ 2, as: UInt8.self)
                    to.storeBytes(of: low, toByteOffset: f &* outStride, as: UInt16.self)
                    to.storeBytes(of: high, toByteOffset: f &* outStride &+ 2, as: UInt8.self)
                }
            }
        }
    }
}
