/// `resample`'s parameters.
extension ResampleUnit {
    public enum Keys {
        /// Output rate in Hz, 1...768000; required.
        public static let rate = OptionalParameter("rate", .rate, help: "output sample rate in Hz (16000, 44.1k)")
        /// The library that converts: soxr or speex.
        public static let engine = Parameter("engine", .choice(ResamplerEngineKind.self), default: ResamplerSettings.default.engine,
                                             help: "the resampler library: soxr (libsoxr) or speex (speexdsp)")
        /// The engine's quality: speex 0 (fastest) ... 10 (best); soxr quick, low, medium, high,
        /// very-high. Unset: the engine's default (speex 4, soxr high).
        public static let quality = OptionalParameter("quality", .integerOrChoice(ResamplerEngineKind.speex.qualities, SoxrRecipe.allCases.map(\.rawValue)),
                                                      help: "filter quality: speex 0 fastest ... 10 best (default 4); soxr quick, low, medium, high (default), very-high")
    }

    /// The settings `engine=` and `quality=` ask for; a quality of the other engine's kind is a
    /// usage error naming the engine's own.
    static func settings(engine: ResamplerEngineKind, quality: IntegerOrWord?) throws -> ResamplerSettings {
        switch (engine, quality) {
        case (_, nil):
            return ResamplerSettings(engine: engine, quality: engine.defaultQuality)
        case (.speex, .integer(let q)):
            return ResamplerSettings(engine: .speex, quality: q)
        case (.soxr, .word(let w)):
            return .soxr(SoxrRecipe(rawValue: w)!)
        case (_, .some(let q)):
            throw AUPipeError.usage("resample: quality=\(q) is not a quality of engine=\(engine.rawValue), which takes \(engine.qualityWords)")
        }
    }
}
