import AUPipeFormats
import AUPipeGraph

/// `gain`'s parameters.
extension GainUnit {
    public enum Keys {
        /// Gain in dB, −120...60; live.
        public static let db = Parameter("db", .gainDB, default: 0, help: "gain in decibels; negative is quieter", live: true)
    }
}
