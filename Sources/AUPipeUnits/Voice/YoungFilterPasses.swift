/// `aec`'s extra adaptation passes of a young canceller: while the full-tail filter is still
/// learning the room — the first `youngSeconds` of far end after `delay=auto` first finds the
/// delay — every `periodSeconds` the state in use is run once more over the last `passSeconds`
/// of the history (the frames and microphone samples it saw, the reference at the delay in use),
/// its output discarded. The pass ends on the frame before the current one, as the state had,
/// so the current frame follows it as before (`LinearEchoCanceller.pass`).
///
/// Why: speex's MDF sets its step from its own estimate of how much of its output is residual
/// echo; under a background (babble, noise at a low SNR, a quiet room's noise against a quiet
/// echo) that share is small and so is the step: the filter took 10–20 s to learn what it learns
/// in 2–3 s in a quiet room. A pass over the same frames gives it more steps on the same evidence
/// (as a warm start's replay does), so it learns the room sooner; once it has (`youngSeconds`)
/// more passes would only adapt it further to the frames' noise.
///
/// A pass adapts on what it replays, so none runs while a near end may be in it: double talk
/// (the detector: `sinceDoubleTalk` within the pass) or a near end the residual echo suppressor
/// heard within `ResidualEchoSuppressor.explainedHoldSeconds` (at least the pass's length); nor
/// while a shadow or fast start runs or a warm start's replay is pending (they replay the
/// history themselves); nor with a fixed `delay=` (its output stays speex's own, frame for
/// frame). A pass is at most half of `LinearEchoCanceller.replayBudget`, so that with the frame's
/// own work it stays within half a frame's real time.
package struct YoungFilterPasses {
    /// Far end (s) after the first delay during which passes run.
    package static let youngSeconds = 15.0
    /// Time between passes (s) and the history one replays (s; at most the suppressor's
    /// near-end hold, which the guard reads).
    package static let periodSeconds = 0.5, passSeconds = 1.0

    /// DSP frames a pass replays, between passes, and of far end while the filter is young.
    package let passFrames: Int, periodFrames: Int, youngFrames: Int
    /// Frames of far end since the first delay, and frames since the last pass.
    private var farFrames = 0, sinceLast = 0
    /// Passes run over the stream (`--stats`, tests).
    package private(set) var passesRun = 0

    /// For frames of `frameSeconds` and a canceller of `tailFrames` taps.
    package init(frameSeconds: Double, tailFrames: Int) {
        func frames(_ s: Double) -> Int { max(1, Int((s / frameSeconds).rounded())) }
        let budget = Int(LinearEchoCanceller.replayBudget * frameSeconds / 0.02 / 2 / Double(max(1, tailFrames)))
        passFrames = max(1, min(frames(Self.passSeconds), budget))
        periodFrames = frames(Self.periodSeconds)
        youngFrames = frames(Self.youngSeconds)
    }

    /// Before the frame is cancelled: the frames a pass should replay now, or nil. `delayKnown`:
    /// `delay=auto` has found the delay; `busy`: a shadow or fast start runs, or a replay is
    /// pending; `sinceDoubleTalk`: DSP frames since double talk; `nearHeard`: the suppressor
    /// heard a near end within its hold.
    package mutating func due(delayKnown: Bool, busy: Bool, sinceDoubleTalk: Int, nearHeard: Bool) -> Int? {
        guard delayKnown, farFrames < youngFrames else { return nil }
        sinceLast += 1
        guard sinceLast >= periodFrames, !busy, !nearHeard, sinceDoubleTalk > passFrames else { return nil }
        sinceLast = 0
        passesRun += 1
        return passFrames
    }

    /// After the frame: whether the far end played in it (counted once the delay is known).
    package mutating func count(farEnd: Bool, delayKnown: Bool) {
        if farEnd, delayKnown { farFrames += 1 }
    }
}
