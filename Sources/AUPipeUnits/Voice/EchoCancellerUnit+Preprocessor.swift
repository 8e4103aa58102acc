import AUPipeFormats
import AUPipeGraph

/// `aec preprocessor=`: where speex's preprocessor's residual echo and noise suppression run.
extension EchoCancellerUnit {
    /// `preprocessor=`'s values.
    public enum PreprocessorPlace: String, CaseIterable, Sendable {
        /// In the residual echo suppressor's STFT (`SuppressorPreprocess`), when that is all the
        /// preprocessor has to do: one microphone, `residual=1`, no `agc=`, `vad=` or `dereverb=`.
        /// One overlap-add instead of two: one frame less latency. Otherwise as `speex`.
        case inside
        /// speex's own preprocessor before the residual echo suppressor (one frame of its own).
        case speex
    }
}

extension EchoCancellerUnit.Keys {
    /// Where the preprocessor's residual echo and noise suppression run (with `preprocess=1`).
    public static let preprocessor = Parameter("preprocessor", .choice(EchoCancellerUnit.PreprocessorPlace.self), default: .speex,
                                               help: "inside: echo and noise suppression in the suppressor (a frame less latency); speex: speex's own")
}
