import AUPipeFormats
import CAUPipeSupport

/// The running state of one FFT level of a `PartitionedConvolver` (uniformly partitioned
/// overlap-save with a frequency-domain delay line): the last 2B input frames, the spectra of
/// the last `count` input blocks, and the level's output for the current block of B frames.
///
/// Every B input frames (`cycle`), the 2B-frame window is transformed, its spectrum becomes the
/// newest of the delay line, the products with the filter's partitions are summed (partition m
/// with the block m blocks back), and the inverse transform's second half is the level's
/// contribution to the next B output frames. Everything is allocated in `init`.
package final class ConvolutionLevel {
    /// Frames per partition and per block (B).
    package let size: Int
    /// Partitions (the delay line's length).
    package let count: Int
    private let bins: Int
    private let fft: RealFFT
    private let filterRe: UnsafeMutablePointer<Float>, filterIm: UnsafeMutablePointer<Float>
    /// [previous B frames | current B frames].
    package let window: UnsafeMutablePointer<Float>
    /// `count` spectra, a ring; `newest` is the index of the last one written.
    private let lineRe: UnsafeMutablePointer<Float>, lineIm: UnsafeMutablePointer<Float>
    private var newest = 0
    private let sumRe: UnsafeMutablePointer<Float>, sumIm: UnsafeMutablePointer<Float>
    /// The inverse transform (2B); its second half, from `output`, is the current block's output.
    private let result: UnsafeMutablePointer<Float>

    /// The level `index` of `filter`.
    package init(_ filter: ConvolutionFilter, level index: Int) {
        let level = filter.plan.levels[index]
        size = level.size
        count = level.count
        bins = size + 1
        fft = filter.transforms[index]
        filterRe = filter.spectraRe[index]
        filterIm = filter.spectraIm[index]
        window = .allocate(capacity: 2 * size)
        lineRe = .allocate(capacity: count * bins)
        lineIm = .allocate(capacity: count * bins)
        sumRe = .allocate(capacity: bins)
        sumIm = .allocate(capacity: bins)
        result = .allocate(capacity: 2 * size)
        reset()
    }

    deinit {
        window.deallocate(); lineRe.deallocate(); lineIm.deallocate()
        sumRe.deallocate(); sumIm.deallocate(); result.deallocate()
    }

    /// Back to silence.
    package func reset() {
        window.initialize(repeating: 0, count: 2 * size)
        lineRe.initialize(repeating: 0, count: count * bins)
        lineIm.initialize(repeating: 0, count: count * bins)
        result.initialize(repeating: 0, count: 2 * size)
        newest = 0
    }

    /// Where the current block's input frames go: `size` frames, written in order.
    package var input: UnsafeMutablePointer<Float> { window + size }

    /// The level's output for the current block: `size` frames.
    package var output: UnsafePointer<Float> { UnsafePointer(result + size) }

    /// After the block's `size` input frames: the level's output for the next block.
    package func cycle() {
        newest = newest + 1 == count ? 0 : newest + 1
        let xr = lineRe + newest * bins, xi = lineIm + newest * bins
        fft.forward(window, re: xr, im: xi)
        // Partition 0 with the newest block sets the sum; partition m adds the block m back.
        multiply(xr, xi, filterRe, filterIm, add: false)
        var block = newest
        for m in 1..<count {
            block = block == 0 ? count - 1 : block - 1
            multiply(lineRe + block * bins, lineIm + block * bins, filterRe + m * bins, filterIm + m * bins, add: true)
        }
        fft.inverse(re: sumRe, im: sumIm, into: result)
        window.update(from: window + size, count: size)
    }

    /// sum = (add ? sum : 0) + x·h over the bins, complex (`aupipe_spectral_product`: eight bins
    /// at a time, on 256-bit vectors where the processor has them).
    @inline(__always)
    private func multiply(_ xr: UnsafePointer<Float>, _ xi: UnsafePointer<Float>,
                          _ hr: UnsafePointer<Float>, _ hi: UnsafePointer<Float>, add: Bool) {
        aupipe_spectral_product(sumRe, sumIm, xr, xi, hr, hi, bins, add ? 1 : 0)
    }
}
