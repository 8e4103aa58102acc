/// `resample`'s parameters.
extension ResampleUnit {
    public enum Keys {
        /// Output rate in Hz, 1...768000; required.
        public static let rate = OptionalParameter("rate", .rate, help: "output sample rate in Hz (16000, 44.1k)")
        /// speexdsp's quality, 0 (fastest) ... 10 (best).
        public static let quality = Parameter("quality", .integer(0...10), default: ResamplerSettings.default.quality, help: "filter quality: 0 fastest, 10 best")
    }
}
