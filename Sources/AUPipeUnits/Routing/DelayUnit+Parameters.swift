import AUPipeFormats
import AUPipeGraph

/// `delay`'s parameters.
extension DelayUnit {
    /// The longest delay, in seconds: 10 s (memory: 4 bytes × rate × 10 per channel, once).
    package static let maxSeconds = 10.0
    /// The longest delay a live change may reach when the delays given are shorter: 1 s.
    package static let liveHeadroomSeconds = 1.0

    public enum Keys {
        /// One delay for every channel, or one per channel; live.
        public static let delays = Parameter("delays", .delayList(maxSeconds: DelayUnit.maxSeconds), default: [.frames(0)],
                                             help: "delay per channel (ms, s or frames; fractions interpolated)", live: true)
        /// Keeps the tail: the output is longer by the longest delay.
        public static let extend = Parameter("extend", .boolean, default: false, help: "keep the tail (output longer by the longest delay)")
    }
}
