import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The room's background as the residual echo suppressor sees it while the far end talks, for
/// its frame test in babble: per bin, a running median of the canceller output's lightly smoothed
/// power C over the frames where the far end is heard well above the noise floor and neither the
/// level test nor `aec`'s double-talk detector hears a near end, outside an echo-path change.
/// It holds the background's typical level (babble's, pink noise's) and the residual echo's, where
/// the suppressor's noise floor (the least smoothed power over 2–4 s) holds only the background's
/// least: babble's level swings by 10 dB and more over a second, pink noise's by a few dB.
///
/// What it is for: babble makes the microphone incoherent with the echo estimate Ŷ, so the
/// suppressor's coherence test takes many frames of echo alone for a near end's (gentle β, the
/// `suppress-active=` floor). A frame whose C holds no more power than this median and the
/// model's predicted residual R together (summed over the bins) holds nothing a near talker adds,
/// and its incoherence is the background's: such a frame is not taken for a near end's by its
/// coherence alone (`explains`). A near talker adds power on top of the background; a talker so
/// quiet that their frames do not rise above babble's median loses a little of those frames.
/// Not for `heldSeconds` after a frame `NearEndPresence` took for a near end's:
/// a quiet talker's word ends under the background.
///
/// The median moves by a fixed step in level per frame, up or down (`stepDBPerSecond`), so that
/// a near talker the detectors miss for a few frames moves it little and a background that
/// changes is followed within seconds.
/// Everything is allocated in `init`; `explains` allocates nothing.
package final class BackgroundLevel {
    /// The median's step (dB per second of frames it hears: 0.1 dB per 20 ms frame).
    package static let stepDBPerSecond = 5.0
    /// A frame is not explained by the background for this long (s) after `NearEndPresence` heard
    /// a near end: the end of a quiet talker's word under babble.
    package static let heldSeconds = 0.5

    package let bins: Int
    private let buffers = FloatBuffers()
    /// Per bin: the running median of C's power (full scale 1).
    package let level: UnsafeMutablePointer<Float>
    /// The median's factor per frame up, and down.
    private let up: Float, down: Float
    /// Whether a frame has been heard (the median starts at its power), frames since
    /// `NearEndPresence` last heard a near end (at most `heldFrames` + 1), and the frames
    /// `heldSeconds` make.
    private var started = false
    private var sincePresent: Int
    private let heldFrames: Int

    /// For `bins` bins, in frames of `frameSeconds`.
    package init(bins: Int, frameSeconds: Double) {
        self.bins = bins
        level = buffers.make(bins)
        up = Float(pow(10, Self.stepDBPerSecond * frameSeconds / 10)); down = 1 / up
        heldFrames = max(1, Int((Self.heldSeconds / frameSeconds).rounded()))
        sincePresent = heldFrames + 1
    }

    /// One frame. `power`: C's lightly smoothed power per bin; `heard`: the far end heard, no near
    /// end detected, no echo-path change (the median moves); `present`: `NearEndPresence` took the
    /// frame for a near end's; `powerSum` and `predicted`: C's power and R summed over the bins.
    /// Returns whether the background's median and R account for C's power in this frame.
    package func explains(power: UnsafePointer<Float>, heard: Bool, present: Bool, powerSum: Float, predicted: Float) -> Bool {
        sincePresent = present ? 0 : min(sincePresent + 1, heldFrames + 1)
        if heard {
            if started {
                for k in 0..<bins { level[k] *= power[k] > level[k] ? up : down }
            } else {
                for k in 0..<bins { level[k] = max(power[k], 1e-20) }
                started = true
            }
        }
        guard started, sincePresent > heldFrames else { return false }
        var sum: Float = 0
        for k in 0..<bins { sum += level[k] }
        return powerSum <= predicted + sum
    }
}
