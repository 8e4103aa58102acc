import AUPipeFormats
import AUPipeGraph

/// `aec`'s parameters. The defaults of `tail=`, `frame=`, `suppress=`, `suppress-active=` and
/// `denoise=` were chosen by measurement on the 23 echo scenes of `bench/aec/` (rooms of RT60
/// 0.2–1 s, delays 0–400 ms, noise and babble at 5–45 dB SNR, a saturating loudspeaker, an
/// echo-path change, double talk): those that maximise the worst-case ERLE while the near end
/// keeps ≥ −2 dB in double talk (`bench/aec/compare.py sweep`; the figures are in
/// bench/README.md).
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
        /// The echo length the filter covers, 10...2000 ms: 400 ms covers rooms up to RT60 1 s;
        /// longer adapts more slowly.
        public static let tail = Parameter("tail", .duration(0.01...2, bareUnit: .milliseconds), default: .milliseconds(400), help: "echo length the filter covers")
        /// speexdsp's frame for `aec`, 2.5...100 ms (a bare number in ms): 20 ms cancels more than
        /// 10 ms in every kind of scene, at 10 ms more latency.
        public static let frame = Parameter("frame", .duration(VoiceParameters.frameRange, bareUnit: .milliseconds), default: .milliseconds(20),
                                            help: "speexdsp frame length")
        /// speex's preprocessor's work (`EchoCancellerUnit.PreprocessMode`): 1 (default) does its
        /// residual echo and noise suppression inside the residual echo suppressor where it can
        /// (one frame less latency), `speex` runs speex's own, 0 none.
        public static let preprocess = Parameter("preprocess", .preprocessMode, default: .on,
                                                 help: "residual echo, noise, AGC: 1 (in the suppressor where it can), speex, 0")
        /// Residual echo suppression in dB while only the far end talks, −100...0: −80 (and −30
        /// while both talk) helps the worst case (the saturating loudspeaker) at the same near-end
        /// level in double talk.
        public static let suppress = Parameter("suppress", VoiceParameters.suppressionDB, default: -80, help: "residual echo suppression while only the far end talks")
        /// Residual echo suppression in dB while both talk, −100...0.
        public static let suppressActive = Parameter("suppress-active", VoiceParameters.suppressionDB, default: -30, help: "residual echo suppression while both talk")
        /// The residual echo suppressor after the preprocessor (`ResidualEchoSuppressor`): on by
        /// default with `preprocess=1`; nothing without the preprocessor or with several microphones.
        public static let residual = Parameter("residual", .boolean, default: true, help: "suppress the echo the linear filter leaves (nonlinear, tail), keeping the near end")
        /// The residual echo suppressor's nonlinear canceller (`NonlinearEchoCanceller`: a short
        /// second filter on the far end's x·|x| and x³, for a saturating loudspeaker): on by default; only
        /// with `residual=1`.
        public static let nonlinear = Parameter("nonlinear", .boolean, default: true, help: "cancel a saturating loudspeaker's distortion too (with residual=1)")
        /// Comfort noise (`ComfortNoise`): while the far end talks, what the suppressors took of
        /// the output's background is put back as noise of its level and spectrum (learnt while
        /// the far end is silent), over a floor of one 16-bit step rms; on by default; only with
        /// `preprocess=1` and one microphone.
        public static let comfort = Parameter("comfort", .boolean, default: true, help: "fill what the suppressors took of the background with comfort noise")
        /// Noise suppression in dB, −100...0; 0 leaves the noise as it is (the preprocessor runs
        /// its noise estimate anyway, for the residual echo). −30 cancels more, most in noise, at
        /// little cost to the near end in double talk.
        public static let denoise = Parameter("denoise", VoiceParameters.suppressionDB, default: -30, help: "noise suppression (0: none)")
        /// AGC target level in speex's 16-bit units, 1...32768; off unless given.
        public static let agc = OptionalParameter("agc", VoiceParameters.agcLevel, help: "automatic gain control to this level (speex's 16-bit units; off unless given)")
        public static let vad = Parameter("vad", .boolean, default: false, help: "voice activity detection")
        public static let dereverb = Parameter("dereverb", .boolean, default: false, help: "dereverberation")
        /// Whether a FIFO or pipe `ref=` is read in real time (`RealTimePolicy`); default `auto`:
        /// as the run (real time with `--capture` or `--live`).
        public static let live = RealTimePolicy.parameter("read a FIFO or pipe ref= without waiting (late frames are silence)")
    }
}

extension EchoCancellerUnit {
    /// What `get` reads besides the parameters: the echo return loss enhancement.
    public var readableFigures: [String] { ["erle"] }
}
