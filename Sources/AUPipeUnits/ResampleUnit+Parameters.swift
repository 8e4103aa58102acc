import AUPipeFormats
import AUPipeGraph

/// `resample`'s parameters.
extension ResampleUnit {
    public enum Keys {
        /// Output rate in Hz, 1...768000; required.
        public static let rate = OptionalParameter("rate", .rate, help: "output sample rate in Hz (16000, 44.1k)")
        /// The library that converts: soxr or speex.
        public static let engine = Parameter("engine", .choice(ResamplerEngineKind.self), default: ResamplerSettings.default.engine,
                                             help: "the resampler library: soxr (libsoxr) or speex (speexdsp); unset, quality= names it")
        /// The engine's quality: speex 0 (fastest) ... 10 (best); soxr quick, low, medium, high,
        /// very-high. Unset: the engine's default (speex 4, soxr high).
        public static let quality = OptionalParameter("quality", .integerOrChoice(ResamplerEngineKind.speex.qualities, SoxrRecipe.allCases.map(\.rawValue)),
                                                      help: "filter quality: speex 0 fastest ... 10 best (default 4); soxr quick, low, medium, high (default), very-high; an integer alone means engine=speex")
    }

    /// The settings `engine=` and `quality=` ask for. Without `engine=` the quality's kind names
    /// the engine (an integer speex's, as in versions whose default was speex; a recipe soxr's),
    /// and without either it is nil: the run's default (`ResamplerSettings.runDefault`). A quality of the other kind than
    /// the `engine=` given is a usage error naming the engine's own.
    package static func settings(engine: ResamplerEngineKind?, quality: IntegerOrWord?) throws -> ResamplerSettings? {
        switch (engine, quality) {
        case (nil, nil):
            return nil
        case (let engine?, nil):
            return ResamplerSettings(engine: engine, quality: engine.defaultQuality)
        case (.speex?, .integer(let q)), (nil, .integer(let q)):
            return ResamplerSettings(engine: .speex, quality: q)
        case (.soxr?, .word(let w)), (nil, .word(let w)):
            return .soxr(SoxrRecipe(rawValue: w)!)
        case (let engine?, .some(let q)):
            throw AUPipeError.usage("resample: quality=\(q) is not a quality of engine=\(engine.rawValue), which takes \(engine.qualityWords)")
        }
    }
}
