import AUPipeFormats
import AUPipeGraph

/// `silence`'s parameters.
extension SilenceUnit {
    /// Which ends of the stream lose their silence (down to `pad=`).
    public enum Trim: String, CaseIterable, Sendable {
        case both = "start,end", start, end, none

        var start: Bool { self == .both || self == .start }
        var end: Bool { self == .both || self == .end }
    }

    /// The figures `get silence.NAME` reads besides the parameters.
    package enum Reading: String, CaseIterable {
        /// Cuts made so far.
        case cuts
        /// Seconds of input removed so far.
        case removed
    }

    package enum Keys {
        /// The level under which a frame is quiet.
        package static let threshold = Parameter("threshold", .silenceThreshold, default: .absolute(-50),
                                                 help: "a frame is quiet when its peak is below this: dBFS (-50dB) or dB below the running loudness (-30rel)",
                                                 live: true)
        package static let trim = Parameter("trim", .choice(Trim.self), default: .both,
                                            help: "ends whose silence is cut down to pad=")
        /// A pause longer than this is shortened to `keep`; 10 ms ... 60 s. Not live: it sizes the memory.
        package static let pause = Parameter("pause", .duration(0.01...60, bareUnit: .seconds), default: .seconds(1),
                                             help: "shorten quiet runs longer than this (bare number: seconds); memory grows with it")
        /// What is left of a long pause; 0 ... 60 s, at most `pause`; live up to its value at the start.
        package static let keep = Parameter("keep", .duration(0...60, bareUnit: .seconds), default: .milliseconds(250),
                                            help: "what is left of a long pause: its first half and its last half; at most pause=", live: true)
        /// A loud frame holds the sound open this long (bridges zero crossings and stops); live.
        package static let hold = Parameter("hold", .duration(0...1, bareUnit: .seconds), default: .milliseconds(20),
                                            help: "after a loud frame, frames count as sound this long (bridges a word's zero crossings)", live: true)
        /// Silence kept before the first and after the last sound when trimming.
        package static let pad = Parameter("pad", .duration(0...10, bareUnit: .seconds), default: .milliseconds(100),
                                           help: "silence left before the first and after the last sound by trim=")
        /// Where the JSON lines of the cuts go; `-` is stderr.
        package static let events = OptionalParameter("events", .path,
                                                      help: "write one JSON line per cut to this file, FIFO or >(command), or - for stderr; no default")
    }
}
