import AUPipeFormats
import AUPipeGraph

/// `fir`'s parameters.
extension FIRUnit {
    /// How the response's level is set before `gain=`.
    public enum Normalization: String, CaseIterable, Sendable {
        /// As the file holds it.
        case none
        /// The largest |tap| of any channel scaled to 1.
        case peak
        /// The largest Σ tap² of any channel scaled to 1 (unit energy: white noise keeps its level).
        case energy
    }

    public enum Keys {
        /// The impulse response file (CAF, WAV or AU; any rate, 1 or N channels); required.
        public static let ir = OptionalParameter("ir", .path, help: "impulse response file (CAF, WAV, AU): 1 channel, or one per channel")
        /// Gain in dB on the response, −120...60.
        public static let gain = Parameter("gain", .gainDB, default: 0, help: "gain in decibels applied to the response")
        public static let normalize = Parameter("normalize", .choice(Normalization.self), default: .none,
                                                help: "scale the response first: largest tap (peak) or energy to 1")
        /// Whether the response's tail after the stream's end is written.
        public static let extend = Parameter("extend", .boolean, default: false,
                                             help: "1: write the response's tail after the end (N + taps − 1 frames)")
    }
}
