import AUPipeFormats

/// Seeded triangular (TPDF) noise, indexed by the sample's position in the stream rather than
/// drawn in sequence, so that the value at a sample never depends on how the stream was cut
/// into blocks.
///
/// Sample i of the stream (i = frame × channels + channel) gets a 32-bit counter-based hash
/// (Wellons' lowbias32 finaliser) of i's low 32 bits, keyed by the seed and i's high bits; the
/// hash's two 16-bit halves are two independent uniforms on [0, 1), and their difference is
/// triangular on (−1, 1): mean 0, variance 1/6 (in steps of the output's least significant
/// bit: the TPDF that makes the error's first two moments independent of the signal). 32-bit
/// arithmetic, so a loop of it vectorizes.
public struct DitherNoise: Sendable {
    /// 2^32 / golden ratio: consecutive samples land far apart before the finaliser.
    package static let step: UInt32 = 0x9E37_79B9
    /// 2^−16: a 16-bit integer to [0, 1), exactly in Float.
    package static let unit: Float = 1.0 / 65536

    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// The key for samples whose index has `high` as its top 32 bits (it changes every 2^32
    /// samples: computed once per block, not per sample).
    @inline(__always)
    public func key(high: UInt32) -> UInt32 {
        Self.mix(UInt32(truncatingIfNeeded: seed) ^ Self.mix(UInt32(truncatingIfNeeded: seed >> 32) &+ Self.mix(high &+ Self.step)))
    }

    /// The TPDF value, in (−1, 1), of the sample whose index has `low` as its low 32 bits.
    @inline(__always)
    public static func tpdf(key: UInt32, low: UInt32) -> Float {
        let z = mix((low &* step) ^ key)
        return (Float(Int32(truncatingIfNeeded: z >> 16)) - Float(Int32(truncatingIfNeeded: z & 0xFFFF))) * unit
    }

    /// lowbias32 (C. Wellons, 2018): a bijection of 32 bits with low bias, two multiplies.
    @inline(__always)
    package static func mix(_ x: UInt32) -> UInt32 {
        var z = x
        z ^= z >> 16
        z = z &* 0x7FEB_352D
        z ^= z >> 15
        z = z &* 0x846C_A68B
        return z ^ (z >> 16)
    }
}
