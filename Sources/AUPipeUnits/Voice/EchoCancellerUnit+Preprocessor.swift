import AUPipeFormats
import AUPipeGraph

/// `aec preprocess=`: whether speex's preprocessor's work is done, and where.
extension EchoCancellerUnit {
    /// `preprocess=`'s values.
    public enum PreprocessMode: String, Equatable, Sendable {
        /// `1` (`on`): with one microphone, `residual=1` and no `agc=`, `vad=` or `dereverb=`, the
        /// preprocessor's residual echo and noise suppression run inside the residual echo
        /// suppressor's STFT (`SuppressorPreprocess`): one overlap-add, one frame of latency;
        /// otherwise speex's preprocessor runs, as with `speex`.
        case on = "1"
        /// `0` (`off`): no preprocessor, no residual echo suppressor, no comfort noise.
        case off = "0"
        /// speex's own preprocessor, then the residual echo suppressor (a frame of latency each).
        case speex
    }

    /// `preprocess=`'s kind: a boolean, or the word `speex`.
    struct PreprocessKind: ParameterKind {
        var typeDescription: String { "boolean, 0/1, on/off, or speex" }
        func parse(_ text: String, of parameter: ParameterDescriptor, unit: String, index: Int) throws -> ParameterValue {
            if text.lowercased() == PreprocessMode.speex.rawValue { return .text(PreprocessMode.speex.rawValue) }
            let boolean = ParameterDescriptor(parameter.name, .boolean, default: nil, help: parameter.help)
            do {
                return try boolean.parse(text, unit: unit, index: index)
            } catch {
                throw parameter.malformed(text, unit: unit, "is neither a boolean (0/1, on/off) nor speex")
            }
        }
    }
}

extension ParameterType where Value == EchoCancellerUnit.PreprocessMode {
    /// `preprocess=`'s values: a boolean or `speex`.
    static var preprocessMode: Self {
        Self(.custom(EchoCancellerUnit.PreprocessKind()),
             read: {
                 switch $0 {
                 case .bool(let on): on ? .on : .off
                 case .text(let word): EchoCancellerUnit.PreprocessMode(rawValue: word)
                 default: nil
                 }
             },
             text: \.rawValue)
    }
}
