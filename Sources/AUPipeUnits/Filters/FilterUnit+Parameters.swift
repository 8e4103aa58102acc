import AUPipeFormats
import AUPipeGraph

/// The parameters of the filter units and `eq`.
extension FilterUnit {
    public enum Keys {
        /// Centre or corner frequency, Hz, below half the rate; live.
        public static let freq = OptionalParameter("freq", .number(1...384_000, unit: "Hz"),
                                                   help: "centre or corner frequency in Hz, below half the rate", live: true)
        /// A shelf's corner where it has a default (`bass` 100 Hz, `treble` 3 kHz); live.
        package static func freq(default hz: Double) -> Parameter<Double> {
            Parameter("freq", .number(1...384_000, unit: "Hz"), default: hz, help: "corner frequency in Hz (half the gain there)", live: true)
        }
        /// Gain at the centre (peaking) or of the shelf, dB, −60...60; live.
        public static let gain = Parameter("gain", .number(-60...60, unit: "dB"), default: 0,
                                           help: "gain at the centre, or of the shelf, in dB", live: true)
        /// Q, 0.01...100, where there is no default (a pass filter: one section with this Q); live.
        public static let q = OptionalParameter("q", .number(0.01...100, unit: ""),
                                                help: "quality factor: one cookbook section with this Q (implies order 2)", live: true)
        /// Q with a default (band-pass, notch, all-pass, peaking); live.
        package static func q(default value: Double) -> Parameter<Double> {
            Parameter("q", .number(0.01...100, unit: ""), default: value, help: "quality factor (f0 / bandwidth); higher is narrower", live: true)
        }
        /// A shelf's Q where slope= is the default way to give its width; live.
        package static let shelfQ = OptionalParameter("q", .number(0.01...100, unit: ""),
                                              help: "quality factor, instead of slope=", live: true)
        /// Bandwidth in Hz or octaves, instead of q=.
        package static let width = OptionalParameter("width", .filterWidth, help: "bandwidth, instead of q=")
        /// A shelf's slope S, 0.01...1 (1: the steepest without a bump).
        package static func slope(default value: Double) -> Parameter<Double> {
            Parameter("slope", .number(0.01...1, unit: ""), default: value, help: "shelf slope S; 1 is the steepest without a bump")
        }
        /// Order of a low- or high-pass, 1...8.
        package static let order = Parameter("order", .integer(1...8), default: 2, help: "order: 6 dB per octave each")
        package static let type = Parameter("type", .choice(PassResponse.self), default: .butterworth,
                                    help: "Butterworth (-3 dB at freq), or Linkwitz-Riley (-6 dB, even orders)")
        /// Channels filtered, from 0; all when not given.
        package static let channels = OptionalParameter("channels", .channelMap, help: "filter only these channels, from 0 (0,1); default all")
        /// A biquad's coefficients.
        package static let raw = ["b0", "b1", "b2", "a0", "a1", "a2"].map { name in
            Parameter(name, .number(-1e6...1e6, unit: ""), default: name == "b0" || name == "a0" ? 1 : 0, help: "coefficient \(name)")
        }
        /// `eq`'s bands, in order (bare values).
        package static let band = RepeatedParameter("band", .filterBand, help: "KIND,FREQ[,gain=DB][,q=Q|width=W|slope=S][,order=N][,type=T]")
        /// `eq`'s Equalizer APO file.
        package static let file = OptionalParameter("file", ParameterType<String>(.custom(InputPathParameterKind()), read: { if case .text(let t) = $0 { t } else { nil } }, text: { $0 }), help: "Equalizer APO parametric file (AutoEQ's ParametricEQ.txt)")
        /// `eq`'s gain before the bands, dB (added to the file's Preamp).
        package static let preamp = Parameter("preamp", .number(-60...60, unit: "dB"), default: 0, help: "gain before the bands, dB; added to the file's Preamp")
    }
}
