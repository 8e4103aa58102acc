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
final class PartitionedConvolver {
    let filter: ConvolutionFilter
    private let levels: [ConvolutionLevel]
    /// [granule earlier frames | the current granule]: the direct taps read back from here.
    private let history: UnsafeMutablePointer<Float>
    private let granule: Int, directLength: Int
    /// Frames processed so far, modulo the largest level's block (a multiple of every block).
    private var position = 0
    private let period: Int

    init(_ filter: ConvolutionFilter) {
        self.filter = filter
        levels = filter.plan.levels.indices.map { ConvolutionLevel(filter, level: $0) }
        granule = filter.plan.granule
        directLength = filter.plan.directLength
        history = .allocate(capacity: 2 * granule)
        history.initialize(repeating: 0, count: 2 * granule)
        period = filter.plan.levels.last?.size ?? granule
    }

    deinit { history.deallocate() }

    /// Convolves `frames` samples of `input` (stride 1) into `output` (may not overlap).
    func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < frames {
            let inGranule = position % granule
            let n = min(frames - done, granule - inGranule)
            run(input + done, n, output + done, at: inGranule)
            done += n
            position += n
            if position % granule == 0 {
                // The last granule − 1 frames move to the front for the next granule.
                history.update(from: history + granule, count: granule)
                for level in levels where position % level.size == 0 { level.cycle() }
                if position == period { position = 0 }
            }
        }
    }

    /// `n` frames within one granule, the first at `offset` in it.
    private func run(_ x: UnsafePointer<Float>, _ n: Int, _ y: UnsafeMutablePointer<Float>, at offset: Int) {
        let now = history + granule + offset
        now.update(from: x, count: n)
        for level in levels { (level.input + position % level.size).update(from: x, count: n) }
        // y[j] = Σₖ h[k]·x[j − k], k ascending: the taps' order, whatever n is.
        let h = filter.direct
        y.update(repeating: 0, count: n)
        for k in 0..<directLength {
            let c = h[k], past = now - k
            for j in 0..<n { y[j] += c * past[j] }
        }
        for level in levels {
            let out = level.output + position % level.size
            for j in 0..<n { y[j] += out[j] }
        }
    }

    /// Back to silence, as before the first frame.
    func reset() {
        history.initialize(repeating: 0, count: 2 * granule)
        for level in levels { level.reset() }
        position = 0
    }
}
