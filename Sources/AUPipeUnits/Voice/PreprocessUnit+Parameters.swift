import AUPipeFormats
import AUPipeGraph

/// `denoise`'s and `agc`'s parameters; `frame=` is `VoiceParameters.frame`.
extension PreprocessUnit {
    public enum Keys {
        /// `denoise`'s largest noise attenuation in dB, −100...0.
        public static let db = Parameter("db", VoiceParameters.suppressionDB, default: -15, help: "largest noise attenuation")
        /// `agc`'s target level in speex's 16-bit units, 1...32768.
        public static let level = Parameter("level", VoiceParameters.agcLevel, default: 8000, help: "target level in 16-bit units")
    }
}
