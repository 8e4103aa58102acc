import AUPipeFormats
import AUPipeGraph

/// `ShadowCanceller`'s states: where its cycle is, where a retraining is, and what a frame
/// asks of the caller.
extension ShadowCanceller {
    /// Where the shadow's cycle is: nothing runs beside the canceller, a shadow runs, or the
    /// state a shadow replaced runs on after a take-over.
    package enum Phase: Equatable {
        /// No shadow and no replaced state run; `frames` since the last one ended.
        case idle(frames: Int)
        /// A shadow runs beside the canceller in use, `ran` frames so far, `heard` of them with
        /// echo compared (the least time before it may be dropped counts these: a shadow started
        /// in a pause of the far end has learnt nothing of the echo path yet, and its energies
        /// compared over a frame or two say nothing).
        case running(ran: Int, heard: Int)
        /// After a take-over the replaced state runs on for `left` more frames; `ran` frames
        /// so far (counted with `handsBack`, for the hand-back's least time).
        case trailing(left: Int, ran: Int)
    }

    /// A retraining under way: the frames it replays (counted from the shadow's start,
    /// `from..<end`), the pass, and the next frame; after the last pass it goes on from `end`
    /// up to the current frame, which it then processes live.
    package struct Replay {
        package var pass = 0, next: Int
        package let from: Int, end: Int
    }
    /// Where retraining is: off; due, while the shadow's frames are still retrained on (until
    /// `replayFrames` after the start: a retraining starts every `retrainFrames`); or a replay
    /// under way, `thenDue` when more are due after it. The retrained state replaces the
    /// shadow's, or, once the shadow has taken over (it is no longer running), the canceller's
    /// in use.
    package enum Retraining {
        case off
        case due
        case replaying(Replay, thenDue: Bool)
    }

    /// What `run` asks of the caller.
    package enum Verdict {
        /// Nothing: the canceller in use stays.
        case none
        /// The shadow takes over: the caller uses `output` and `takeOver(replacing:)`s its state.
        case takeOver
        /// A short shadow that took over gives the replaced full-tail canceller its place back:
        /// the caller uses `output` (that canceller's) and `handBack(inUse:)`s.
        case handBack
    }
}

extension ShadowCanceller {
    /// Whether a shadow runs and its smoothed output over frames with echo is quieter than the
    /// canceller's in use (after a path change it is the better estimate of the echo; in double
    /// talk a fresh shadow is louder).
    package var runsQuieter: Bool { running && shadow < inUse }
}
