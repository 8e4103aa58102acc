import AUPipeFormats
import AUPipeGraph

/// `echo`'s parameters.
extension EchoUnit {
    /// The longest echo delay: 10 s.
    package static let maxDelaySeconds = 10.0
    /// The longest tail `extend=1` adds: 60 s, however slowly a feedback near 1 decays.
    package static let maxTailSeconds = 60.0
    /// Where `extend=1` ends the tail: when the echoes have decayed by 120 dB (a factor 10^-6),
    /// below the last bit of 16-bit and 24-bit output.
    package static let tailFloor = 1e-6

    public enum Keys {
        /// The time between echoes, D; live.
        public static let delay = Parameter("delay", .duration(0.001...EchoUnit.maxDelaySeconds, bareUnit: .milliseconds), default: .milliseconds(250),
                                            help: "time between echoes (whole frames)", live: true)
        /// The gain of each echo relative to the one before, below 1; live.
        public static let feedback = Parameter("feedback", .feedback, default: 0.4,
                                               help: "each echo's gain relative to the one before; below 1", live: true)
        /// The share of the echoes in the output: (1 − mix)·x + mix·w; live.
        public static let mix = Parameter("mix", .number(0...1, unit: ""), default: 0.3, help: "output = (1-mix) x + mix w", live: true)
        /// A one-pole low-pass in the feedback path, in Hz; off unless given.
        public static let lowpass = OptionalParameter("lowpass", .number(10...384_000, unit: "Hz"), help: "low-pass each echo's repeat (one pole)")
        /// Keeps the tail until the echoes have decayed by 120 dB.
        public static let extend = Parameter("extend", .boolean, default: false, help: "keep the echoes' tail (until -120 dB, at most 60 s)")
    }
}
