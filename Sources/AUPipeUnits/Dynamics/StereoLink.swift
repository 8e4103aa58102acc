import AUPipeFormats
import AUPipeGraph

/// How `compressor` and `gate` share one gain between channels (`link=`).
package enum StereoLink: String, CaseIterable, Sendable {
    /// One gain from the loudest channel's level: the stereo image never moves.
    case max
    /// One gain from the mean of the channels' levels (powers).
    case mean
    /// A gain per channel, each from its own level.
    case none
}
