import AUPipeFormats
import AUPipeGraph

/// `loudnorm`'s parameters.
extension LoudnormUnit {
    public enum Keys {
        /// Integrated loudness aimed at, LUFS, −70...−5; live.
        public static let target = Parameter("target", .number(-70...(-5), unit: "LUFS"), default: -16,
                                             help: "integrated loudness to aim at, in LUFS", live: true)
        /// Ceiling of the output's true peak, dBTP, −9...0; live.
        public static let truePeak = Parameter("true-peak", .number(-9...0, unit: "dBTP"), default: -1.5,
                                               help: "the output's true peak stays at or below this, in dBTP (4x oversampled)", live: true)
        /// Largest loudness range kept, LU, 1...50; live.
        public static let range = Parameter("range", .number(1...50, unit: "LU"), default: 7,
                                            help: "largest loudness range kept, in LU: passages further than range/2 from the integrated loudness are brought back only to that distance", live: true)
    }
}
