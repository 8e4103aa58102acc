import AUPipeFormats
import AUPipeGraph

/// `limiter`'s parameters.
extension LimiterUnit {
    package enum Keys {
        /// The ceiling, dBFS (dBTP with `true-peak=1`), −30...0; live.
        package static let ceiling = Parameter("ceiling", .number(-30...0, unit: "dBFS"), default: -1,
                                       help: "no sample (with true-peak=1: no 4x oversampled peak) leaves above this, in dBFS", live: true)
        package static let truePeak = Parameter("true-peak", .boolean, default: false,
                                        help: "limit the true peak (4x oversampled, as libebur128 reads it), aiming 0.2 dB below the ceiling")
        package static let lookahead = Parameter("lookahead", .duration(0...0.1, bareUnit: .milliseconds), default: .milliseconds(5),
                                         help: "the gain ramps down over this before a peak (compensated: zero delay, exact length)")
        package static let release = Parameter("release", .duration(0.001...5, bareUnit: .milliseconds), default: .milliseconds(50),
                                       help: "time constant of the gain's return after a peak (63 % of the way in this time)")
    }
}
