/// `aec`'s parameters; `frame=` is `VoiceParameters.frame`.
extension EchoCancellerUnit {
    public enum Keys {
        /// The far end: `PATH[,format=SPEC]`; this or `refChannel`.
        public static let ref = OptionalParameter("ref", .reference, help: "the far end: PATH[,format=SPEC] (a file, FIFO or <(command))")
        /// The input channel (from 0, up to 63) that carries the far end; this or `ref`.
        public static let refChannel = OptionalParameter("ref-channel", .integer(0...63), help: "take the far end from this input channel instead")
        /// Loudspeakers, 1...8: channels of the far end speex models separately.
        public static let speakers = Parameter("speakers", .integer(1...8), default: 1, help: "loudspeakers the far end of ref= plays on: 1 mixes it to mono, N keeps N channels")
        /// The reference's delay, 0...2000 ms (a bare number in ms), or auto.
        public static let delay = Parameter("delay", .durationOrAuto(0...2, bareUnit: .milliseconds), default: .auto, help: "delay of the reference, or auto (found from the signals)")
        /// The largest delay auto looks for, 10...2000 ms.
        public static let maxDelay = Parameter("max-delay", .duration(0.01...2, bareUnit: .milliseconds), default: .milliseconds(500), help: "largest delay auto looks for")
        /// The echo length the filter covers, 10...2000 ms.
        public static let tail = Parameter("tail", .duration(0.01...2, bareUnit: .milliseconds), default: .milliseconds(200), help: "echo length the filter covers")
        public static let preprocess = Parameter("preprocess", .boolean, default: true, help: "run speex's preprocessor (residual echo, noise, AGC)")
        /// Residual echo suppression in dB, −100...0.
        public static let suppress = Parameter("suppress", VoiceParameters.suppressionDB, default: -40, help: "residual echo suppression while only the far end talks")
        /// Residual echo suppression in dB while both talk, −100...0.
        public static let suppressActive = Parameter("suppress-active", VoiceParameters.suppressionDB, default: -15, help: "residual echo suppression while both talk")
        /// Noise suppression in dB, −100...0; off unless given.
        public static let denoise = OptionalParameter("denoise", VoiceParameters.suppressionDB, help: "noise suppression (off unless given)")
        /// AGC target level in speex's 16-bit units, 1...32768; off unless given.
        public static let agc = OptionalParameter("agc", VoiceParameters.agcLevel, help: "automatic gain control to this level (speex's 16-bit units; off unless given)")
        public static let vad = Parameter("vad", .boolean, default: false, help: "voice activity detection")
        public static let dereverb = Parameter("dereverb", .boolean, default: false, help: "dereverberation")
    }
}
