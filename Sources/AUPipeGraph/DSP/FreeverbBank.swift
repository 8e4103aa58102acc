import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// One output channel's filter bank of a Freeverb-style reverb, as sox's `reverb` builds it
/// (after Jezar's Freeverb): eight feedback combs in parallel, each with a one-pole low-pass in
/// its loop (the HF damping), then four allpasses in series.
///
/// Comb i delays by M_i = round(scale × rate/44100 × (combLengths[i] ± 12 × offset)) frames,
/// allpass i by round(rate/44100 × (allpassLengths[i] ± 12 × offset)), the sign alternating
/// from one filter to the next (+ for comb 0, − for comb 1, ..., + again for allpass 0), as sox
/// does; `offset` (0...1, the stereo depth) detunes the right channel's bank from the left's,
/// so that the two decorrelate. At low frequencies a comb's loop gain is `feedback`, so its amplitude falls
/// by that factor every M_i frames: 60 dB in 3·M_i / (rate · log10(1/feedback)) seconds.
package final class FreeverbBank {
    /// Freeverb's comb lengths at 44.1 kHz, in frames: mutually prime, 25...37 ms.
    package static let combLengths = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617]
    /// Freeverb's allpass lengths at 44.1 kHz, in frames.
    package static let allpassLengths = [225, 341, 441, 556]
    /// Frames at 44.1 kHz by which the right bank's delays differ from the left's at full
    /// stereo depth (sox's `stereo_adjust`).
    package static let stereoSpread = 12.0
    /// The rate Freeverb's lengths are given at.
    package static let referenceRate = 44100.0
    /// The allpasses' coefficient (Freeverb's fixed 0.5).
    package static let allpassGain: Float = 0.5

    /// The comb delays in frames.
    package let combSizes: [Int]
    package let allpassSizes: [Int]
    private let buffer: UnsafeMutablePointer<Float>
    private let count: Int
    /// Where each comb's and allpass's ring starts in `buffer`, and its read/write position.
    private var starts: [Int]
    private var positions: [Int]
    private var sizes: [Int]
    /// Each comb's low-pass state.
    private var stores: [Float]

    /// A bank for `rate` Hz, comb delays scaled by `scale` (0.1...1), right-channel `offset` 0...1.
    package init(rate: Int, scale: Double, offset: Double) {
        let r = Double(rate) / Self.referenceRate
        // The offset's sign alternates over the combs, then on over the allpasses (8 combs: + again).
        func sign(_ i: Int) -> Double { i % 2 == 0 ? 1 : -1 }
        combSizes = Self.combLengths.enumerated().map { i, length in
            max(1, Int(scale * r * (Double(length) + sign(i) * Self.stereoSpread * offset) + 0.5))
        }
        allpassSizes = Self.allpassLengths.enumerated().map { i, length in
            max(1, Int(r * (Double(length) + sign(Self.combLengths.count + i) * Self.stereoSpread * offset) + 0.5))
        }
        sizes = combSizes + allpassSizes
        starts = []
        var total = 0
        for s in sizes {
            starts.append(total)
            total += s
        }
        count = total
        buffer = .allocate(capacity: total)
        buffer.initialize(repeating: 0, count: total)
        positions = [Int](repeating: 0, count: sizes.count)
        stores = [Float](repeating: 0, count: combSizes.count)
    }

    deinit { buffer.deallocate() }

    /// One frame: `input` through the combs (loop gain `feedback`, low-pass pole `damping`) and
    /// the allpasses; the output is not yet scaled.
    @inline(__always)
    package func process(_ input: Float, feedback: Float, damping: Float) -> Float {
        var out: Float = 0
        let combs = combSizes.count
        for i in 0..<combs {
            let p = buffer + starts[i] + positions[i]
            let y = p.pointee
            stores[i] = y + (stores[i] - y) * damping
            p.pointee = input + stores[i] * feedback
            positions[i] += 1
            if positions[i] == sizes[i] { positions[i] = 0 }
            out += y
        }
        for i in combs..<sizes.count {
            let p = buffer + starts[i] + positions[i]
            let y = p.pointee
            p.pointee = out + y * Self.allpassGain
            positions[i] += 1
            if positions[i] == sizes[i] { positions[i] = 0 }
            out = y - out
        }
        return out
    }
}
