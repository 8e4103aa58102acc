import AUPipeFormats
import CSpeexDSP

/// speexdsp's resampler (`speex_resampler.h`, float build) as a `ResamplerEngine`.
///
/// speexdsp keeps its ratio as a reduced fraction in/out = num/den and the filter's phase as
/// a numerator over `den`; a new ratio carries the phase over as phase × new den / old den in
/// 32 bits (or fails, leaving speex half changed, when that overflows). `setRatio` therefore
/// always gives speex the same prime `den`, 65521: the phase is carried over exactly, and
/// the product stays below 2^32. The ratio then moves in steps of 1/(65521 × in/out) of itself
/// (15 ppm at equal rates, 5 ppm from 48 to 16 kHz, 46 ppm from 16 to 48 kHz), which
/// `Resampler` averages to any ratio by alternating between neighbours. Such a ratio runs
/// speex's interpolated filter table, which costs more per sample than the direct one of a
/// nominal ratio such as 1/3.
package final class SpeexResamplerEngine: ResamplerEngine {
    /// The output part of every ratio `setRatio` gives speex: the largest prime below 2^16.
    package static let ratioDenominator: Int64 = 65521

    package let name = "speexdsp"
    private let state: OpaquePointer
    private let inputRate: Int, outputRate: Int
    package private(set) var ratio: ResampleRatio

    /// See `ResamplerEngineKind.make`. With `ratios` wider than the nominal ratio, speex is
    /// set to the ratio of the longest filter and back, so that its tables and memory are
    /// allocated here and not when the ratio moves.
    package init(channels: Int, inputRate: Int, outputRate: Int, quality: Int, ratios: ClosedRange<Double>?) throws {
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
            // table can be largest at the highest. Nothing has been processed yet (the phase
            // is 0), so going back to the nominal ratio leaves no trace but the allocations.
            try setRatio(ratios.upperBound)
            try setRatio(ratios.lowerBound)
            speex_resampler_set_rate_frac(st, UInt32(inputRate), UInt32(outputRate), UInt32(inputRate), UInt32(outputRate))
            ratio = ResampleRatio(output: Int64(outputRate), input: Int64(inputRate))
        }
    }

    deinit { speex_resampler_destroy(state) }

    package var inputLatency: Int { Int(speex_resampler_get_input_latency(state)) }

    package func skipLatency() { speex_resampler_skip_zeros(state) }

    package func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>,
                 capacity: Int) throws -> (consumed: Int, produced: Int) {
        var inLen = UInt32(frames)
        var outLen = UInt32(capacity)
        let err = speex_resampler_process_interleaved_float(state, input, &inLen, output, &outLen)
        guard err == 0 else { throw AUPipeError(.software, "speexdsp's resampler failed (its error \(err))") }
        return (Int(inLen), Int(outLen))
    }

    @discardableResult
    package func setRatio(_ outputPerInput: Double) throws -> ResampleRatio {
        guard let next = try nextRatio(outputPerInput) else { return ratio }
        var num: UInt32 = 0, den: UInt32 = 0
        speex_resampler_get_ratio(state, &num, &den)
        // The first change from a nominal ratio carries the phase from its denominator over.
        guard next.input <= Int64(UInt32.max), UInt64(den) * UInt64(next.output) <= UInt64(UInt32.max) else {
            throw AUPipeError(.software, "speexdsp cannot move its ratio from \(den)/\(num) to \(next)")
        }
        let err = speex_resampler_set_rate_frac(state, UInt32(next.input), UInt32(next.output), UInt32(inputRate), UInt32(outputRate))
        guard err == 0 else { throw AUPipeError(.software, "speexdsp could not change its ratio to \(next) (its error \(err))") }
        ratio = next
        return next
    }

    package func representable(_ outputPerInput: Double) -> ResampleRatio { Self.fraction(outputPerInput) }

    /// The ratio nearest `outputPerInput` with output part `ratioDenominator`, whose input
    /// part is not a multiple of it (speex would reduce the fraction, and the phase with it).
    package static func fraction(_ outputPerInput: Double) -> ResampleRatio {
        let exact = Double(ratioDenominator) / outputPerInput
        var input = max(1, Int64(exact.rounded()))
        if input % ratioDenominator == 0 { input += exact >= Double(input) ? 1 : -1 }
        return ResampleRatio(output: ratioDenominator, input: input)
    }
}
