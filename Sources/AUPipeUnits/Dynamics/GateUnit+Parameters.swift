import AUPipeFormats
import AUPipeGraph

/// `gate`'s parameters.
extension GateUnit {
    package enum Keys {
        /// Threshold, dBFS, −120...0; live.
        package static let threshold = Parameter("threshold", .number(-120...0, unit: "dBFS"), default: -50,
                                         help: "level at which the gate opens, in dBFS (a full-scale sine is 0 dBFS)", live: true)
        /// Gain while closed, dB, −120...0; live.
        package static let range = Parameter("range", .number(-120...0, unit: "dB"), default: -40,
                                     help: "gain while closed, in dB: the deepest an expander goes", live: true)
        /// inf: a gate; a number R in 1...100: a downward expander (1 dB under the threshold gives R dB under).
        package static let ratio = Parameter("ratio", .numberOrInfinity(1...100, unit: ""), default: .infinity,
                                     help: "inf: a gate; R: an expander (1 dB below the threshold comes out R dB below, down to range)", live: true)
        package static let hysteresis = Parameter("hysteresis", .number(0...40, unit: "dB"), default: 6,
                                          help: "the gate closes only when the level falls this far below the threshold", live: true)
        package static let attack = Parameter("attack", .duration(0...2, bareUnit: .milliseconds), default: .milliseconds(1),
                                      help: "time constant of opening (63 % of the step in dB)")
        package static let hold = Parameter("hold", .duration(0...10, bareUnit: .milliseconds), default: .milliseconds(50),
                                    help: "how long the gate stays open after the level has fallen below threshold - hysteresis")
        package static let release = Parameter("release", .duration(0...10, bareUnit: .milliseconds), default: .milliseconds(100),
                                       help: "time constant of closing (63 % of the step in dB)")
        package static let detector = Parameter("detector", .choice(LevelDetector.Mode.self), default: .rms,
                                        help: "level read: rms (10 ms window) or peak (held 10 ms)")
        package static let link = Parameter("link", .choice(StereoLink.self), default: .max,
                                    help: "one gain for all channels from the loudest (max) or the mean level, or one per channel (none)")
        package static let sidechain = OptionalParameter("sidechain", .sidechain, help: "read the level from this input instead of the stream: PATH[,format=SPEC]")
        package static let live = RealTimePolicy.parameter("read a FIFO or pipe sidechain= without waiting (late frames are silence)")
        package static let plot = OptionalParameter("plot", .path, help: "draw the gain over stream time into this SVG file at the end")
    }
}
