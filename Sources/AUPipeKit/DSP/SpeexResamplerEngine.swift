import CSpeexDSP

/// speexdsp's resampler (`speex_resampler.h`, float build) as a `ResamplerEngine`.
///
/// speexdsp keeps its ratio as a reduced fraction in/out = num/den and the filter's phase as
/// a numerator over `den`. `setRatio` chooses the nearest fraction whose output part (speex's
/// `den`) is at most 65535, so that speex can carry the phase over to the new denominator
/// without overflowing 32 bits (it multiplies the phase, < old den, by the new den): the ratio
/// is then exact to about 1/65535² (0.0002 ppm), and the phase is kept to 1/65535 of an input
/// frame. A ratio other than a ratio of small integers runs speex's interpolated filter table,
/// which costs more per sample than the direct one of a nominal ratio such as 1/3.
final class SpeexResamplerEngine: ResamplerEngine {
    /// The largest output part of a ratio `setRatio` gives speex (see above).
    static let maxRatioDenominator: Int64 = 65535

    let name = "speexdsp"
    private let state: OpaquePointer
    private let inputRate: Int, outputRate: Int
    private(set) var ratio: ResampleRatio

    /// See `ResamplerEngineKind.make`. With `ratios` wider than the nominal ratio, speex is
    /// set to the ratio of the longest filter and back, so that its tables and memory are
    /// allocated here and not when the ratio moves.
    init(channels: Int, inputRate: Int, outputRate: Int, quality: Int, ratios: ClosedRange<Double>?) throws {
        var err: Int32 = 0
        guard let st = speex_resampler_init(UInt32(channels), UInt32(inputRate), UInt32(outputRate), Int32(quality), &err), err == 0 else {
            throw AUPipeError.usage("speexdsp cannot convert \(inputRate) Hz to \(outputRate) Hz at quality \(quality) (its error \(err))")
        }
        state = st
        self.inputRate = inputRate
        self.outputRate = outputRate
        ratio = ResampleRatio(output: Int64(outputRate), input: Int64(inputRate))
        if let ratios, ratios.lowerBound != ratios.upperBound {
            // speex's filter is longest at the lowest output/input ratio; its interpolation
            // table can be largest at the highest. Nothing has been processed yet, so this
            // leaves no trace but the allocations.
            let nominal = ratio.value
            try setRatio(ratios.upperBound)
            try setRatio(ratios.lowerBound)
            try setRatio(nominal)
        }
    }

    deinit { speex_resampler_destroy(state) }

    var inputLatency: Int { Int(speex_resampler_get_input_latency(state)) }

    func skipLatency() { speex_resampler_skip_zeros(state) }

    func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>,
                 capacity: Int) throws -> (consumed: Int, produced: Int) {
        var inLen = UInt32(frames)
        var outLen = UInt32(capacity)
        let err = speex_resampler_process_interleaved_float(state, input, &inLen, output, &outLen)
        guard err == 0 else { throw AUPipeError(.software, "speexdsp's resampler failed (its error \(err))") }
        return (Int(inLen), Int(outLen))
    }

    @discardableResult
    func setRatio(_ outputPerInput: Double) throws -> ResampleRatio {
        guard outputPerInput.isFinite, outputPerInput > 0 else {
            throw AUPipeError(.software, "resampling ratio \(outputPerInput) is not a positive number")
        }
        var num: UInt32 = 0, den: UInt32 = 0
        speex_resampler_get_ratio(state, &num, &den)
        // speex maps the phase p (< den) to p × new den / den in 32 bits.
        let maxDen = min(Self.maxRatioDenominator, Int64(UInt32.max) / Int64(max(den, 1)))
        let (output, input) = Self.nearestFraction(outputPerInput, maxNumerator: maxDen)
        let next = ResampleRatio(output: output, input: input)
        guard next != ratio else { return ratio }
        guard next.input <= Int64(UInt32.max) else {
            throw AUPipeError(.software, "resampling ratio \(outputPerInput) is beyond what speexdsp represents")
        }
        let err = speex_resampler_set_rate_frac(state, UInt32(next.input), UInt32(next.output), UInt32(inputRate), UInt32(outputRate))
        guard err == 0 else { throw AUPipeError(.software, "speexdsp could not change its ratio to \(next) (its error \(err))") }
        ratio = next
        return next
    }

    /// The fraction p/q nearest `x` with 1 ≤ p ≤ `maxNumerator` (and q ≥ 1): the best rational
    /// approximation of 1/x with a bounded denominator, from its continued fraction.
    static func nearestFraction(_ x: Double, maxNumerator: Int64) -> (numerator: Int64, denominator: Int64) {
        // 1/x = n/d exactly enough: x is between 2^-11 and 2^11 for any ratio speex takes.
        let d: Int64 = 1 << 50
        let n = Int64((Double(d) / x).rounded())
        // Convergents h/k of n/d (h over k approximates 1/x; k is the output part p).
        var (h0, k0, h1, k1): (Int64, Int64, Int64, Int64) = (0, 1, 1, 0)
        var (a, b) = (n, d)
        while b != 0 {
            let t = a / b
            if k1 != 0 && t > (maxNumerator - k0) / k1 { break }
            let k2 = k0 + t * k1
            (h0, k0, h1, k1) = (h1, k1, h0 + t * h1, k2)
            (a, b) = (b, a - t * b)
        }
        if b == 0 { return (k1, h1) }
        // The best semiconvergent against the last convergent.
        let s = (maxNumerator - k0) / k1
        let (hs, ks) = (h0 + s * h1, k0 + s * k1)
        let target = Double(n) / Double(d)
        let useSemi = abs(Double(hs) / Double(ks) - target) < abs(Double(h1) / Double(k1) - target)
        return useSemi ? (ks, hs) : (k1, h1)
    }
}
