/// The s16le encoder, the output of most runs, eight samples at a time in SIMD registers.
extension SampleCodec {
    /// Samples per step of `encodeS16LE`: two SSE registers of Float.
    private typealias Lanes = SIMD8<Float>

    /// Encodes `count` samples to s16le by the rule of `s16` (NaN to 0, round to nearest even,
    /// clip to -32768...32767, counting every sample that had to be clipped): the same bytes
    /// and count, but with lane-wise selects instead of branches, so that it runs as vector
    /// code (the scalar loop's NaN test and clip count kept LLVM from vectorizing it).
    static func encodeS16LE(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) -> Int {
        var clipped = 0
        var i = 0
        #if _endian(little)
        // The rounding of `s16`: adding 1.5 × 2^23 leaves the rounded integer in the low bits
        // of the sum's pattern, 0x4B40_0000 + c.
        let magic = Lanes(repeating: 12_582_912), pattern = SIMD8<Int32>(repeating: 0x4B40_0000)
        var clips = SIMD8<Int32>()
        while i &+ Lanes.scalarCount <= count {
            var y = UnsafeRawPointer(source + i).loadUnaligned(as: Lanes.self) * 32768
            y.replace(with: 0, where: y .!= y)
            clips.replace(with: clips &+ 1, where: (y .>= 32767.5) .| (y .< -32768.5))
            // Clipped by selects (Swift's pointwiseMin and pointwiseMax are not inlined).
            y.replace(with: 32767, where: y .> 32767)
            y.replace(with: -32768, where: y .< -32768)
            let rounded = unsafeBitCast(y + magic, to: SIMD8<Int32>.self) &- pattern
            destination.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: rounded), toByteOffset: i &* 2, as: SIMD8<Int16>.self)
            i &+= Lanes.scalarCount
        }
        clipped = Int(clips.wrappedSum())
        #endif
        let p = destination.assumingMemoryBound(to: UInt16.self)
        while i < count {
            p[i] = UInt16(bitPattern: s16(source[i], clipped: &clipped)).littleEndian
            i &+= 1
        }
        return clipped
    }
}
