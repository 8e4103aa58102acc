import AUPipeFormats
import AUPipeGraph

/// `aec`'s descriptor: its name, help text, parameters and example (`aupipe help aec`); its
/// section of the manual is `manualText` (EchoCancellerUnit+Manual*.swift).
extension EchoCancellerUnit {
    public static let descriptor = UnitDescriptor(
        name: "aec",
        summary: "cancel the loudspeaker's echo (speexdsp echo canceller + preprocessor)",
        details: helpDetails,
        parameters: [Keys.ref, Keys.refChannel, Keys.speakers, Keys.delay, Keys.maxDelay, Keys.tail, Keys.frame, Keys.preprocess,
                     Keys.suppress, Keys.suppressActive, Keys.residual, Keys.nonlinear, Keys.comfort, Keys.bands, Keys.denoise, Keys.agc, Keys.vad, Keys.dereverb, Keys.drift, Keys.plot, Keys.live],
        primary: Keys.ref.name,
        example: "arecord -t raw -f S16_LE -r 16000 -c 1 | aupipe --live --in-format s16le:16000:1 aec ref=played.wav delay=auto -t wav > clean.wav",
        exercise: UnitExercise(["ref=\(UnitExercise.sideInput)"]),
        manual: manualText,
        // Whole frames of frame= (speexdsp's), the post-filter's latency removed from the output.
        frameNeeds: FrameNeeds(frames: .fixed(VoiceParameters.minimumFrames...Int(VoiceParameters.frameRange.upperBound * 768_000)),
                               latency: true),
        make: { v in try EchoCancellerUnit(v) })
}
