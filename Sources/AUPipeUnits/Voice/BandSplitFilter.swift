#if canImport(Glibc)
import Glibc
#endif
import AUPipeGraph
import CAUPipeSupport

/// The low-pass of `aec`'s band split (`EchoBandSplit`): a linear-phase FIR at the stream's
/// rate, used twice, to decimate by `factor` (`BandDecimator`) and to interpolate back
/// (`BandInterpolator`). A Kaiser-windowed sinc of `2·halfPhases·factor + 1` taps, DC gain 1,
/// its −6 dB point at `cutoffShare` of the low band's Nyquist frequency (7 kHz for a 16 kHz
/// low band). Its group delay is `halfPhases·factor` frames at the stream's rate
/// (`halfPhases` frames of the low band: 1 ms at 16 kHz), so decimation and interpolation
/// together delay by `2·halfPhases·factor` (`roundTripDelay`).
package struct BandSplitFilter {
    /// Taps per side and phase: 16 gives a transition from 6 kHz (−0.1 dB) to 8.5 kHz (−86 dB)
    /// for a 16 kHz low band, for 1 ms of delay per filter.
    package static let halfPhases = 16
    /// Where the filter is at −6 dB, as a share of the low band's Nyquist frequency: at 0.875
    /// (7 kHz of 8) what folds back onto the low band is −44 dB at 8 kHz and under −80 dB from
    /// 8.5 kHz (folding onto 7.5 kHz and below).
    package static let cutoffShare = 0.875
    /// The Kaiser window's β: 8 puts the stopband over 80 dB down.
    package static let kaiserBeta = 8.0

    /// Stream frames per low-band frame (≥ 2).
    package let factor: Int
    /// The taps (symmetric, `2·halfPhases·factor + 1` of them).
    package let taps: [Float]

    package init(factor: Int) {
        precondition(factor >= 2, "band split factor \(factor) below 2")
        self.factor = factor
        let count = 2 * Self.halfPhases * factor + 1, middle = Double(count - 1) / 2
        // Cycles per stream frame at −6 dB: the low band's Nyquist (0.5 / factor) × the share.
        let fc = Self.cutoffShare * 0.5 / Double(factor)
        let norm = FractionalDelayTaps.besselI0(Self.kaiserBeta)
        var h = (0..<count).map { i -> Double in
            let t = Double(i) - middle, r = t / (middle + 1)
            let x = 2 * Double.pi * fc * t
            let sinc = t == 0 ? 1 : sin(x) / x
            return 2 * fc * sinc * FractionalDelayTaps.besselI0(Self.kaiserBeta * (1 - r * r).squareRoot()) / norm
        }
        let sum = h.reduce(0, +)
        h = h.map { $0 / sum }
        taps = h.map { Float($0) }
    }

    /// Frames the stream is delayed by a decimation and an interpolation (stream frames).
    package var roundTripDelay: Int { taps.count - 1 }
}

/// `BandSplitFilter`'s decimation of `channels` interleaved channels: `factor·n` stream frames
/// in give `n` low-band frames out, output m being the filtered value at input frame m·factor.
/// Keeps the inputs of the last `taps − 1` frames, which are also the input delayed by the
/// round trip (`delayed`). Each channel's outputs are `aupipe_fir_decimate`'s (eight at a time,
/// each summed in order of the taps: the same bits as one at a time). Allocates only in `init`.
package final class BandDecimator {
    package let filter: BandSplitFilter
    package let channels: Int
    /// The most stream frames one call takes.
    package let maxFrames: Int
    /// Per channel, the last `taps − 1` inputs then the call's: `taps − 1 + maxFrames` each.
    private let line: UnsafeMutablePointer<Float>
    private let coefficients: UnsafeMutablePointer<Float>
    private let stride: Int
    /// One channel's outputs (for more than one channel) and the kernel's scratch.
    private let channelOut, scratch: UnsafeMutablePointer<Float>

    package init(filter: BandSplitFilter, channels: Int, maxFrames: Int) {
        self.filter = filter
        self.channels = channels
        self.maxFrames = maxFrames
        stride = filter.taps.count - 1 + maxFrames
        line = .allocate(capacity: stride * channels)
        line.initialize(repeating: 0, count: stride * channels)
        coefficients = .allocate(capacity: filter.taps.count)
        coefficients.initialize(from: filter.taps, count: filter.taps.count)
        let outputs = maxFrames / filter.factor + 1
        channelOut = .allocate(capacity: outputs)
        scratch = .allocate(capacity: filter.factor * (outputs + filter.taps.count / filter.factor + 3))
    }

    deinit {
        line.deallocate()
        coefficients.deallocate()
        channelOut.deallocate()
        scratch.deallocate()
    }

    /// Decimates `frames` (a multiple of `factor`, ≤ `maxFrames`) interleaved frames of `input`
    /// into `frames / factor` interleaved frames of `output`. Until the next call, `delayed(c)`
    /// is channel c's input of this call delayed by `roundTripDelay` frames.
    package func run(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let keep = filter.taps.count - 1, n = filter.factor, count = filter.taps.count, outputs = frames / n
        for c in 0..<channels {
            let l = line + c * stride
            l.update(from: l + lastFrames, count: keep)
            for f in 0..<frames { l[keep + f] = input[f * channels + c] }
            // Output m from the window l[m·n ..< m·n + taps] (the taps are symmetric: the window
            // reversed is the window).
            let y = channels == 1 ? output : channelOut
            aupipe_fir_decimate(coefficients, count, l, n, y, outputs, scratch)
            if channels > 1 { for m in 0..<outputs { output[m * channels + c] = channelOut[m] } }
        }
        lastFrames = frames
    }

    /// Frames the last call took (its inputs sit after the kept ones).
    private var lastFrames = 0

    /// Channel c's input of the last call, `roundTripDelay` frames earlier (`frames` of them).
    package func delayed(_ c: Int) -> UnsafePointer<Float> { UnsafePointer(line + c * stride) }
}

/// `BandSplitFilter`'s interpolation of `channels` interleaved channels: `n` low-band frames in
/// give `factor·n` stream frames out (zeros between the samples, filtered, times `factor`).
/// Each phase's outputs are `aupipe_fir_decimate`'s at stride 1 (eight at a time, each summed in
/// order of its taps: the same bits as one at a time). Allocates only in `init`.
package final class BandInterpolator {
    package let filter: BandSplitFilter
    package let channels: Int
    /// Taps per phase (`2·halfPhases + 1`, the phases after the first padded with a zero).
    private let phaseTaps: Int
    /// Phase p's taps, reversed, at p × phaseTaps.
    private let phases: UnsafeMutablePointer<Float>
    /// Per channel, the last `phaseTaps − 1` inputs then the call's.
    private let line: UnsafeMutablePointer<Float>
    private let stride: Int
    private var lastFrames = 0
    /// One phase's outputs and the kernel's scratch.
    private let phaseOut, scratch: UnsafeMutablePointer<Float>

    /// For calls of at most `maxFrames` low-band frames.
    package init(filter: BandSplitFilter, channels: Int, maxFrames: Int) {
        self.filter = filter
        self.channels = channels
        let n = filter.factor, h = filter.taps
        phaseTaps = 2 * BandSplitFilter.halfPhases + 1
        phases = .allocate(capacity: phaseTaps * n)
        phases.initialize(repeating: 0, count: phaseTaps * n)
        for p in 0..<n {
            for j in 0..<phaseTaps where p + n * j < h.count {
                phases[p * phaseTaps + phaseTaps - 1 - j] = Float(n) * h[p + n * j]
            }
        }
        stride = phaseTaps - 1 + maxFrames
        line = .allocate(capacity: stride * channels)
        line.initialize(repeating: 0, count: stride * channels)
        phaseOut = .allocate(capacity: maxFrames)
        scratch = .allocate(capacity: maxFrames + phaseTaps + 3)
    }

    deinit {
        phases.deallocate()
        line.deallocate()
        phaseOut.deallocate()
        scratch.deallocate()
    }

    /// Interpolates `frames` interleaved low-band frames of `input` into `frames·factor`
    /// interleaved frames of `output`.
    package func run(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let keep = phaseTaps - 1, n = filter.factor, taps = phaseTaps
        for c in 0..<channels {
            let l = line + c * stride
            l.update(from: l + lastFrames, count: keep)
            for f in 0..<frames { l[keep + f] = input[f * channels + c] }
            // Phase p of low-band frame q from the window l[q ..< q + taps].
            for p in 0..<n {
                aupipe_fir_decimate(phases + p * taps, taps, l, 1, phaseOut, frames, scratch)
                for q in 0..<frames { output[(q * n + p) * channels + c] = phaseOut[q] }
            }
        }
        lastFrames = frames
    }
}
