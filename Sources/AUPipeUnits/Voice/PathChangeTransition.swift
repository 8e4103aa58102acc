#if canImport(Glibc)
import Glibc
#endif

/// The residual echo suppressor's echo-path change, from the shadow's take-over until the new
/// filter's echo estimate Ŷ is coherent with the microphone again — not only the
/// `EchoPathChange.pathChangeSeconds` after the take-over that `aec` reports.
///
/// Why: in a reverberant room the filter that took over learns the new path's tail for seconds,
/// cancelling little meanwhile. Once the reported change is over, D is incoherent with that
/// filter's Ŷ, well past what the coherence test allows, so the suppressor took every frame for a
/// near end's (gentle β, −30 dB floor) and added nothing; and its noise floor, the least of C's
/// smoothed power over 2–4 s, followed the residual echo up, so that the gain never went below
/// what kept that "noise" (figures in bench/README.md, "Where the first seconds lose, and the
/// change after a take-over").
///
/// So, per frame, the change as the suppressor sees it (`update`'s result) lasts from the rising
/// edge of `aec`'s `pathChanged` until, after that has ended, the frames of far end whose D is
/// coherent with Ŷ (the suppressor's own test, its background allowance included) add up to
/// `coherentSeconds`, or `mostSeconds` have passed since the take-over, or the double-talk
/// detector hears a near end; and it ends with the reported change when a near end was heard
/// during it (double talk, or a frame louder than Ŷ whose C the model does not explain:
/// `heardNearEnd`). The near end first: the frames are then judged as outside a change. While it
/// lasts the suppressor runs as during the reported change (the coherence tests set aside, the
/// level test and double talk kept, the model learning the transition's residual and given its
/// weights back at the end); after the reported change C's noise floor is held at most where it
/// was at the take-over (`hold`), and a frame counts as the change's only where the model's
/// predicted residual, with the floor, accounts for C's power (the suppressor's
/// `explainedMargin`): a near talker adds power the model does not predict, and such a frame is
/// judged by the coherence tests as before. Figures in bench/README.md ("Where the first
/// seconds lose, and the change after a take-over").
/// Everything is allocated in `init`; `update` allocates nothing.
package final class PathChangeTransition {
    /// The far end with D coherent with Ŷ for this long (s) in all ends the change: the new
    /// filter's estimate is then the echo again (as `FarEndEchoModel.trustedSeconds`).
    package static let coherentSeconds = 0.5
    /// The longest a change lasts after the take-over (s) however incoherent: as long as
    /// `NearEndPresence.settledSeconds`, which a change restarts.
    package static let mostSeconds = 4.0

    package let bins: Int
    private let coherentFrames: Int, mostFrames: Int
    /// C's noise floor per bin at the take-over, the most it may be while the change lasts.
    private let held: UnsafeMutablePointer<Float>
    /// Whether a change is under way, frames since its take-over, and frames of coherent far
    /// end since the reported change ended.
    package private(set) var changing = false
    private var frames = 0, coherent = 0
    /// Whether a near end was heard during the reported change (`update`'s `doubleTalk`, `heardNearEnd`).
    private var nearHeard = false
    /// Whether `aec`'s `pathChanged` held at the previous frame (its rising edge starts a change).
    private var reported = false
    /// Frames in which the change went on after the reported one had ended (tests).
    package private(set) var framesExtended = 0

    /// For the suppressor's `bins` bins, in frames of `frameSeconds`.
    package init(bins: Int, frameSeconds: Double) {
        self.bins = bins
        coherentFrames = max(1, Int((Self.coherentSeconds / frameSeconds).rounded()))
        mostFrames = max(1, Int((Self.mostSeconds / frameSeconds).rounded()))
        held = .allocate(capacity: bins)
        held.initialize(repeating: 0, count: bins)
    }

    deinit { held.deallocate() }

    /// One frame. `pathChanged`: `aec`'s (`EchoPathChange.justChanged`); `doubleTalk`: its
    /// detector's; `farHeard`: the far end well above the noise and no near end by level;
    /// `coherent`: D coherent with Ŷ as the suppressor's gain test has it. Returns whether the
    /// suppressor should run as in a change.
    package func update(pathChanged: Bool, doubleTalk: Bool, farHeard: Bool, coherent isCoherent: Bool, noise: UnsafePointer<Float>) -> Bool {
        if pathChanged, !reported {
            changing = true
            frames = 0
            coherent = 0
            nearHeard = false
            held.update(from: noise, count: bins)
        }
        reported = pathChanged
        guard changing else { return false }
        frames += 1
        if pathChanged { nearHeard = nearHeard || doubleTalk; return true }
        if farHeard, isCoherent { coherent += 1 }
        if nearHeard || doubleTalk || coherent >= coherentFrames || frames >= mostFrames { changing = false; return false }
        framesExtended += 1
        return true
    }

    /// A near end heard during the reported change by the suppressor's own test (louder than the
    /// echo estimate and beyond what its model explains): the change ends with the reported one.
    package func heardNearEnd() { if changing { nearHeard = true } }

    /// C's noise floor (`noise`, per bin) no higher than at the take-over (call while `update`
    /// returns true after the reported change); returns its sum over the bins.
    package func hold(_ noise: UnsafeMutablePointer<Float>) -> Float {
        var sum: Float = 0
        for k in 0..<bins {
            noise[k] = min(noise[k], held[k])
            sum += noise[k]
        }
        return sum
    }
}
