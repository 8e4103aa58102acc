import AUPipeFormats
import CSoxr
import Synchronization

/// libsoxr's resampler (`soxr.h`, 0.1.3) as a `ResamplerEngine`: 32-bit float interleaved in
/// and out (`SOXR_FLOAT32_I`), no dither, one thread (the same bytes every run).
///
/// At a fixed ratio it runs one of soxr's recipes (`SoxrRecipe`: quick ... very-high), which
/// compensate their own filter delay: the first output frame is already aligned with the first
/// input frame, so `skipLatency` has nothing to do, and zeros fed at the end push out the tail.
///
/// Allowed to drift (`ratios` wider than the nominal ratio), it runs soxr's variable-rate mode
/// instead (`SOXR_VR`, the ratio changed with `soxr_set_io_ratio`). soxr 0.1.3 has one
/// variable-rate filter whatever the recipe (the recipe is ignored in that mode), of about
/// high's quality. Its own delay compensation is not exact: at a held ratio an impulse's peak
/// comes out 2 output frames late when downsampling or at equal rates (its centre of gravity,
/// the delay at low frequencies, 1.61 late: that filter is not linear-phase, it rings after
/// the peak), and its centre half a frame early when upsampling (the filter is symmetric
/// there). The engine measures the centre once when it is made (`variableOffset`, through a
/// mono twin, deterministic) and moves the output by the nearest whole frame (drops frames at
/// the start, or writes zeros first; half a frame is left alone): the impulse's peak then
/// lands on its ideal sample when downsampling; the residual is 0.39 frame early at low
/// frequencies there, and up to half a frame when upsampling (exactly half at 16k->48k, where
/// the ideal instant falls between two equal output frames; 0.23 at 44.1k->48k).
package final class SoxrResamplerEngine: ResamplerEngine {
    /// The input part of every ratio `setRatio` applies: ratios move in steps of 2^-24 input
    /// frames per output frame (0.06 ppm at equal rates).
    package static let ratioInputPart: Int64 = 1 << 24

    package let name = "libsoxr"
    private let state: soxr_t
    private let recipe: SoxrRecipe
    private let variable: Bool
    private let channels: Int
    /// Variable-rate mode: output frames still to drop at the start (soxr late), or zero
    /// frames still to write before soxr's first (soxr early).
    private var pendingDrop = 0
    private var pendingZeros = 0
    /// Variable-rate mode: where soxr puts an impulse, in output frames after its ideal
    /// instant, as measured (0 at a fixed ratio, where the recipes align exactly).
    package let variableOffset: Double
    package private(set) var ratio: ResampleRatio
    package let inputLatency: Int

    /// See `ResamplerEngineKind.make`; `recipe` is ignored when `ratios` is wider than the
    /// nominal ratio (soxr's variable-rate mode has one filter).
    package init(channels: Int, inputRate: Int, outputRate: Int, recipe: SoxrRecipe, ratios: ClosedRange<Double>?) throws {
        self.recipe = recipe
        self.channels = channels
        let nominal = ResampleRatio(output: Int64(outputRate), input: Int64(inputRate))
        ratio = nominal
        variable = ratios.map { $0.lowerBound != $0.upperBound } ?? false
        if variable, let ratios {
            // In variable-rate mode soxr is created with the largest input/output ratio it will see.
            state = try Self.create(channels: channels, inputRate: 1 / ratios.lowerBound, outputRate: 1,
                                    recipe: UInt(SOXR_20_BITQ), flags: UInt(SOXR_VR))
            let err = soxr_set_io_ratio(state, Double(inputRate) / Double(outputRate), 0)
            if let err { soxr_delete(state); throw AUPipeError.usage("libsoxr cannot vary its ratio around \(inputRate) Hz to \(outputRate) Hz: \(String(cString: err))") }
        } else {
            state = try Self.create(channels: channels, inputRate: Double(inputRate), outputRate: Double(outputRate),
                                    recipe: recipe.soxrRecipe, flags: 0)
        }
        inputLatency = Self.measureLatency(inputRate: inputRate, outputRate: outputRate, recipe: recipe, variable: variable, ratios: ratios)
        if variable, let ratios {
            variableOffset = Self.measureVariableOffset(inputRate: inputRate, outputRate: outputRate, ratios: ratios)
            // The nearest whole frame; an offset of half a frame (upsampling: the ideal instant
            // between two output frames) is left as it is rather than moved to the other side.
            let toward0 = variableOffset.rounded(.towardZero)
            let shift = Int(abs(variableOffset - toward0) <= 0.51 ? toward0 : variableOffset.rounded())
            pendingDrop = max(shift, 0)
            pendingZeros = max(-shift, 0)
        } else {
            variableOffset = 0
        }
    }

    /// Variable-rate mode: how many output frames after its ideal instant soxr puts an impulse
    /// at the nominal ratio (negative: before), measured once on a mono twin: an impulse 4096
    /// input frames in, flushed, and the centre of gravity (first moment) of the response
    /// within 2048 output frames of its peak. The filter is symmetric, so that centre is where
    /// it puts the impulse, to a small fraction of a frame.
    private static func measureVariableOffset(inputRate: Int, outputRate: Int, ratios: ClosedRange<Double>) -> Double {
        guard let probe = try? create(channels: 1, inputRate: 1 / ratios.lowerBound, outputRate: 1,
                                      recipe: UInt(SOXR_20_BITQ), flags: UInt(SOXR_VR)) else { return 0 }
        defer { soxr_delete(probe) }
        soxr_set_io_ratio(probe, Double(inputRate) / Double(outputRate), 0)
        let at = 4096
        let r = Double(outputRate) / Double(inputRate)
        var input = [Float](repeating: 0, count: at + 1 + 8192)
        input[at] = 1
        var output = [Float](repeating: 0, count: Int(Double(input.count) * r * 1.01) + 8192)
        var made = 0, done = 0
        // Feed the impulse and zeros behind it in 256-frame steps, as far as the room allows.
        while done < input.count && made < output.count - 4096 {
            var used = 0, produced = 0
            let n = min(256, input.count - done)
            input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    _ = soxr_process(probe, i.baseAddress! + done, n, &used, o.baseAddress! + made, o.count - made, &produced)
                }
            }
            done += used
            made += produced
            if used == 0 && produced == 0 { break }
        }
        guard made > 0 else { return 0 }
        let y = output[..<made]
        let peak = y.indices.max { abs(y[$0]) < abs(y[$1]) }!
        var moment = 0.0, mass = 0.0
        for i in max(0, peak - 2048)..<min(made, peak + 2049) {
            moment += Double(i) * Double(y[i])
            mass += Double(y[i])
        }
        guard mass != 0 else { return 0 }
        return moment / mass - Double(at) * r
    }

    deinit { soxr_delete(state) }

    /// Held around `soxr_create` (see `create`).
    private static let creating = Mutex<Void>(())

    private static func create(channels: Int, inputRate: Double, outputRate: Double, recipe: UInt, flags: UInt) throws -> soxr_t {
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var quality = soxr_quality_spec(recipe, flags)
        var runtime = soxr_runtime_spec(1)
        var err: soxr_error_t? = nil
        // One soxr_create at a time in the process: libsoxr fills shared FFT tables on first
        // use; unserialised, concurrent pipelines in one process (the in-process tests) gave
        // differing output about one run in four (drift compensation, DriftSceneTests).
        nonisolated(unsafe) var made: soxr_t?
        creating.withLock { _ in made = soxr_create(inputRate, outputRate, UInt32(channels), &err, &io, &quality, &runtime) }
        guard let s = made, err == nil else {
            let why = err.map { String(cString: $0) } ?? "no resampler"
            throw AUPipeError.usage("libsoxr cannot convert \(inputRate) Hz to \(outputRate) Hz: \(why)")
        }
        return s
    }

    /// The input frames soxr takes before its first output frame, measured once on a mono
    /// resampler of the same kind fed one zero frame at a time (at most 2^16).
    private static func measureLatency(inputRate: Int, outputRate: Int, recipe: SoxrRecipe, variable: Bool,
                                       ratios: ClosedRange<Double>?) -> Int {
        guard let probe = try? create(channels: 1, inputRate: variable ? 1 / (ratios?.lowerBound ?? 1) : Double(inputRate),
                                      outputRate: variable ? 1 : Double(outputRate),
                                      recipe: variable ? UInt(SOXR_20_BITQ) : recipe.soxrRecipe, flags: variable ? UInt(SOXR_VR) : 0) else { return 0 }
        defer { soxr_delete(probe) }
        if variable { soxr_set_io_ratio(probe, Double(inputRate) / Double(outputRate), 0) }
        var zero: Float = 0
        var out = [Float](repeating: 0, count: 2048)
        var fed = 0
        while fed < 1 << 16 {
            var done = 0, made = 0
            soxr_process(probe, &zero, 1, &done, &out, out.count, &made)
            fed += done
            if made > 0 { return fed - 1 }
        }
        return fed
    }

    /// soxr compensates its filter delay itself.
    package func skipLatency() {}

    package func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>,
                 capacity: Int) throws -> (consumed: Int, produced: Int) {
        var consumed = 0, produced = 0, zeros = 0
        if pendingZeros > 0 {
            zeros = min(pendingZeros, capacity)
            output.initialize(repeating: 0, count: zeros * channels)
            pendingZeros -= zeros
        }
        if let err = soxr_process(state, input, frames, &consumed, output + zeros * channels, capacity - zeros, &produced) {
            throw AUPipeError(.software, "libsoxr's resampler failed: \(String(cString: err))")
        }
        if pendingDrop > 0 && produced > 0 {
            let drop = min(pendingDrop, produced)
            let start = output + zeros * channels
            UnsafeMutableRawPointer(start).copyMemory(from: start + drop * channels,  // overlapping: memmove
                                                      byteCount: (produced - drop) * channels * MemoryLayout<Float>.size)
            pendingDrop -= drop
            produced -= drop
        }
        return (consumed, zeros + produced)
    }

    @discardableResult
    package func setRatio(_ outputPerInput: Double) throws -> ResampleRatio {
        guard let next = try nextRatio(outputPerInput) else { return ratio }
        guard variable else {
            throw AUPipeError(.software, "libsoxr was made for a fixed ratio; it cannot move to \(next)")
        }
        if let err = soxr_set_io_ratio(state, Double(next.input) / Double(next.output), 0) {
            throw AUPipeError(.software, "libsoxr could not change its ratio to \(next): \(String(cString: err))")
        }
        ratio = next
        return next
    }

    /// The nominal ratio when `outputPerInput` is it, else the fraction nearest it over
    /// `ratioInputPart` input frames.
    package func representable(_ outputPerInput: Double) -> ResampleRatio {
        if outputPerInput == ratio.value { return ratio }
        let output = max(1, Int64((outputPerInput * Double(Self.ratioInputPart)).rounded()))
        return ResampleRatio(output: output, input: Self.ratioInputPart)
    }
}

/// soxr's quality recipes, as `resample engine=soxr quality=` names them.
public enum SoxrRecipe: String, CaseIterable, Sendable {
    /// Cubic interpolation (`SOXR_QQ`).
    case quick
    /// 16-bit precision, large roll-off (`SOXR_LQ`).
    case low
    /// 16-bit precision, medium roll-off (`SOXR_MQ`).
    case medium
    /// 20-bit precision (`SOXR_HQ`).
    case high
    /// 28-bit precision (`SOXR_VHQ`).
    case veryHigh = "very-high"

    /// The recipe's index, 0 (quick) ... 4 (very-high): `ResamplerSettings.quality` for soxr.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    /// soxr's recipe number.
    package var soxrRecipe: UInt {
        switch self {
        case .quick: UInt(SOXR_QQ)
        case .low: UInt(SOXR_LQ)
        case .medium: UInt(SOXR_MQ)
        case .high: UInt(SOXR_20_BITQ)
        case .veryHigh: UInt(SOXR_28_BITQ)
        }
    }
}
