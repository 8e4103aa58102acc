/// Seeded triangular (TPDF) noise, indexed by channel and frame rather than drawn in sequence,
/// so that the value at a frame never depends on how the stream was cut into blocks.
///
/// Each value is a counter-based hash (SplitMix64's finaliser) of the seed, the channel and the
/// frame; its two 24-bit halves are two independent uniforms on [0, 1), and their difference
/// is triangular on (−1, 1): mean 0, variance 1/6 (in steps of the output's least significant
/// bit, the TPDF that removes the error's dependence on the signal in its first two moments).
public struct DitherNoise: Sendable {
    /// SplitMix64's increment (2^64 / golden ratio): consecutive frames land far apart.
    private static let frameStep: UInt64 = 0x9E37_79B9_7F4A_7C15
    /// Another odd constant, so that channel keys do not line up with frame steps.
    private static let channelStep: UInt64 = 0xD1B5_4A32_D192_ED03
    /// 2^−24: a 24-bit integer to [0, 1), exactly in Float.
    private static let unit: Float = 1.0 / 16_777_216

    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// The key of `channel`'s sequence (computed once per block, not per sample).
    @inline(__always)
    public func key(channel: Int) -> UInt64 {
        Self.mix(seed &+ UInt64(truncatingIfNeeded: channel &+ 1) &* Self.channelStep)
    }

    /// The TPDF value, in (−1, 1), of the sequence `key` at `frame`.
    @inline(__always)
    public static func tpdf(key: UInt64, frame: Int64) -> Float {
        let z = mix(key &+ UInt64(bitPattern: frame) &* frameStep)
        let a = Float(UInt32(truncatingIfNeeded: z >> 40)), b = Float(UInt32(truncatingIfNeeded: z) & 0xFF_FFFF)
        return (a - b) * unit
    }

    /// SplitMix64's output function: a bijection that mixes every input bit into every output bit.
    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
