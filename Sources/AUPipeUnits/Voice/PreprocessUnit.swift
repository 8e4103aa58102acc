import AUPipeFormats
import AUPipeGraph

/// `denoise` and `agc`: speexdsp's preprocessor without an echo canceller, one state per channel.
///
/// Frames of `frame=` (`FixedFrames`) go through speex in 16-bit samples, one preprocessor per
/// channel (`PerChannel`); the preprocessor's one-frame delay is removed and the output has
/// exactly the input's frame count.
public final class PreprocessUnit: AudioUnit, StatsReporting {
    public static let denoiseDescriptor = UnitDescriptor(
        name: "denoise",
        summary: "reduce stationary noise (speexdsp preprocessor)",
        details: "Suppresses stationary noise by up to db= (speex's spectral noise suppression; -15 is speex's default), per channel, in frames of frame= at 16-bit precision (samples beyond full scale are clipped on the way in, and counted in --stats). The output has exactly the input's length and no added delay (the preprocessor's one frame is removed).",
        parameters: [Keys.db, VoiceParameters.frame],
        primary: Keys.db.name,
        example: "aupipe denoise -20 < noisy.wav > clean.wav",
        exercise: UnitExercise(["-20"]),
        manual: denoiseManual,
        frameNeeds: VoiceParameters.preprocessorFrameNeeds,
        make: { v in
            var s = PreprocessSettings()
            s.denoise = v[Keys.db]
            return PreprocessUnit(name: "denoise", settings: s, frame: v[VoiceParameters.frame])
        })

    public static let agcDescriptor = UnitDescriptor(
        name: "agc",
        summary: "automatic gain control (speexdsp preprocessor)",
        details: "Brings speech towards level= (speex's AGC target in 16-bit sample units, 1 to 32768; 8000 is speex's default, about -12 dBFS), per channel, in frames of frame= at 16-bit precision (samples beyond full scale are clipped on the way in, and counted in --stats). The output has exactly the input's length and no added delay (the preprocessor's one frame is removed).",
        parameters: [Keys.level, VoiceParameters.frame],
        primary: Keys.level.name,
        example: "aupipe agc 12000 < quiet.wav > level.wav",
        exercise: UnitExercise(["12000"]),
        manual: agcManual,
        frameNeeds: VoiceParameters.preprocessorFrameNeeds,
        make: { v in
            var s = PreprocessSettings()
            s.agcLevel = v[Keys.level]
            return PreprocessUnit(name: "agc", settings: s, frame: v[VoiceParameters.frame])
        })

    private let name: String
    private let settings: PreprocessSettings
    private let frameLength: StreamDuration
    /// One preprocessor per channel, run on each whole frame of `frames`.
    private var channels: PerChannel<PreprocessChannel>?
    private var frames: FixedFrames?
    /// Samples clipped going into speex's 16-bit frames.
    public var clippedSamples: Int { channels?.instances.reduce(0) { $0 + $1.clipped } ?? 0 }

    package init(name: String, settings: PreprocessSettings, frame: StreamDuration) {
        self.name = name
        self.settings = settings
        frameLength = frame
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        let frameFrames = try VoiceParameters.frameFrames(frameLength, rate: input.sampleRate, unit: name)
        channels = try PerChannel(channels: input.channels, maxFrames: frameFrames) { [settings] _ in
            try PreprocessChannel(frameFrames: frameFrames, sampleRate: input.sampleRate, settings: settings)
        }
        // speex's preprocessor gives each frame out one frame later: that latency is trimmed.
        frames = VoiceParameters.preprocessorFrameNeeds.fixedFrames(frameFrames, channels: input.channels, latency: frameFrames)
        return input
    }

    /// speexdsp's preprocessor writes 16-bit integers (`Speex16`).
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { min(input, Speex16.precision) }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { frames?.maxOutput(forInput: inputFrames) ?? inputFrames }

    public func process(_ input: UnsafePointer<Float>, frames count: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let frames else { return 0 }
        return try frames.push(input, frames: count, into: output) { try runFrame() }
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let frames else { return (0, true) }
        return try frames.drain(into: output, capacity: capacity) { try runFrame() }
    }

    /// Each channel of `frames.frame` through its own preprocessor into `frames.frameOut`.
    private func runFrame() throws {
        guard let frames, let channels else { return }
        try channels.run(frames.frame, frames: frames.frameFrames, into: frames.frameOut)
    }
}
