import AUPipeFormats
import AUPipeGraph

/// `vad`'s parameters.
extension VoiceActivityUnit {
    package enum Keys {
        /// The smoothed probability of speech above which a frame is speech, 0.05...0.95; lower finds
        /// more speech (and more noise). Live.
        package static let threshold = Parameter("threshold", .number(0.05...0.95, unit: ""), default: 0.5,
                                                 help: "speech when the smoothed probability of speech exceeds this; lower: more speech", live: true)
        /// How long a frame stays speech after the last frame judged speech, 0...5 s.
        package static let hangover = Parameter("hangover", .duration(0...5, bareUnit: .milliseconds), default: .milliseconds(100),
                                                help: "speech lasts this long after the last speech frame (word ends, short pauses)")
        /// Mute what is not speech (a 5 ms ramp) instead of passing the audio untouched.
        package static let gate = Parameter("gate", .boolean, default: false, help: "mute what is not speech, with a 5 ms ramp; default 0: audio untouched")
        /// Where the JSON event lines go; none: stderr.
        package static let events = OptionalParameter("events", .path, help: "where the JSON event lines go: a file, a FIFO (never stalls the stream) or >(command); default stderr")
    }
}
