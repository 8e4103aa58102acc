/// `aec`'s extra adaptation passes of a young canceller: while the full-tail filter is still
/// learning the room — the first `youngSeconds` of far end after `delay=auto` first finds the
/// delay — the state in use is run once more over each talk spurt of the far end that lies
/// between two pauses at least as long as the tail, once the second pause has lasted that long
/// (the frames and microphone samples it saw, the reference at the delay in use, the output
/// discarded; `LinearEchoCanceller.pass`). The pass ends on the frame before the current one, as
/// the state had, so the current frame follows it as before.
///
/// Why: speex's MDF sets its step from its own estimate of how much of its output is residual
/// echo; under a background (babble, noise at a low SNR) that share is small and so is the step:
/// the filter takes 10–20 s to learn what it learns in 2–3 s in a quiet room. A pass over the
/// same frames gives it more steps on the same evidence (as a warm start's replay does). Why
/// between pauses: speex keeps the far end's spectra of the last tail-length of frames, so a pass
/// that starts elsewhere filters its first frames against the far end of the present and adapts
/// on that error (passes over the last second every 0.5 s diverged the filter in some rooms;
/// bench/README.md, "Extra adaptation passes of a young canceller"); a spurt that follows a pause
/// of the tail's length, replayed while the present is such a pause, sees silence there both times.
///
/// A pass adapts on what it replays, so none runs while a near end may be in it: double talk (the
/// detector: `sinceDoubleTalk` within the pass) or a near end the residual echo suppressor heard
/// within `ResidualEchoSuppressor.explainedHoldSeconds`; nor while a shadow or fast start runs or
/// a warm start's replay is pending (they replay the history themselves); nor with a fixed
/// `delay=` (its output stays speex's own, frame for frame). A pass is at most
/// `LinearEchoCanceller.replayBudget` (a warm start's most in one frame); a longer spurt gets none.
package struct YoungFilterPasses {
    /// Far end (s) after the first delay during which passes run.
    package static let youngSeconds = 15.0

    /// DSP frames a pass replays at most, a pause must last (the tail's), and of far end while
    /// the filter is young.
    package let mostFrames: Int, pauseFrames: Int, youngFrames: Int
    /// Frames of far end since the first delay; frames seen; the far end's silent frames in a row
    /// (up to `pauseFrames`); the frame the current spurt began in, if a pause preceded it.
    private var farFrames = 0, frame = 0, silent: Int
    private var spurtStart: Int?
    /// Passes run over the stream (`--stats`, tests).
    package private(set) var passesRun = 0

    /// For frames of `frameSeconds` and a canceller of `tailFrames` taps of `frameFrames` frames.
    package init(frameSeconds: Double, frameFrames: Int, tailFrames: Int) {
        mostFrames = max(1, Int(LinearEchoCanceller.replayBudget * frameSeconds / 0.02 / Double(max(1, tailFrames))))
        pauseFrames = max(1, (tailFrames + frameFrames - 1) / frameFrames)
        youngFrames = max(1, Int((Self.youngSeconds / frameSeconds).rounded()))
        // Before the stream speex's far-end history is zeros: a pause.
        silent = pauseFrames
    }

    /// Before the frame is cancelled: the frames a pass should replay now (back to the spurt's
    /// first), or nil. `delayKnown`: `delay=auto` has found the delay; `busy`: a shadow or fast
    /// start runs, or a replay is pending; `sinceDoubleTalk`: DSP frames since double talk;
    /// `nearHeard`: the suppressor heard a near end within its hold.
    package mutating func due(delayKnown: Bool, busy: Bool, sinceDoubleTalk: Int, nearHeard: Bool) -> Int? {
        guard delayKnown, farFrames < youngFrames, silent == pauseFrames, let start = spurtStart else { return nil }
        spurtStart = nil
        let frames = frame - start
        guard frames <= mostFrames, !busy, !nearHeard, sinceDoubleTalk > frames else { return nil }
        passesRun += 1
        return frames
    }

    /// After the frame: whether the far end played in it.
    package mutating func count(farEnd: Bool, delayKnown: Bool) {
        if farEnd {
            if delayKnown { farFrames += 1 }
            // A spurt begins after a pause of the tail's length (else it continues, or is unbracketed).
            if silent >= pauseFrames { spurtStart = frame }
            silent = 0
        } else {
            silent = min(silent + 1, pauseFrames + 1)
        }
        frame += 1
    }
}
