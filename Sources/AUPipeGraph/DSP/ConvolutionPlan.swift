import AUPipeFormats

/// How an impulse response of `length` taps is split for zero-latency partitioned convolution
/// (Gardner 1995; Wefers 2015, non-uniform partitions): the first `directLength` taps are
/// applied in the time domain, sample by sample, and the rest by FFT levels whose partitions
/// grow by `growth` from one level to the next.
///
/// Level i has partitions of `size` frames, `count` of them, covering taps
/// [size, size + count·size): its first tap is its own size, which is what lets an
/// overlap-save block of `size` input frames, transformed the moment it is complete, reach the
/// output in time (no added latency). Every level but the last has `growth − 1` partitions, so
/// the next level starts at `growth × size`, its own size again; the last level takes as many
/// partitions of its size (at most `maxPartition`, the largest such power) as the response still needs.
package struct ConvolutionPlan: Equatable, Sendable {
    /// Taps applied directly (time domain) per output sample. 64: measured against 32 and 128
    /// with a 2 s response (bench/README.md, fir), 64 direct taps and one more FFT level cost
    /// the least: 8 % less time than 128, and 32 no better.
    package static let defaultDirectLength = 64
    /// Each level's partitions are this many times the previous level's: 4 with 3 partitions per
    /// level balances the FFTs (one pair per level per block) against the spectral products.
    package static let growth = 4
    /// The largest partition: 4096 frames (an FFT of 8192 points). Beyond it the spectral
    /// products of more partitions cost less than a larger FFT would (a last level of 16384
    /// frames measured 8 % slower with a 2 s response), and the float rounding of one transform
    /// stays near 1e-7. A 2 s response at 48 kHz has 23 partitions at the last level, 4 s 47.
    package static let maxPartition = 4096

    /// One FFT level: partitions of `size` frames, `count` of them, from tap `size` on.
    package struct Level: Equatable, Sendable {
        /// Frames per partition (a power of two); also the level's first tap and its block.
        package let size: Int
        /// Partitions at this level (≥ 1).
        package let count: Int
        /// The first tap the level covers.
        package var firstTap: Int { size }
        /// One past the last tap the level covers.
        package var endTap: Int { size + count * size }
    }

    /// Taps in the response.
    package let length: Int
    /// Taps applied in the time domain: min(length, the direct length asked for).
    package let directLength: Int
    /// The FFT levels, smallest first; empty when the response is no longer than the direct part.
    package let levels: [Level]
    /// The granule every level's block is a multiple of: the direct length asked for.
    package let granule: Int

    /// The plan for `length` taps (≥ 1); `directLength` is a power of two ≥ 1.
    package init(length: Int, directLength: Int = Self.defaultDirectLength, maxPartition: Int = Self.maxPartition) {
        precondition(length >= 1 && directLength >= 1 && directLength & (directLength - 1) == 0)
        self.length = length
        self.directLength = min(length, directLength)
        granule = directLength
        var levels: [Level] = []
        var size = directLength
        while size < length {
            let remaining = length - size
            let partitions = (remaining + size - 1) / size
            if size * Self.growth <= maxPartition && partitions > Self.growth - 1 {
                levels.append(Level(size: size, count: Self.growth - 1))
                size *= Self.growth
            } else {
                levels.append(Level(size: size, count: partitions))
                break
            }
        }
        self.levels = levels
    }
}
