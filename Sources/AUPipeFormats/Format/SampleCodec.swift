/// Conversion between stored samples and aupipe's internal Float32, at the edges of the chain.
///
/// Scale: an integer of `b` bits maps to value / 2^(b-1), so full scale is [-1, 1) and
/// s16 32767 becomes 0.999969. Unsigned integers are offset by 2^(b-1) first. G.711 decodes to
/// its 16-bit linear value / 32768.
///
/// Encoding to integers multiplies by 2^(b-1), rounds to nearest with ties to even, and clips
/// to [-2^(b-1), 2^(b-1) - 1]; every sample that had to be clipped is counted. NaN becomes 0.
/// There is no dither. Floats are written as they are (no clipping; values beyond ±1 survive).
/// G.711 encodes the 16-bit value obtained by the integer rule above to the nearest code (as ffmpeg).
public struct SampleCodec: Sendable {
    public let encoding: SampleEncoding

    public init(_ encoding: SampleEncoding) { self.encoding = encoding }

    /// Decodes `count` samples from `source` into `destination`: Float for the audio path, or
    /// Double where every bit of 32-bit integers and f64 must survive (`aupipe compare`).
    public func decode<T: BinaryFloatingPoint>(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutablePointer<T>) {
        let e = encoding
        let be = e.isBigEndian
        switch (e.kind, e.bits) {
        case (.unsignedInteger, 8):
            let p = source.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { destination[i] = T(Float(Int32(p[i]) &- 128) * (1 / 128)) }
        case (.signedInteger, 8):
            let p = source.assumingMemoryBound(to: Int8.self)
            for i in 0..<count { destination[i] = T(Float(Int32(p[i])) * (1 / 128)) }
        case (.signedInteger, 16) where !be:
            // The common case, with no per-sample branch, so that it vectorizes.
            for i in 0..<count {
                let v = Int16(littleEndian: source.loadUnaligned(fromByteOffset: i &* 2, as: Int16.self))
                destination[i] = T(Float(v) * (1 / 32768))
            }
        case (.signedInteger, 16), (.unsignedInteger, 16):
            let offset: Int32 = e.kind == .unsignedInteger ? 32768 : 0
            for i in 0..<count {
                let raw = source.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)
                let bits = be ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
                let v = offset == 0 ? Int32(Int16(bitPattern: bits)) : Int32(bits) &- offset
                // Through Float, concretely: a generic T(Int32) is not vectorized. Exact: |v| < 2^24.
                destination[i] = T(Float(v) * (1 / 32768))
            }
        case (.signedInteger, 24), (.unsignedInteger, 24):
            let p = source.assumingMemoryBound(to: UInt8.self)
            let flip: UInt32 = e.kind == .unsignedInteger ? 0x80_0000 : 0
            for i in 0..<count {
                let b0 = UInt32(p[i &* 3]), b1 = UInt32(p[i &* 3 &+ 1]), b2 = UInt32(p[i &* 3 &+ 2])
                let u = (be ? (b0 << 16 | b1 << 8 | b2) : (b2 << 16 | b1 << 8 | b0)) ^ flip
                let v = Int32(bitPattern: u << 8) >> 8
                destination[i] = T(Float(v) * (1 / 8_388_608))
            }
        case (.signedInteger, 32), (.unsignedInteger, 32):
            let flip: UInt32 = e.kind == .unsignedInteger ? 0x8000_0000 : 0
            for i in 0..<count {
                let raw = source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                let u = (be ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)) ^ flip
                destination[i] = T(Double(Int32(bitPattern: u)) * (1.0 / 2_147_483_648))
            }
        case (.float, 32):
            if !be && T.self == Float.self {
                UnsafeMutableRawPointer(destination).copyMemory(from: source, byteCount: count * 4)
            } else {
                for i in 0..<count {
                    let raw = source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                    destination[i] = T(Float(bitPattern: be ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)))
                }
            }
        case (.float, 64):
            for i in 0..<count {
                let raw = source.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)
                destination[i] = T(Double(bitPattern: be ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)))
            }
        case (.muLaw, _), (.aLaw, _):
            let table = e.kind == .muLaw ? G711.muLawToLinear : G711.aLawToLinear
            let p = source.assumingMemoryBound(to: UInt8.self)
            table.withUnsafeBufferPointer { t in
                for i in 0..<count { destination[i] = T(Float(Int32(t[Int(p[i])])) * (1 / 32768)) }
            }
        default:
            preconditionFailure("SampleEncoding admits no \(e.token)")
        }
    }

    /// Encodes `count` samples from `source` into `destination`; returns how many were clipped.
    @discardableResult
    public func encode(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) -> Int {
        let e = encoding
        let be = e.isBigEndian
        var clipped = 0
        switch (e.kind, e.bits) {
        case (.unsignedInteger, 8), (.signedInteger, 8):
            let offset = e.kind == .unsignedInteger ? 128 : 0
            let p = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = Self.quantize(source[i], scale: 128, min: -128, max: 127, clipped: &clipped)
                p[i] = UInt8(truncatingIfNeeded: v &+ offset)
            }
        case (.signedInteger, 16) where !be:
            // The common case, in vector code (`encodeS16LE`): the same rounding and clip count
            // as `quantize`. A value clips when it rounds outside -32768...32767, that is
            // y >= 32767.5 or y < -32768.5 (ties go to even: -32768.5 becomes -32768).
            clipped = Self.encodeS16LE(source, count: count, into: destination)
        case (.signedInteger, 16), (.unsignedInteger, 16):
            let flip: UInt16 = e.kind == .unsignedInteger ? 0x8000 : 0
            for i in 0..<count {
                let v = Self.quantize(source[i], scale: 32768, min: -32768, max: 32767, clipped: &clipped)
                let u = UInt16(truncatingIfNeeded: v) ^ flip
                destination.storeBytes(of: be ? u.bigEndian : u.littleEndian, toByteOffset: i &* 2, as: UInt16.self)
            }
        case (.signedInteger, 24), (.unsignedInteger, 24):
            let flip: UInt32 = e.kind == .unsignedInteger ? 0x80_0000 : 0
            let p = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let v = Self.quantize(source[i], scale: 8_388_608, min: -8_388_608, max: 8_388_607, clipped: &clipped)
                let u = UInt32(truncatingIfNeeded: v) ^ flip
                let hi = UInt8(truncatingIfNeeded: u >> 16), mid = UInt8(truncatingIfNeeded: u >> 8), lo = UInt8(truncatingIfNeeded: u)
                p[i &* 3] = be ? hi : lo
                p[i &* 3 &+ 1] = mid
                p[i &* 3 &+ 2] = be ? lo : hi
            }
        case (.signedInteger, 32), (.unsignedInteger, 32):
            let flip: UInt32 = e.kind == .unsignedInteger ? 0x8000_0000 : 0
            for i in 0..<count {
                let x = Double(source[i]) * 2_147_483_648
                var v: Int64
                if x.isNaN { v = 0 } else {
                    v = x >= 2_147_483_647 ? 2_147_483_647 : (x < -2_147_483_648 ? -2_147_483_648 : Int64(x.rounded(.toNearestOrEven)))
                    // Float32 rounds s32 values from 2147483584 up to exactly 1.0, so 1.0 itself
                    // is full scale here, not a clip.
                    if x > 2_147_483_648 || x < -2_147_483_648 { clipped &+= 1 }
                }
                let u = UInt32(truncatingIfNeeded: v) ^ flip
                destination.storeBytes(of: be ? u.bigEndian : u.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
            }
        case (.float, 32):
            if !be {
                destination.copyMemory(from: source, byteCount: count * 4)
            } else {
                for i in 0..<count {
                    destination.storeBytes(of: source[i].bitPattern.bigEndian, toByteOffset: i &* 4, as: UInt32.self)
                }
            }
        case (.float, 64):
            for i in 0..<count {
                let bits = Double(source[i]).bitPattern
                destination.storeBytes(of: be ? bits.bigEndian : bits.littleEndian, toByteOffset: i &* 8, as: UInt64.self)
            }
        case (.muLaw, _), (.aLaw, _):
            let table = e.kind == .muLaw ? G711.linearToMuLaw : G711.linearToALaw
            let p = destination.assumingMemoryBound(to: UInt8.self)
            table.withUnsafeBufferPointer { t in
                for i in 0..<count {
                    let v = Self.quantize(source[i], scale: 32768, min: -32768, max: 32767, clipped: &clipped)
                    p[i] = t[(v &+ 32768) >> 2]
                }
            }
        default:
            preconditionFailure("SampleEncoding admits no \(e.token)")
        }
        return clipped
    }

    /// The 16-bit edge back: a 16-bit sample as a float, s / 32768 (exact; the s16 decoder's rule).
    @inline(__always)
    public static func float(_ s: Int16) -> Float { Float(s) * (1 / 32768) }

    /// One sample to 16 bits by the rule of this type's comment, without branches (so loops of
    /// it vectorize): a value clips when it rounds outside -32768...32767, that is
    /// y >= 32767.5 or y < -32768.5 (ties go to even: -32768.5 becomes -32768). The s16 encoder
    /// and the 16-bit edges of speexdsp's echo canceller and preprocessor all use it.
    @inline(__always)
    public static func s16(_ x: Float, clipped: inout Int) -> Int16 {
        let y = x.isNaN ? 0 : x * 32768
        clipped &+= (y >= 32767.5 ? 1 : 0) &+ (y < -32768.5 ? 1 : 0)  // no `||`: its branch stops vectorization
        let c = y < -32768 ? -32768 : (y > 32767 ? 32767 : y)
        // 1.5 × 2^23: adding it rounds c to an integer, nearest even, in the low bits of the
        // sum's significand (c + magic = 0x4B40_0000 + round(c) as a bit pattern, for
        // |c| ≤ 2^22), whose low 16 bits are round(c) in two's complement. Read from the bits,
        // with no conversion to an integer that would check its range, the loop vectorizes.
        let magic: Float = 12_582_912
        return Int16(truncatingIfNeeded: (c + magic).bitPattern)
    }

    /// Reverses the byte order of `count` samples of `width` bytes (2, 3, 4 or 8); exact.
    public static func swapByteOrder(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int, width: Int) {
        switch width {
        case 2: swapWords(source, destination, count, UInt16.self)
        case 4: swapWords(source, destination, count, UInt32.self)
        case 8: swapWords(source, destination, count, UInt64.self)
        default:
            let s = source.assumingMemoryBound(to: UInt8.self), d = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let base = i &* width
                for k in 0..<width { d[base &+ k] = s[base &+ width &- 1 &- k] }
            }
        }
    }

    /// Flips the top bit of `count` integer samples of `width` bytes (1 to 4) in place, whose
    /// most significant byte comes first when `bigEndian`: signed becomes unsigned (offset
    /// binary) and back, exactly, as ffmpeg converts them (u32 0 is s32 -2^31, u8 128 is s8 0).
    public static func flipSignBit(_ samples: UnsafeMutableRawPointer, count: Int, width: Int, bigEndian: Bool) {
        let p = samples.assumingMemoryBound(to: UInt8.self)
        let top = bigEndian ? 0 : width &- 1
        for i in 0..<count { p[i &* width &+ top] ^= 0x80 }
    }

    @inline(__always)
    private static func swapWords<W: FixedWidthInteger>(_ s: UnsafeRawPointer, _ d: UnsafeMutableRawPointer, _ count: Int, _: W.Type) {
        let size = MemoryLayout<W>.size
        for i in 0..<count {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i &* size, as: W.self).byteSwapped, toByteOffset: i &* size, as: W.self)
        }
    }

    /// Rounds `x × scale` to nearest (ties to even) and clips to `min...max`, counting clips.
    ///
    /// Rounding adds and subtracts 1.5 × 2^23 (in Double, 1.5 × 2^52, for 24-bit scales), which
    /// leaves the nearest integer under IEEE round-to-nearest-even: the same result as
    /// `rounded(.toNearestOrEven)` without a call to libm's rintf for every sample. Values too
    /// large for the trick come out beyond `min...max` all the same and are clipped.
    @inline(__always)
    package static func quantize(_ x: Float, scale: Float, min: Int, max: Int, clipped: inout Int) -> Int {
        let y = x * scale
        let r: Double
        if scale <= 32768 {
            let magic: Float = 12_582_912 // 1.5 × 2^23
            r = Double((y + magic) - magic)
        } else {
            let magic = 6_755_399_441_055_744.0 // 1.5 × 2^52
            r = (Double(y) + magic) - magic
        }
        if r >= Double(min) && r <= Double(max) { return Int(r) }
        if y.isNaN { return 0 }
        clipped &+= 1
        return y > 0 ? max : min
    }

    /// Replaces each sample with the value it would have after encoding and decoding again:
    /// what `convert format=…` does to the stream in the middle of a chain. Returns the clip count.
    public func requantize(_ samples: UnsafeMutablePointer<Float>, count: Int, scratch: UnsafeMutableRawPointer) -> Int {
        if encoding.kind == .float && encoding.bits == 32 { return 0 }
        if encoding.kind == .float {
            // f64 holds every Float32 exactly.
            return 0
        }
        let clipped = encode(samples, count: count, into: scratch)
        decode(scratch, count: count, into: samples)
        return clipped
    }
}
