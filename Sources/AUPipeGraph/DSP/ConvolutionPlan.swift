import AUPipeFormats

/// How an impulse response of `length` taps is split for zero-latency partitioned convolution
/// (Gardner 1995; Wefers 2015, non-uniform partitions): the first `directLength` taps are
/// applied in the time domain, sample by sample, and the rest by FFT levels whose partitions
/// grow from one level to the next.
///
/// Level i has partitions of `size` frames, `count` of them, covering taps
/// [size, size + count·size): its first tap is its own size, which is what lets an
/// overlap-save block of `size` input frames, transformed the moment it is complete, reach the
/// output in time (no added latency). So every level but the last has (next size / size) − 1
/// partitions, and the last as many as the response still needs.
///
/// Which sizes: the cheapest sequence by a cost model, searched over every sequence of powers of
/// two from the direct length up to `maxPartition` (a few hundred at most). Per input frame a
/// level costs one forward and one inverse transform per block (`transformCost`, in units of one
/// partition's spectral product per frame) plus one spectral product per partition. A 2 s
/// response at 48 kHz gets 64 direct taps, then 7 partitions of 64, 15 of 512 and 11 of 8192.
package struct ConvolutionPlan: Equatable, Sendable {
    /// Taps applied directly (time domain) per output sample. 64: measured against 32 and 128
    /// with a 2 s response (bench/README.md, fir), 64 direct taps and one more FFT level cost
    /// the least: 8 % less time than 128, and 32 no better.
    package static let defaultDirectLength = 64
    /// The largest partition the search considers: 16384 frames (an FFT of 32768 points). The
    /// float rounding of one transform stays near 1e-7·log2 of its size.
    package static let maxPartition = 16384

    /// What the forward and inverse transform of a level of partition size B cost per input frame,
    /// in spectral products of one partition per frame (B + 1 complex multiply-adds per B frames),
    /// as measured on the project's FFT (bench/README.md, fir): flat near 14 up to 4096 frames,
    /// then rising as the transform outgrows the caches.
    package static func transformCost(_ size: Int) -> Int {
        switch size {
        case ...4096: 14
        case 8192: 17
        default: 21 + 5 * (size / 16384 - 1)
        }
    }

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
        levels = length <= directLength ? [] : Self.cheapest(from: directLength, length: length, maxPartition: max(maxPartition, directLength)).levels
    }

    /// The cheapest levels covering taps [size, length), the first of partition size `size`.
    private static func cheapest(from size: Int, length: Int, maxPartition: Int) -> (levels: [Level], cost: Int) {
        // This size as the last level...
        let last = Level(size: size, count: (length - size + size - 1) / size)
        var best = (levels: [last], cost: transformCost(size) + last.count)
        // ...or a few partitions of it, then a larger size (while that starts within the response).
        var next = 2 * size
        while next <= maxPartition && next < length {
            let rest = cheapest(from: next, length: length, maxPartition: maxPartition)
            let count = next / size - 1
            let cost = transformCost(size) + count + rest.cost
            if cost < best.cost { best = ([Level(size: size, count: count)] + rest.levels, cost) }
            next *= 2
        }
        return best
    }
}
