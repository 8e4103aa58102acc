import AUPipeFormats
import AUPipeGraph
import CEbur128

/// How ITU-R BS.1770-4 weights each channel in a loudness measurement, from where it plays
/// (Table 4 of the Recommendation): 1.41 for a channel in the horizontal plane (elevation
/// under 30°) between 60° and 120° of azimuth either side (side and surround speakers), 1.0 for
/// every other place (front, centre, back beyond 120°, height) and for a channel with no known
/// place; low-frequency effects channels are left out.
///
/// ffmpeg's `ebur128` differs for the rear speakers of a WAV mask (BL and BR beside SL and SR,
/// at 135°, and BC at 180°): it weights them 1.41 too. BL and BR without a side pair are the
/// surrounds of 5.1 (110°) and weigh 1.41 in both.
package enum LoudnessChannelMap {
    /// A channel's weight in the sum of powers: 0 (left out), 1 or 1.41.
    package static func weight(_ speaker: ChannelLayout.Speaker) -> Double {
        switch speaker {
        case .lowFrequency: return 0
        case .unknown: return 1
        case let .direction(azimuth, elevation):
            // Azimuth folded to 0...180 either side.
            var a = azimuth.truncatingRemainder(dividingBy: 360)
            if a < 0 { a += 360 }
            if a > 180 { a = 360 - a }
            return abs(elevation) < 30 && a >= 60 && a <= 120 ? 1.41 : 1
        }
    }

    /// The libebur128 channel that carries `speaker`'s weight: EBUR128_UNUSED (0),
    /// EBUR128_Mp110/Mm110 (1.41), or EBUR128_LEFT/RIGHT/CENTER (1.0), by side.
    package static func ebur128Channel(_ speaker: ChannelLayout.Speaker) -> channel {
        let side: Double
        if case let .direction(azimuth, _) = speaker { side = azimuth } else { side = 0 }
        switch weight(speaker) {
        case 0: return EBUR128_UNUSED
        case 1: return side > 0 ? EBUR128_LEFT : (side < 0 ? EBUR128_RIGHT : EBUR128_CENTER)
        default: return side < 0 ? EBUR128_Mm110 : EBUR128_Mp110
        }
    }
}
