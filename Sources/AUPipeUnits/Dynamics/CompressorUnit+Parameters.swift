import AUPipeFormats
import AUPipeGraph

/// `compressor`'s parameters.
extension CompressorUnit {
    package enum Keys {
        /// Threshold, dBFS (AES17: a full-scale sine is 0 dBFS), −90...0; live.
        package static let threshold = Parameter("threshold", .number(-90...0, unit: "dBFS"), default: -20,
                                         help: "level above which the gain comes down, in dBFS (a full-scale sine is 0 dBFS)", live: true)
        /// Ratio, 1...100: above the threshold, R dB in give 1 dB out; live.
        package static let ratio = Parameter("ratio", .number(1...100, unit: ""), default: 4, help: "R dB in above the threshold give 1 dB out", live: true)
        /// Soft knee width, dB, 0...40 (0: hard knee); live.
        package static let knee = Parameter("knee", .number(0...40, unit: "dB"), default: 6, help: "width of the soft knee around the threshold, in dB (0: hard knee)", live: true)
        package static let attack = Parameter("attack", .duration(0...2, bareUnit: .milliseconds), default: .milliseconds(10),
                                      help: "time constant of the gain coming down (63 % of a step in dB)")
        package static let release = Parameter("release", .duration(0...10, bareUnit: .milliseconds), default: .milliseconds(100),
                                       help: "time constant of the gain going back up (63 % of a step in dB)")
        /// Make-up gain, dB, −40...60, or auto: the gain that brings a 0 dBFS input back to 0 dBFS; live.
        package static let makeup = Parameter("makeup", .numberOrAuto(-40...60, unit: "dB"), default: .fixed(0),
                                      help: "gain added after the compression, in dB, or auto (a 0 dBFS input comes out at 0 dBFS)", live: true)
        package static let detector = Parameter("detector", .choice(LevelDetector.Mode.self), default: .rms,
                                        help: "level read: rms (10 ms window) or peak (held 10 ms); both read a full-scale sine as 0 dBFS")
        package static let link = Parameter("link", .choice(StereoLink.self), default: .max,
                                    help: "one gain for all channels from the loudest (max) or the mean level, or one per channel (none)")
        package static let lookahead = Parameter("lookahead", .duration(0...0.5, bareUnit: .milliseconds), default: .seconds(0),
                                         help: "the gain acts this much before the level comes (compensated: zero delay, exact length)")
        package static let sidechain = OptionalParameter("sidechain", .sidechain, help: "read the level from this input instead of the stream: PATH[,format=SPEC] (a file, FIFO or <(command))")
        package static let live = RealTimePolicy.parameter("read a FIFO or pipe sidechain= without waiting (late frames are silence)")
        package static let plot = OptionalParameter("plot", .path, help: "draw the gain reduction over stream time into this SVG file at the end")
    }
}
