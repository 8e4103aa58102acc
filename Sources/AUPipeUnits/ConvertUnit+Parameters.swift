import AUPipeFormats
import AUPipeGraph

/// `convert`'s parameters.
extension ConvertUnit {
    public enum Keys {
        /// The sample encoding from here on.
        public static let format = OptionalParameter("format", .encoding, help: "sample encoding from here on (s16le, s24le, f32le, mulaw, ...)")
        /// Output channel count, 1...64.
        public static let channels = OptionalParameter("channels", .integer(1...64), help: "output channel count")
        /// For each output channel, the input channel it takes (from 0).
        public static let map = OptionalParameter("map", .channelMap, help: "for each output channel, the input channel it takes (0-based)")
    }
}
