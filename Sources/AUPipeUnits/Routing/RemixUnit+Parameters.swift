import AUPipeFormats
import AUPipeGraph

/// `remix`'s parameters.
extension RemixUnit {
    /// What happens to samples the sums push beyond full scale (`overload=`).
    public enum Overload: String, CaseIterable, Sendable {
        /// Limited to [−1, 1], counted.
        case clip
        /// Kept in float (a later unit or the encoder decides), counted.
        case keep
    }

    public enum Keys {
        /// One output channel in sox's grammar (`RemixOutSpec`), or a scaling flag `-a`/`-m`/`-p` first.
        public static let out = RepeatedParameter("out", .remixOutSpec, help: "an output channel: input channels from 1, sox's grammar")
        /// sox's `-a`, `-m`, `-p`: how channels without a volume are scaled.
        public static let scaling = Parameter("scaling", .choice(RemixScaling.self), default: .auto,
                                              help: "1/n scaling: auto, always (sox -a), manual (-m: none), power (-p: 1/sqrt n)")
        /// A named matrix (`RemixPreset`), instead of out-specs.
        public static let preset = OptionalParameter("preset", .choice(RemixPreset.self), help: "a published matrix instead of out-specs")
        /// Clip (counted) or keep beyond full scale; default `clip`.
        public static let overload = Parameter("overload", .choice(Overload.self), default: .clip, help: "clip at full scale (counted), or keep (counted too)")
        /// A gain on every output, in dB, −120...60; live.
        public static let gain = Parameter("gain", .gainDB, default: 0, help: "gain on every output channel", live: true)
    }
}
