import AUPipeFormats
import AUPipeGraph

/// The kinds of filter section the filter units and `eq`'s bands are made of.
public enum FilterKind: String, CaseIterable, Sendable {
    /// Butterworth (order 1...8) or Linkwitz-Riley low-pass, or one cookbook section with `q=`.
    case lowpass, highpass
    /// Cookbook band-pass, 0 dB at the centre.
    case bandpass
    /// Cookbook band-reject.
    case notch
    /// Cookbook all-pass: flat, its phase turns through −180° at the centre.
    case allpass
    /// Cookbook peaking section: `gain` dB at the centre.
    case peaking
    /// Cookbook shelves: `gain` dB below (low) or above (high) the corner, half of it at the corner.
    case lowshelf, highshelf
    /// Raw coefficients.
    case biquad

    /// Whether the kind has a gain.
    package var hasGain: Bool { self == .peaking || self == .lowshelf || self == .highshelf }
    /// Whether the kind is a shelf (takes `slope=`).
    package var isShelf: Bool { self == .lowshelf || self == .highshelf }
    /// Whether the kind is a Butterworth-capable pass filter (takes `order=` and `type=`).
    package var isPass: Bool { self == .lowpass || self == .highpass }

    /// The names an `eq` band may give the kind (the unit names, Equalizer APO's and sox's).
    package static let bandNames: [String: FilterKind] = [
        "lowpass": .lowpass, "lp": .lowpass, "highpass": .highpass, "hp": .highpass,
        "bandpass": .bandpass, "bp": .bandpass, "notch": .notch, "bandreject": .notch, "no": .notch,
        "allpass": .allpass, "ap": .allpass, "peak": .peaking, "peaking": .peaking, "equalizer": .peaking, "pk": .peaking,
        "lowshelf": .lowshelf, "ls": .lowshelf, "bass": .lowshelf, "highshelf": .highshelf, "hs": .highshelf, "treble": .highshelf,
    ]
}

/// `type=` of `highpass` and `lowpass`.
public enum PassResponse: String, CaseIterable, Sendable {
    case butterworth
    case linkwitzRiley = "linkwitz-riley"
}
