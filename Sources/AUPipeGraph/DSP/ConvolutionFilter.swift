import AUPipeFormats

/// One impulse response prepared for `PartitionedConvolver`: its first taps for the direct
/// part, and the spectra of its partitions for each FFT level of its `ConvolutionPlan`.
/// Immutable once made; several convolvers (the channels a mono response serves) share one.
///
/// A level of partition size B keeps, for partition m, the real FFT of 2B points of taps
/// [B + m·B, B + (m+1)·B) followed by B zeros (overlap-save): B + 1 bins, split real and
/// imaginary (`RealFFT.inverse` divides by 2B on the way back).
package final class ConvolutionFilter {
    package let plan: ConvolutionPlan
    /// The first `plan.directLength` taps.
    package let direct: UnsafeMutablePointer<Float>
    /// Per level: `count × (size + 1)` bins, partition by partition.
    package let spectraRe: [UnsafeMutablePointer<Float>], spectraIm: [UnsafeMutablePointer<Float>]
    /// Per level: the real FFT of 2·size points (shared by every convolver of this filter).
    package let transforms: [RealFFT]

    /// Prepares `taps` (≥ 1 values) with `plan` (made for `taps.count`); `transforms` may hold
    /// RealFFTs of the sizes the plan needs, to share with another filter.
    package init(taps: [Float], plan: ConvolutionPlan, transforms shared: [Int: RealFFT] = [:]) {
        precondition(plan.length == taps.count)
        self.plan = plan
        direct = .allocate(capacity: max(plan.directLength, 1))
        for k in 0..<plan.directLength { direct[k] = taps[k] }
        var re: [UnsafeMutablePointer<Float>] = [], im: [UnsafeMutablePointer<Float>] = []
        var transforms: [RealFFT] = []
        for level in plan.levels {
            let b = level.size, bins = b + 1
            let fft = shared[2 * b] ?? RealFFT(size: 2 * b)
            transforms.append(fft)
            let r = UnsafeMutablePointer<Float>.allocate(capacity: level.count * bins)
            let i = UnsafeMutablePointer<Float>.allocate(capacity: level.count * bins)
            let frame = UnsafeMutablePointer<Float>.allocate(capacity: 2 * b)
            defer { frame.deallocate() }
            for m in 0..<level.count {
                frame.initialize(repeating: 0, count: 2 * b)
                let first = level.firstTap + m * b
                for k in 0..<b where first + k < taps.count { frame[k] = taps[first + k] }
                fft.forward(frame, re: r + m * bins, im: i + m * bins)
            }
            re.append(r)
            im.append(i)
        }
        spectraRe = re
        spectraIm = im
        self.transforms = transforms
    }

    /// The FFTs by size, to hand to the next filter of the same plan.
    package var transformsBySize: [Int: RealFFT] {
        Dictionary(zip(transforms.map(\.size), transforms), uniquingKeysWith: { a, _ in a })
    }

    deinit {
        direct.deallocate()
        for p in spectraRe { p.deallocate() }
        for p in spectraIm { p.deallocate() }
    }
}
