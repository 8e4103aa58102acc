/// `denoise` and `agc`: speexdsp's preprocessor without an echo canceller, one state per channel.
///
/// Frames of `frame=` go through speex in 16-bit samples; the preprocessor's one-frame delay is
/// removed and the output has exactly the input's frame count.
public final class PreprocessUnit: AudioUnit, StatsReporting {
    public static let denoiseDescriptor = UnitDescriptor(
        name: "denoise",
        summary: "reduce stationary noise (speexdsp preprocessor)",
        details: "Suppresses stationary noise by up to db= (speex's spectral noise suppression; -15 is speex's default), per channel, in frames of frame= at 16-bit precision (samples beyond full scale are clipped on the way in, and counted in --stats). The output has exactly the input's length and no added delay (the preprocessor's one frame is removed).",
        parameters: [Keys.db, VoiceParameters.frame],
        primary: Keys.db.name,
        example: "aupipe denoise -20 < noisy.wav > clean.wav",
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
        make: { v in
            var s = PreprocessSettings()
            s.agcLevel = v[Keys.level]
            return PreprocessUnit(name: "agc", settings: s, frame: v[VoiceParameters.frame])
        })

    private let name: String
    private let settings: PreprocessSettings
    private let frameLength: StreamDuration
    private var preprocessors: [Preprocessor] = []
    private var blocker: FrameBlocker?
    private var channels = 1, frameFrames = 160
    private var frame16: UnsafeMutablePointer<Int16>?
    /// Samples clipped going into speex's 16-bit frames.
    private var clipped = 0
    public var clippedSamples: Int { clipped }

    init(name: String, settings: PreprocessSettings, frame: StreamDuration) {
        self.name = name
        self.settings = settings
        frameLength = frame
    }

    deinit { frame16?.deallocate() }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        channels = input.channels
        frameFrames = try VoiceParameters.frameFrames(frameLength, rate: input.sampleRate, unit: name)
        preprocessors = try (0..<channels).map { _ in
            try Preprocessor(frameFrames: frameFrames, sampleRate: input.sampleRate, settings: settings, echo: nil)
        }
        blocker = FrameBlocker(frameFrames: frameFrames, channels: channels, outputChannels: channels, latency: frameFrames)
        frame16 = .allocate(capacity: frameFrames)
        return input
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { blocker?.maxOutput(forInput: inputFrames) ?? inputFrames }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        blocker!.push(input, frames: frames, into: output) { runFrame() }
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        (blocker!.finish(into: output) { runFrame() }, true)
    }

    /// Each channel of `blocker.frame` through its own preprocessor into `blocker.frameOut`.
    private func runFrame() {
        guard let blocker, let frame16 else { return }
        let ch = channels
        for c in 0..<ch {
            for f in 0..<frameFrames { frame16[f] = SampleCodec.s16(blocker.frame[f * ch + c], clipped: &clipped) }
            preprocessors[c].run(frame16)
            for f in 0..<frameFrames { blocker.frameOut[f * ch + c] = Float(frame16[f]) * (1 / 32768) }
        }
    }
}
