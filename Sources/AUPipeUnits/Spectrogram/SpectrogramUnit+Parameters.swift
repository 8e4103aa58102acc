import AUPipeFormats
import AUPipeGraph

/// `spectrogram`'s parameters, named as sox's `spectrogram` options where sox has a letter
/// (`x`, `y`, `window`; `range` is sox's `-z`, `top` its `-Z`).
extension SpectrogramUnit {
    public enum Keys {
        /// The PNG file drawn at the end; required.
        public static let plot = OptionalParameter("plot", .path, help: "the PNG file drawn at the end (a name ending in .png)")
        /// Pixels of the time axis, 100...8000: the most columns kept.
        public static let x = Parameter("x", .integer(100...8000), default: 800,
                                        help: "width of the time axis in pixels (columns kept; more are pooled)")
        /// Rows (pixels) of each channel's frequency axis, 16...4097; fixes the DFT size.
        public static let y = Parameter("y", .integer(16...4097), default: 257,
                                        help: "pixels of each channel's frequency axis; fixes the DFT size")
        /// The dynamic range shown, 20...180 dB (sox's -z).
        public static let range = Parameter("range", .number(20...180, unit: "dB"), default: 120, help: "dynamic range shown below top=, in dB (sox's -z)")
        /// The level of the brightest colour, −100...100 dBFS (sox's -Z).
        public static let top = Parameter("top", .number(-100...100, unit: "dB"), default: 0, help: "level of the brightest colour, in dBFS (sox's -Z)")
        public static let window = Parameter("window", .choice(SpectrogramWindow.self), default: .hann, help: "the DFT's window (sox's -w)")
        /// The frequency of the top row; default the Nyquist frequency.
        public static let maxFreq = OptionalParameter("max-freq", .number(10...384000, unit: "Hz"),
                                                      help: "highest frequency shown; default half the sample rate")
    }
}
