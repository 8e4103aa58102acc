import AUPipeFormats

/// Sample-rate conversion exact in length and alignment, around any `ResamplerEngine`: the
/// bookkeeping `resample` promises, in one place.
///
/// For N input frames it produces round(N × out / in) frames (halves up) with zero delay: the
/// engine's input latency is skipped at the start (`skipLatency`: the library aligns its own
/// output) and its tail flushed with zeros at the end (`drain`) up to that length, which a
/// `LatencyTrim` keeps, so input frame k lands at output time k × out / in.
///
/// The ratio may move while running (`setRatio`, for clock-drift tracking, within `maxDrift`
/// of nominal): the output then has round(Σ frames × ratio) frames, the integral of the ratio
/// over the input, within a frame or two (what the engine holds back when the ratio moves
/// comes out at the new ratio, and an engine that cannot represent a ratio exactly
/// approximates it, see `setRatio`).
public final class Resampler {
    /// The largest ratio between input and output rate, either way.
    public static let maxRatio = 1024

    public let channels: Int
    public let inputRate: Int
    public let outputRate: Int
    public let settings: ResamplerSettings
    /// The engine's input latency at the start, in input frames (compensated).
    public let latency: Int
    /// How far `setRatio` may move the ratio from nominal, as a fraction either way.
    public let maxDrift: Double
    private let engine: any ResamplerEngine
    /// Input frames consumed so far.
    public private(set) var framesIn: Int64 = 0
    /// The output frames written, and the length the tail is flushed to.
    private var trim = LatencyTrim()
    /// Output frames produced so far.
    public var framesOut: Int64 { trim.framesOut }
    /// The ratio the engine applies, since `segmentStart` input frames, and the output the
    /// ratios before implied up to there: `baseFrames` whole frames and `baseFraction` (0..<1)
    /// of one.
    public private(set) var ratio: ResampleRatio
    private var segmentStart: Int64 = 0
    private var baseFrames: Int64 = 0
    private var baseFraction = 0.0
    /// Once `setRatio` has been called: the output frames the target implied that the ratios
    /// applied did not give (negative: gave beyond it), to make up in the next blocks.
    private var tracking = false
    private var owed = 0.0
    /// The ratio asked for by `setRatio`, in output frames per input frame (nominal before).
    public private(set) var target: Double
    /// Silence fed through the engine to flush its tail.
    private let zeros: UnsafeMutablePointer<Float>
    private let zeroFrames: Int
    /// Output room beyond frames × ratio that `process` asks for: 4 frames, and with a moving
    /// ratio what the engine may give out besides when its filter shrinks.
    private let slack: Int
    /// With a moving ratio, the highest the engine may apply (output frames per input frame).
    private let highestRatio: Double

    /// A converter of `channels` interleaved channels (1...64) from `inputRate` to
    /// `outputRate` Hz (different, 1...768000, at most `maxRatio` apart) with `settings`, for
    /// blocks of up to `maxFrames` frames. `maxDrift` (0...0.01, a fraction: 0.001 is
    /// ±1000 ppm) lets `setRatio` move the ratio that far from nominal; 0 fixes it.
    /// Errors start with `resample: `.
    public init(channels: Int, from inputRate: Int, to outputRate: Int, settings: ResamplerSettings = .default,
                maxFrames: Int, maxDrift: Double = 0) throws {
        precondition((0...0.01).contains(maxDrift), "maxDrift is 0...0.01")
        self.channels = channels
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.settings = settings
        self.maxDrift = maxDrift
        let nominal = Double(outputRate) / Double(inputRate)
        let ratios = maxDrift > 0 ? nominal * (1 - maxDrift)...nominal * (1 + maxDrift) : nil
        do {
            engine = try settings.engine.make(channels: channels, inputRate: inputRate, outputRate: outputRate,
                                              quality: settings.quality, ratios: ratios)
        } catch let e as AUPipeError { throw e.prefixed("resample") }
        engine.skipLatency()
        latency = engine.inputLatency
        ratio = engine.ratio
        target = ratio.value
        slack = maxDrift > 0 ? 4 + 2 * latency + 8 : 4
        highestRatio = max(nominal * (1 + maxDrift), engine.representable(nominal * (1 + maxDrift)).value)
        zeroFrames = max(maxFrames, 64)
        zeros = .allocate(capacity: zeroFrames * channels)
        zeros.initialize(repeating: 0, count: zeroFrames * channels)
    }

    deinit { zeros.deallocate() }

    /// Total output for `frames` input frames at a fixed ratio: round(frames × out / in),
    /// halves up.
    public static func expectedOutputFrames(_ frames: Int64, from inRate: Int, to outRate: Int) -> Int64 {
        (frames * Int64(outRate) * 2 + Int64(inRate)) / (2 * Int64(inRate))
    }

    /// The output frames the ratio implies for the input so far: round(Σ frames × ratio),
    /// halves up; with a fixed ratio exactly `expectedOutputFrames(framesIn, ...)`. `drain`
    /// ends the output there.
    public var impliedOutputFrames: Int64 {
        let product = (framesIn - segmentStart) * ratio.output
        let whole = product / ratio.input, rest = product % ratio.input
        if baseFraction == 0 { return baseFrames + whole + (2 * rest + ratio.input) / (2 * ratio.input) }
        return baseFrames + whole + Int64((Double(rest) / Double(ratio.input) + baseFraction + 0.5).rounded(.down))
    }

    /// The most frames `process` writes for `inputFrames` frames.
    public func maxOutputFrames(forInput inputFrames: Int) -> Int {
        if maxDrift == 0 {
            return Int((Int64(inputFrames) * Int64(outputRate) + Int64(inputRate) - 1) / Int64(inputRate)) + slack
        }
        return Int((Double(inputFrames) * highestRatio).rounded(.up)) + slack
    }

    /// Converts `frames` interleaved frames; writes to `output` (room for
    /// `maxOutputFrames(forInput: frames)` frames) and returns how many.
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        if tracking { try applyTarget(frames: frames) }
        let (consumed, produced) = try engine.process(input, frames: frames, into: output, capacity: maxOutputFrames(forInput: frames))
        guard consumed == frames else {
            throw AUPipeError(.software, "resample: \(engine.name) consumed \(consumed) of \(frames) frames")
        }
        framesIn += Int64(frames)
        trim.wrote(produced)
        if tracking { owed += Double(frames) * (target - ratio.value) }
        return produced
    }

    /// After the end of the input: writes up to `capacity` frames of the tail to `output`, until
    /// the output has `impliedOutputFrames` frames (then `done`).
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        trim.owe(upTo: impliedOutputFrames)
        let wanted = Int(min(Int64(capacity), trim.owed))
        guard wanted > 0 else { return (0, true) }
        let (consumed, produced) = try engine.process(zeros, frames: zeroFrames, into: output, capacity: wanted)
        guard consumed > 0 || produced > 0 else {
            throw AUPipeError(.software, "resample: \(engine.name) made no progress while flushing its tail")
        }
        trim.wrote(produced)
        return (produced, !trim.owesOutput)
    }

    /// Moves the ratio to `factor` times nominal (1 + drift: 1.0001 gives 100 ppm more output
    /// frames per input frame), within `maxDrift`, from the next block on. The engine's filter
    /// keeps its phase (no click). An engine that cannot represent the ratio exactly (speexdsp
    /// near a ratio of small integers: 1/1 moves in steps of 15 ppm) is given, block by block,
    /// the fraction that keeps its output nearest the ratio's integral: it alternates between
    /// neighbouring fractions, which averages to the ratio asked for.
    public func setRatio(nominalTimes factor: Double) throws {
        guard factor.isFinite, abs(factor - 1) <= maxDrift * (1 + 1e-9) else {
            throw AUPipeError(.software, "resample: ratio factor \(factor) is beyond the drift of \(maxDrift) allowed")
        }
        target = Double(outputRate) / Double(inputRate) * factor
        tracking = true
    }

    /// Gives the engine the ratio that brings the output nearest the target's integral over
    /// this block, and counts the output at the ratio it applies.
    private func applyTarget(frames: Int) throws {
        let nominal = Double(outputRate) / Double(inputRate)
        let request = min(max(target + owed / Double(frames), nominal * (1 - maxDrift)), nominal * (1 + maxDrift))
        let next = try engine.setRatio(request)
        guard next != ratio else { return }
        // Fold what the old ratio implied for the input so far into the base.
        let product = (framesIn - segmentStart) * ratio.output
        baseFrames += product / ratio.input
        baseFraction += Double(product % ratio.input) / Double(ratio.input)
        if baseFraction >= 1 {
            baseFrames += 1
            baseFraction -= 1
        }
        segmentStart = framesIn
        ratio = next
    }
}
