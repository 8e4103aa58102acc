import AUPipeFormats
import AUPipeGraph

/// `resample`: sample-rate conversion, exact in length and alignment (`Resampler`'s
/// bookkeeping around a `ResamplerEngine`: libsoxr's or speexdsp's resampler).
///
/// For N input frames at rate `in` it produces exactly round(N × out / in) frames (halves round
/// up), with zero group delay: the filter's input latency is skipped at the start and its tail
/// flushed with zeros at the end, so input frame k lands at output time k × out / in. Equal
/// rates bypass the unit (or, when it must run, copy the frames).
public final class ResampleUnit: AudioUnit, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "resample",
        summary: "change the sample rate (libsoxr or speexdsp resampler)",
        details: """
            Converts to rate= with engine= at quality=. engine=soxr is libsoxr, quality= one of its recipes quick, low, medium, high (its default) or very-high; engine=speex is speexdsp's polyphase resampler, quality= 0 fastest ... 10 best (3 is speex's VoIP setting, 4 its default). Without engine= and quality=: soxr at high, the default, also for the implicit conversions (--out-format with a rate, mix buses, aec's reference); it rejects aliases by about 147 dB in half of sox's time (see the manual). In a real-time run (--live or --capture) the default is the low-latency one instead, speex at quality 5, for resample and the implicit conversions alike: its filter looks ahead 40 frames at the lower of the two rates (2.5 ms at 16 kHz, 5 ms at 8 kHz), where soxr's recipes hold back a few hundred to a few thousand input frames before their first output; without --live nothing changes. --stats names the engine used. A quality= without engine= names its engine: an integer is speex's (quality=3 gives the bytes of earlier versions), a recipe soxr's. The two rates may differ by a factor of up to 1024 either way.
            Length is exact: N input frames give round(N x out / in) output frames. Delay is zero: the filter latency is compensated at the start and its tail is flushed at the end of the stream, so an impulse lands on its ideal output sample. Equal rates pass the stream through untouched.
            """,
        parameters: [Keys.rate, Keys.engine, Keys.quality],
        primary: Keys.rate.name,
        example: "aupipe resample 16000 quality=6 < in48k.wav > out16k.wav",
        exercise: UnitExercise(["16000"], length: .resampled),
        manual: manualText,
        frameNeeds: FrameNeeds(latency: true),
        make: { v in
            guard let rate = v[Keys.rate] else {
                throw AUPipeError.usage("resample: needs an output rate, e.g. 'resample 16000' or 'resample rate=44.1k'")
            }
            return ResampleUnit(rate: rate, settings: try settings(engine: v.explicit.contains(Keys.engine.name) ? v[Keys.engine] : nil,
                                                                  quality: v[Keys.quality]))
        })

    /// The largest ratio between input and output rate, either way.
    public static let maxRatio = Resampler.maxRatio

    /// Output rate in Hz.
    public let rate: Int
    /// The settings asked for (`engine=`, `quality=`), or nil for the run's default
    /// (`ResamplerSettings.runDefault`: the low-latency one in real time), decided in `prepare`.
    public let requested: ResamplerSettings?
    /// The engine's quality (speexdsp: 0...10; libsoxr: 0...4, `SoxrRecipe.index`); before
    /// `prepare` without `requested`, the default of a run that is not real time.
    public private(set) var quality: Int
    /// The library that converts (as `quality`).
    public private(set) var engine: ResamplerEngineKind
    private var resampler: Resampler?
    private var inRate = 0
    private var channels = 1

    /// A speexdsp resampler at `quality` (0...10).
    public convenience init(rate: Int, quality: Int) {
        self.init(rate: rate, settings: ResamplerSettings(engine: .speex, quality: quality))
    }

    /// A resampler with `settings`, or (nil) the run's default for a conversion nobody asked
    /// to tune (`ResamplerSettings.runDefault`, decided in `prepare`).
    public init(rate: Int, settings: ResamplerSettings?) {
        self.rate = rate
        requested = settings
        let initial = settings ?? .default
        quality = initial.quality
        engine = initial.engine
    }

    public var settings: ResamplerSettings { ResamplerSettings(engine: engine, quality: quality) }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        inRate = input.sampleRate
        channels = input.channels
        var output = input
        output.sampleRate = rate
        let chosen = requested ?? .runDefault(context.realTime)
        engine = chosen.engine
        quality = chosen.quality
        guard inRate != rate else { return output }
        // speexdsp's filter grows with the ratio and its cost with the square of it.
        guard rate * Self.maxRatio >= inRate, inRate * Self.maxRatio >= rate else {
            throw AUPipeError.usage("resample: \(inRate) Hz to \(rate) Hz is a ratio beyond 1:\(Self.maxRatio); resample in two steps, or choose a rate between \((inRate + Self.maxRatio - 1) / Self.maxRatio) and \(min(768_000, inRate * Self.maxRatio)) Hz")
        }
        resampler = try Resampler(channels: channels, from: inRate, to: rate, settings: settings, maxFrames: context.maxFrames)
        return output
    }

    public var isBypassed: Bool { inRate == rate }

    /// Total output for `frames` input frames: round(frames × out / in), halves up.
    public static func expectedOutputFrames(_ frames: Int64, from inRate: Int, to outRate: Int) -> Int64 {
        Resampler.expectedOutputFrames(frames, from: inRate, to: outRate)
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int {
        resampler?.maxOutputFrames(forInput: inputFrames) ?? inputFrames
    }

    public var statsNote: String? {
        "\(inRate) Hz -> \(rate) Hz, \(engine.rawValue) quality \(settings.qualityName), filter latency \(resampler?.latency ?? 0) input frames (compensated)"
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let resampler else {
            // Equal rates, run rather than bypassed (under --control): the frames as they are.
            output.update(from: input, count: frames * channels)
            return frames
        }
        return try resampler.process(input, frames: frames, into: output)
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        try resampler?.drain(into: output, capacity: capacity) ?? (0, true)
    }
}
