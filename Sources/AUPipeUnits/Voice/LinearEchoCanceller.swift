import AUPipeFormats
import AUPipeGraph

/// `aec`'s linear canceller: the speex echo state in use (`EchoState`, `tail=` long) and the
/// recent past of both inputs (`EchoHistory`: the reference's delay line, and what warm starts
/// and a shadow's retraining replay).
///
/// With `delay=auto` it also holds a spare state, never used until a warm start over the whole
/// stream so far replaces the state in use with it (see `warmStart`). A state replaced by the
/// path-change part (`replace(with:)`) lives on for as long as another holder (the shadow, the
/// preprocessor) keeps it.
package final class LinearEchoCanceller {
    /// How much history a warm start replays at most, in seconds, beyond `max-delay=`: with it
    /// the history reaches back to the stream's start when the first estimate comes up to two
    /// analyses (0.5 s) after the earliest it can (1 s plus `max-delay=`).
    package static let warmStartSeconds = 1.5

    /// The state in use.
    package private(set) var state: EchoState
    /// `delay=auto`: the spare state, until a warm start takes it (or never).
    private var fresh: EchoState?
    package let history: EchoHistory
    /// How much history a warm start replays at most, in DSP frames (the history may hold more,
    /// for a shadow's retraining); 0 with a fixed delay.
    package let warmStartFrames: Int
    /// The most replay a warm start does in the frame that asks for it, in frames replayed ×
    /// the filter's taps, per 20 ms of frame: beyond it the replay is left to the frames that
    /// follow, while a fast start's short filter cancels (`replayFits`). The whole history
    /// (2 s) of the default 400 ms tail at 16 kHz is within it (640 000: 8.7 ms of a 20 ms
    /// frame, which a drift's engagement splits over two: `driftEngaged`'s `split`); at 48 kHz
    /// (1 920 000) it is not: 18–26 ms in one frame.
    package static let replayBudget = 640_000.0
    /// Whether the state in use, reset by a warm start beside a running shadow (`delayMoved`'s
    /// `beside`), is still catching up on its replay: `cancel` then leaves the frame to the
    /// shadow's output.
    package private(set) var catchingUp = false
    /// DSP frames cancelled so far.
    package private(set) var framesRun = 0
    /// The history the latest warm start after a delay change replayed, and that the retraining
    /// at the start of drift compensation replayed, in DSP frames (0: none).
    package private(set) var warmFrames = 0, driftRetrainedFrames = 0
    private let frameFrames: Int, mics: Int, tailFrames: Int, frameSeconds: Double
    /// The frames a state catching up beside a running shadow (`catchingUp`) replays in one
    /// frame: `replayBudget`'s worth (33 of the 400 ms tail at 48 kHz, 20 ms frames). Fewer
    /// leave the shadow's output in place longer: 10 a frame cost 0.3 dB of ERLE and 0.45 dB of
    /// SI-SDR on bench/aec/'s `drift+500` at 48 kHz, 33 nothing.
    private let catchUpFrames: Int

    /// For `layout`'s stream; `automatic` with `delay=auto` (a spare state, and warm starts);
    /// `historyFrames`, the DSP frames of history others replay (a shadow's retraining).
    package init(layout: EchoLayout, automatic: Bool, historyFrames: Int) throws {
        frameFrames = layout.frameFrames
        mics = layout.mics
        tailFrames = layout.tailFrames
        frameSeconds = Double(layout.frameFrames) / Double(layout.rate)
        catchUpFrames = max(1, Int(Self.replayBudget * frameSeconds / 0.02 / Double(layout.tailFrames)))
        state = try Self.state(layout, tailFrames: layout.tailFrames)
        if automatic { fresh = try Self.state(layout, tailFrames: layout.tailFrames) }
        // delay=auto warm-starts from the history; a shadow's retraining replays from it too.
        warmStartFrames = automatic ? (Int((Self.warmStartSeconds * Double(layout.rate)).rounded()) + layout.maxDelayFrames) / layout.frameFrames : 0
        history = EchoHistory(frameFrames: layout.frameFrames, mics: layout.mics, speakers: layout.speakers, maxDelay: layout.maxDelayFrames,
                              capacity: max(warmStartFrames, historyFrames))
    }

    /// A new echo state for `layout`'s frames, microphones, loudspeakers and rate, `tailFrames` long.
    package static func state(_ layout: EchoLayout, tailFrames: Int) throws -> EchoState {
        try EchoState(frameFrames: layout.frameFrames, tailFrames: tailFrames, mics: layout.mics, speakers: layout.speakers, rate: layout.rate)
    }

    /// Cancels one frame with the state in use (`rec`, `play` and `out` as `EchoState.cancel`).
    /// Returns false, `out` untouched, while the state catches up on a warm start beside a
    /// running shadow (`catchingUp`: `catchUpFrames` of its frames a frame; the caller takes
    /// the shadow's output, or `settle`s).
    @discardableResult
    package func cancel(_ rec: UnsafePointer<Int16>, _ play: UnsafePointer<Int16>, into out: UnsafeMutablePointer<Int16>) -> Bool {
        framesRun += 1
        if catchingUp {
            guard state.catchUp(most: catchUpFrames) else { return false }
            catchingUp = false
        }
        // A state in use is current (a deferred replay is caught up with before it is used).
        _ = state.catchUp(most: .max)
        state.cancel(rec, play, into: out)
        return true
    }

    /// A state still catching up (`catchingUp`) finishes now, and runs the current frame
    /// (`rec`, `play`) into `out`, after a `cancel` that returned false: before anyone takes it
    /// (a shadow's take-over), or when no shadow output can stand in. Nothing otherwise.
    package func settle(_ rec: UnsafePointer<Int16>, _ play: UnsafePointer<Int16>, into out: UnsafeMutablePointer<Int16>) {
        guard catchingUp else { return }
        catchingUp = false
        _ = state.catchUp(most: .max)
        state.cancel(rec, play, into: out)
    }

    /// Another state is the one in use from now on (a shadow took over, or handed back).
    package func replace(with other: EchoState) {
        state = other
        catchingUp = false
    }

    /// The delay moved to `delay` frames: a warm start of at most `warmStartFrames`. With
    /// `deferred` (a fast start puts a short filter in use meanwhile: the call's first delay,
    /// or a replay beyond `replayBudget`; `EchoPathChange.delayFound`) the replay is left to the frames that follow
    /// (`EchoState.deferReplay`: nobody reads the state before it has caught up), so that no
    /// frame does all of it.
    ///
    /// With `beside` (a replay beyond `replayBudget` while a shadow runs, which no fast start
    /// can cover) the state in use is reset and its replay left to the frames that follow as
    /// well (`catchingUp`), the running shadow's output standing in meanwhile
    /// (`EchoPathChange.afterCancel`). (A second state replayed instead, the one in use
    /// cancelling at the former delay meanwhile, lost 0.6 dB of ERLE: speex's reset keeps the
    /// per-block step sizes of a filter adapted to the room, a second state has none.)
    package func delayMoved(to delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>, deferred: Bool = false,
                            beside: Bool = false) {
        warmFrames = warmStart(delay: delay, play: play, scratch: scratch, most: warmStartFrames, deferred: deferred || beside)
        catchingUp = beside && warmFrames > 0
    }

    /// Drift compensation has just engaged: the past is warped by `warp` (factor − 1) and the
    /// canceller warm-started over all the history holds (`deferred` as `delayMoved`'s).
    ///
    /// With `split`, called after the frame in which the compensation engaged was cancelled
    /// (by the state as it was): half of the replay runs now, the rest (and that frame) at the
    /// next frame's `cancel`, so that no frame runs all of it (`EchoState.deferReplay`). The
    /// retraining is one frame later than it would be before that frame's cancel.
    package func driftEngaged(warp: Double, delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>, deferred: Bool = false,
                              split: Bool = false) {
        history.warpPast(by: warp)
        guard split else {
            driftRetrainedFrames = warmStart(delay: delay, play: play, scratch: scratch, most: .max, deferred: deferred)
            return
        }
        // The frame just cancelled is recorded and counts among those held: the replay before
        // it reaches one frame less far back, and takes it at the next frame.
        let before = warmStart(delay: delay, play: play, scratch: scratch, most: history.framesHeld - 1, deferred: true)
        _ = state.catchUp(most: before / 2)
        driftRetrainedFrames = before + 1
    }

    /// Whether a warm start now fits `replayBudget` in one frame: a delay's move (`delayMoved`,
    /// `drift` false) or a drift's engagement (all the history).
    package func replayFits(drift: Bool) -> Bool {
        let frames = min(history.framesHeld, drift ? .max : warmStartFrames)
        return Double(frames) * Double(tailFrames) <= Self.replayBudget * frameSeconds / 0.02
    }

    /// The filter adapted to the old alignment is wrong for the new one: the canceller starts
    /// afresh and is run again over the history (oldest frame first, the frames and microphone
    /// samples it saw, the reference at the new `delay`), its output discarded into `scratch`
    /// (`frameFrames × mics`; `play`, `frameFrames`, takes the reference), so that it is now as
    /// converged as if it had had this delay all along, or over the history's length. Returns
    /// the DSP frames replayed, at most `most`.
    ///
    /// When the history holds the whole stream so far (a first estimate within the history's
    /// length), the spare state, never used, replaces the one in use (the preprocessor follows
    /// it at the frame's post-filter): the canceller is then exactly the one a fixed `delay=`
    /// would have given. Otherwise the state in use is reset: speex's reset leaves the filter's
    /// per-block step sizes and the echo estimate its preprocessor reads as they were until the
    /// filter counts as adapted again (a fresh state, replayed from the middle of the stream, can
    /// converge before speex counts it as adapted, and its preprocessor then sees no residual
    /// echo to suppress until the echo path changes).
    private func warmStart(delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>, most: Int,
                           deferred: Bool = false) -> Int {
        let replayed = min(history.framesHeld, most)
        catchingUp = false
        if let spare = fresh, replayed == framesRun {
            fresh = nil
            state = spare
        } else {
            state.reset()
        }
        if deferred, replayed > 0 {
            state.deferReplay(replayed, history: history, delay: delay)
            return replayed
        }
        for back in stride(from: replayed, through: 1, by: -1) {
            history.reference(back: back, delay: delay, into: play)
            state.cancel(history.mic(back: back), play, into: scratch)
        }
        return replayed
    }
}
