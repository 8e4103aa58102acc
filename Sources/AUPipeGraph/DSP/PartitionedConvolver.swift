import AUPipeFormats
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// Zero-latency convolution of one channel with a `ConvolutionFilter`: y[n] = Σₖ h[k]·x[n−k],
/// output sample n written as soon as input sample n is given.
///
/// The first taps act in the time domain; each FFT level of the filter's plan adds its share
/// for a block of B frames computed when the previous B input frames were complete (see
/// `ConvolutionPlan`). Every level cycles at the same stream positions whatever the blocks
/// `process` is given, and every output sample is summed in the same order (direct taps in
/// order, then the levels, smallest first), so the output is the same bits for any block size.
/// Nothing is allocated after `init`.
///
/// Accuracy: float arithmetic throughout; against a double-precision direct convolution the
/// error energy is about −130 dB of the output's for responses up to 2^17 taps (tests).
package final class PartitionedConvolver {
    package let filter: ConvolutionFilter
    private let levels: [ConvolutionLevel]
    /// [`back` earlier frames | the current granule]: the direct taps read back from here.
    private let history: UnsafeMutablePointer<Float>
    private let granule: Int, back: Int
    /// The direct taps reversed (`padded` of them: no padding is needed since the direct part
    /// runs in C): reversed[padded − 1 − k] = h[k], so an output is one dot product with the history.
    private let reversed: UnsafeMutablePointer<Float>
    private let padded: Int
    /// Frames processed so far, modulo the largest level's block (a multiple of every block).
    private var position = 0
    private let period: Int

    package init(_ filter: ConvolutionFilter) {
        self.filter = filter
        levels = filter.plan.levels.indices.map { ConvolutionLevel(filter, level: $0) }
        granule = filter.plan.granule
        let direct = filter.plan.directLength
        padded = direct
        reversed = .allocate(capacity: padded)
        reversed.initialize(repeating: 0, count: padded)
        for k in 0..<direct { reversed[padded - 1 - k] = filter.direct[k] }
        // The dot product reads padded − 1 frames back: room for them before the granule.
        back = max(granule, padded)
        history = .allocate(capacity: back + granule)
        history.initialize(repeating: 0, count: back + granule)
        period = filter.plan.levels.last?.size ?? granule
    }

    deinit { history.deallocate(); reversed.deallocate() }

    /// Convolves `frames` samples of `input` (stride 1) into `output` (may not overlap).
    package func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < frames {
            let inGranule = position % granule
            let n = min(frames - done, granule - inGranule)
            run(input + done, n, output + done, at: inGranule)
            done += n
            position += n
            if position % granule == 0 {
                // The last `back` frames move to the front for the next granule.
                memmove(history, history + granule, back * MemoryLayout<Float>.stride)
                for l in 0..<levels.count where position % levels[l].size == 0 { levels[l].cycle() }
                if position == period { position = 0 }
            }
        }
    }

    /// `n` frames within one granule, the first at `offset` in it.
    private func run(_ x: UnsafePointer<Float>, _ n: Int, _ y: UnsafeMutablePointer<Float>, at offset: Int) {
        let now = history + back + offset
        now.update(from: x, count: n)
        // Index loops: an array's iterator allocates in debug builds.
        for l in 0..<levels.count { (levels[l].input + position % levels[l].size).update(from: x, count: n) }
        // y[j] = Σₖ h[k]·x[j − k], summed in the same order for every frame whatever n is
        // (`aupipe_fir_direct`: eight frames per vector, 256-bit where the processor has them).
        aupipe_fir_direct(reversed, padded, now + 1 - padded, y, n)
        for l in 0..<levels.count {
            let out = levels[l].output + position % levels[l].size
            for j in 0..<n { y[j] += out[j] }
        }
    }

    /// Back to silence, as before the first frame.
    package func reset() {
        history.initialize(repeating: 0, count: back + granule)
        for l in 0..<levels.count { levels[l].reset() }
        position = 0
    }
}
