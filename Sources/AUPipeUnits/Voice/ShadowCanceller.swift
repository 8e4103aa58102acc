import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// `aec`'s answer to an echo-path change: a second speex echo state that, once the canceller's
/// cancellation has suddenly fallen (`DoubleTalkDetector`), starts afresh and runs beside the
/// canceller in use, on the same frames, until one of them has clearly won; for its first
/// `replaySeconds` it is retrained on all it has seen (`EchoHistory`) every `retrainSeconds`
/// (after `leastSeconds`, only while it is within `promiseDB` of the canceller in use).
///
/// A sudden fall of the cancellation is either double talk (the near end talking: the
/// microphone is no longer explained by the far end, and the filter in use, adapted before,
/// is the better one) or a change of the echo path (someone moved, a door opened: the
/// microphone is still the far end through a room, and a filter that learns from the frames
/// after the change cancels far more than the old one, which speex re-adapts only slowly). The
/// shadow tells them apart by outcome: it takes over only when its own output has been
/// `winDB` quieter than the output in use over `window` seconds of frames with echo, after at
/// least `leastSeconds` beside it; a linear filter cannot cancel a near end, so in double talk
/// it never wins, and is dropped once it is `loseDB` louder than the canceller in use, or
/// after `mostSeconds`. The canceller in use at the fall is never
/// reset; a shadow that has taken over goes on being retrained until `replaySeconds` after it
/// started. The shadow's tail is `shortTailSeconds` when the canceller's is longer: once such a
/// short shadow has taken over, the replaced full-tail state runs on beside it and is handed
/// its place back once it cancels more (`handBack`).
///
/// Only while a shadow runs is speex run twice per frame. The retraining is spread over the
/// frames that follow: a third speex state, the learner, is reset and replayed in the
/// background, caught up with the stream, then swapped in. **In any one frame a retraining
/// makes at most `replayCallsPerFrame` (20) speex calls** on top of the canceller's and the
/// shadow's, so a live capture never falls behind (replayed in one frame, the longest
/// retraining took 150 calls). Otherwise it costs nothing, and it never changes a sample unless
/// it takes over. The states, the output buffer and everything else are allocated in `init`;
/// the states are `EchoState`s, swapped between the shadow, the learner and the canceller in
/// use as objects. Measured figures behind the constants: bench/README.md, "Figures behind
/// aec's constants".
package final class ShadowCanceller {
    /// A shadow is retrained on what it has seen every `retrainSeconds` up to `replaySeconds`
    /// after it started, `passes` times over: a fresh filter learns a new echo path from a
    /// fraction of a second several times faster so than from one pass; more often, more passes
    /// or a longer replay were no better on bench/aec/'s path changes.
    package static let replaySeconds = 1.0, retrainSeconds = 0.1, passes = 3
    /// The most speex calls a retraining makes in one frame (the replay's and the catch-up's):
    /// enough that the take-over comes as soon as with a replay in one frame, few enough that
    /// the frame's CPU stays within a live frame's time.
    package static let replayCallsPerFrame = 20
    /// The most frames of a deferred warm start (`EchoState.deferReplay`) the replaced
    /// full-tail state catches up on in one frame while a fast start's short filter is in use:
    /// ten calls of the full tail cost about as much as the retraining's twenty of the short one.
    package static let catchUpCallsPerFrame = 10
    /// How much quieter (dB) the shadow's output must be to take over, over how long (s), and
    /// the least and most time (s) it runs beside the canceller. A low margin takes over sooner
    /// after a path change; a take-over that was premature (the replaced filter re-adapting
    /// faster than the shadow) is undone by the hand-back. A linear filter cannot cancel a near
    /// end, so double talk never wins by any margin.
    package static let winDB = 2.0, window = 0.2, leastSeconds = 0.2, mostSeconds = 2.0
    /// The shadow's tail (s) when the canceller's is longer: a short filter has far fewer
    /// taps to learn and cancels a room's direct path and early echo within a fraction of a
    /// second, where a fresh filter of the whole tail learns a reverberant room slowly. Once
    /// such a short shadow has taken over, the replaced full-tail canceller goes on adapting to
    /// the new path beside it and is handed back its place once it cancels as much
    /// (`handBackDB`), or after `handBackMostSeconds` in any case. Shorter left reverberant
    /// rooms without cancellation for seconds; longer took over later in small rooms.
    package static let shortTailSeconds = 0.2
    /// How much quieter (dB) the replaced full-tail canceller's output must be than the short
    /// shadow's, over `window` after `handBackLeastSeconds`, to be handed back its place, and
    /// the most time (s) the short one keeps it. A margin and a wait, so that the place is not
    /// handed back right after a take-over, while both filters are still poor.
    package static let handBackDB = 1.0, handBackLeastSeconds = 0.5, handBackMostSeconds = 8.0
    /// The most time (s) a fast start's short filter keeps the place (`start(seen:)`): then
    /// the shadow is free for a path change (8 s kept the scene tests' at 3 and 4.5 s out).
    package static let fastStartMostSeconds = 2.0
    /// How much louder (dB) the shadow's output must be, over `window` after `leastSeconds` of
    /// frames with echo (a shadow started in a pause of the far end has learnt nothing of the
    /// path yet), to be dropped at once: in double talk the canceller in use still cancels the
    /// echo and the fresh shadow does not, while after a path change a shadow is at worst a
    /// little louder than the old filter. Dropping those shadows saves their CPU.
    package static let loseDB = 4.0
    /// How long (s) the replaced state goes on running after a take-over, for the preprocessor,
    /// when the shadow has the canceller's own tail (no hand-back).
    package static let trailSeconds = 1.0
    /// The least time (s) between the end of one shadow and the start of the next.
    package static let pauseSeconds = 0.5
    /// How much louder (dB) than the canceller in use a shadow started at a fall may be, after
    /// `leastSeconds`, for a retraining due to start (else it waits for a later one): in double
    /// talk shadows stay 1–4 dB louder for seconds, retrained for nothing; the path changes'
    /// winners on bench/aec/'s scenes were at most 1.9 dB louder at 0.2 s (bench/README.md).
    package static let promiseDB = 2.5

    package let frameFrames: Int, mics: Int
    /// The replay's length, and the least/most/pause times and the window, in DSP frames.
    package let replayFrames: Int, retrainFrames: Int
    private let leastFrames: Int, mostFrames: Int, pauseFrames: Int, trailFrames: Int, handBackLeastFrames: Int, handBackFrames: Int
    private let fastStartFrames: Int
    /// Whether the shadow's tail is shorter than the canceller's: a take-over is then followed
    /// by a hand-back (`handBack`).
    package let handsBack: Bool
    private let smooth: Double
    private let winRatio = pow(10, ShadowCanceller.winDB / 10), loseRatio = pow(10, ShadowCanceller.loseDB / 10)
    private let handBackRatio = pow(10, -ShadowCanceller.handBackDB / 10)
    private let promiseRatio = pow(10, ShadowCanceller.promiseDB / 10)
    /// The shadow's echo state, and its output of the latest frame.
    package private(set) var state: EchoState
    package let output: UnsafeMutablePointer<Int16>
    /// Where the shadow's cycle is (`Phase`).
    package private(set) var phase = Phase.idle(frames: Int.max / 2)
    /// Whether a shadow runs now.
    package var running: Bool {
        if case .running = phase { return true }
        return false
    }
    /// The learner's state (idle between retrainings), and the frames since the shadow started
    /// (counted up to `replayFrames` plus the longest retraining, while retraining may go on).
    private var learner: EchoState
    private var learned = 0
    private var retraining = Retraining.off
    /// Smoothed output energies over frames with echo: the canceller in use, the shadow.
    package private(set) var inUse = 0.0, shadow = 0.0
    /// Shadows started and shadows that took over, over the stream (`started` and `tookOver`
    /// count the shadows started at a fall of the cancellation, not the fast starts).
    package private(set) var started = 0, tookOver = 0, handedBack = 0
    /// Whether the shadow running (or trailing after its take-over) is a fast start
    /// (`start(seen:)`), not an answer to a fall of the cancellation.
    package private(set) var fastStart = false
    /// Fast starts, and the stream time (s) of the latest one's take-over.
    package private(set) var fastStarts = 0, fastStartTookOverAt: Double?
    /// The past frames counted as seen at the start (`start(seen:)`); retrained up to `retrainUntil`.
    private var seenAtStart = 0, retrainUntil = 0

    /// Stream time (s) of the latest take-over.
    package private(set) var lastTakeOver: Double?
    /// Speex calls the retraining made in the latest frame, the most in any frame, and
    /// retrainings finished (swapped in), over the stream (for the tests).
    package private(set) var replayCalls = 0, mostReplayCalls = 0, retrainsDone = 0

    /// `state` and `learner` are echo states for these frames and channels, never used by
    /// anyone else; `handsBack` when their tail is shorter than the canceller's (see
    /// `shortTailSeconds`).
    package init(state: EchoState, learner: EchoState, frameFrames: Int, mics: Int, rate: Int, handsBack: Bool = false) {
        self.state = state
        self.handsBack = handsBack
        self.learner = learner
        self.frameFrames = frameFrames
        self.mics = mics
        let seconds = Double(frameFrames) / Double(rate)
        func frames(_ s: Double) -> Int { max(1, Int((s / seconds).rounded())) }
        replayFrames = frames(Self.replaySeconds)
        retrainFrames = frames(Self.retrainSeconds)
        leastFrames = frames(Self.leastSeconds)
        mostFrames = frames(Self.mostSeconds)
        pauseFrames = frames(Self.pauseSeconds)
        trailFrames = frames(Self.trailSeconds)
        handBackLeastFrames = frames(Self.handBackLeastSeconds)
        handBackFrames = frames(Self.handBackMostSeconds)
        fastStartFrames = frames(Self.fastStartMostSeconds)
        smooth = 1 - exp(-seconds / Self.window)
        output = .allocate(capacity: frameFrames * mics)
        output.initialize(repeating: 0, count: frameFrames * mics)
    }

    deinit { output.deallocate() }

    /// The history a retraining needs, in DSP frames: `replayFrames` and the frames that come
    /// in while the longest retraining (`passes` × `replayFrames` calls) is under way.
    package var historyFrames: Int {
        let b = Self.replayCallsPerFrame
        return replayFrames + (Self.passes * replayFrames + b - 2) / (b - 1) + 2
    }

    /// Frames the replaced state still runs after a take-over (see `takeOver`), 0 otherwise.
    package var trailing: Int {
        if case .trailing(let left, _) = phase { return left }
        return 0
    }

    /// Whether neither a shadow nor a replaced state runs now (a fast start may begin).
    package var idle: Bool {
        if case .idle = phase { return true }
        return false
    }

    /// Whether a shadow may start now: none runs, no replaced state runs, and the last one
    /// ended `pauseSeconds` ago.
    package var mayStart: Bool {
        if case .idle(let frames) = phase { return frames >= pauseFrames }
        return false
    }

    /// Starts a shadow: the state is reset, to learn from this frame on.
    package func start() {
        begin(seen: 0)
        started += 1
    }

    /// A fast start: a shadow that also learns from the `seen` DSP frames just before this one
    /// (the history must hold them): its first retraining replays them at once, and it is
    /// retrained every `retrainSeconds` over at most the last `replaySeconds` for
    /// `replaySeconds`. For the start of a call, as soon as the delay is known
    /// (`EchoPathChange.delayFound`, which puts it in use at once): the short, retrained filter
    /// cancels the first echo within a fraction of a second, while the full-tail canceller,
    /// fresh too, learns the room in the usual way and is handed its place back once it
    /// cancels as much. Its take-over is not an echo-path change (`tookOver` and
    /// `lastTakeOver` are not counted: `fastStartTookOverAt`).
    package func start(seen: Int) {
        begin(seen: max(0, seen))
                fastStart = true
        fastStarts += 1
    }

    private func begin(seen: Int) {
        state.reset()
        phase = .running(ran: 0, heard: 0)
        retraining = .due
        learned = seen
        seenAtStart = seen
        retrainUntil = seen + replayFrames
        fastStart = false
        inUse = 0
        shadow = 0
    }

    /// Call at the start of each frame: every `retrainFrames` up to `replayFrames` after a
    /// shadow started, a retraining starts: the learner is reset and trained, `passes` times
    /// over, on all the shadow has seen so far (the history's frames since the start, the
    /// reference at `delay`; output discarded into `scratch`, `play` takes the reference), then
    /// on the frames that came in meanwhile: a fresh filter learns the new echo path from a
    /// fraction of a second several times faster so than from one pass. It goes on over the
    /// following frames, at most `replayCallsPerFrame` speex calls per frame; once it has
    /// caught up with the stream, the learner replaces the shadow's state (or, if the shadow
    /// has taken over meanwhile, `inUse`, which is then returned: the caller goes on with it,
    /// and the state it replaced becomes the next learner). Returns nil otherwise.
    package func retrain(history: EchoHistory, delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>,
                 inUse: EchoState) -> EchoState? {
        replayCalls = 0
        // (Retraining is due until `learned` passes `replayFrames`: see `run`.)
        if case .due = retraining, learned > 0, (learned - seenAtStart) % retrainFrames == 0, showsPromise {
            learner.reset()
            // At most the last `replayFrames` (a fast start's past counts; a shadow started at
            // a fall has seen no more when it retrains).
            let from = max(0, learned - history.framesHeld, learned - replayFrames)
            retraining = .replaying(Replay(next: from, from: from, end: learned), thenDue: true)
        }
        guard case .replaying(var r, let thenDue) = retraining else { return nil }
        while replayCalls < Self.replayCallsPerFrame {
            // Frames that have fallen out of the history (a long retraining) are skipped.
            r.next = max(r.next, learned - history.framesHeld)
            if r.pass < Self.passes, r.next >= r.end {
                r.pass += 1
                r.next = r.pass < Self.passes ? max(r.from, learned - history.framesHeld) : r.end
                continue
            }
            guard r.next < learned else { break }
            history.reference(back: learned - r.next, delay: delay, into: play)
            learner.cancel(history.mic(back: learned - r.next), play, into: scratch)
            r.next += 1
            replayCalls += 1
        }
        mostReplayCalls = max(mostReplayCalls, replayCalls)
        guard r.pass == Self.passes, r.next == learned else {
            retraining = .replaying(r, thenDue: thenDue)
            return nil
        }
        // Caught up: the learner takes this frame live, in place of the state it was trained for.
        retraining = thenDue ? .due : .off
        retrainsDone += 1
        let trained = learner
        // Not running with a replay under way: the shadow has taken over meanwhile (`stop` and
        // `handBack` end a replay), so the learner replaces the state now in use.
        if !running {
            learner = inUse
            return trained
        }
        learner = state
        state = trained
        return nil
    }

    /// Whether a retraining due now is worth its calls (`promiseDB`; a fast start's, a taken-over
    /// shadow's and one's under `leastSeconds` always are).
    private var showsPromise: Bool {
        guard !fastStart, case .running(let ran, _) = phase, ran >= leastFrames else { return true }
        return shadow <= promiseRatio * self.inUse
    }

    /// Stops the shadow without a take-over (it lost, or ran for `mostSeconds`).
    package func stop() {
        phase = .idle(frames: 0)
        retraining = .off
    }

    /// One frame beside the canceller in use: the shadow cancels `rec` with `play` into
    /// `output`; `inUseOutput` is the canceller's output of the same frame, `echo` whether the
    /// frame has echo (the far end playing). After a take-over the replaced state runs on the
    /// frames for `trailSeconds` (its output discarded into `output`), or, `handsBack`, until it
    /// cancels as much as the short one in use (then `.handBack`, its output in `output`), at
    /// most `handBackMostSeconds`. Otherwise, not running: does nothing.
    /// `compared` false: `inUseOutput` is not one (the canceller in use is catching up on a warm
    /// start and this frame's output is the shadow's): the running shadow is not compared.
    package func run(rec: UnsafePointer<Int16>, play: UnsafePointer<Int16>, inUseOutput: UnsafePointer<Int16>, echo: Bool,
                     compared: Bool = true) -> Verdict {
        switch retraining {
        case .off:
            break
        case .due:
            learned += 1
            if learned > retrainUntil { retraining = .off }
        case .replaying(let r, let thenDue):
            learned += 1
            if learned > retrainUntil, thenDue { retraining = .replaying(r, thenDue: false) }
        }
        switch phase {
        case .idle(let frames):
            phase = .idle(frames: frames + 1)
            return .none
        case .trailing(let left, let ran):
            // A fast start's full-tail canceller may still owe a warm start's replay
            // (`EchoState.deferReplay`): it runs `catchUpCallsPerFrame` frames of it a frame,
            // the frames it missed meanwhile compared in order, late, and is current before
            // anything reads it (the hand-back's least time), so that nothing changes but when
            // the work is done.
            let due = !handsBack || ran + 1 >= handBackLeastFrames || left == 1
            let current = state.catchUp(most: due ? .max : Self.catchUpCallsPerFrame) { out, played in
                let n = frameFrames * state.speakers
                if ERLEMeter.energy(played, count: n) / Double(n) > ERLEMeter.activeThreshold { compareShadow(out) }
            }
            if current { state.cancel(rec, play, into: output) }
            guard handsBack else {
                phase = left > 1 ? .trailing(left: left - 1, ran: ran) : .idle(frames: 0)
                return .none
            }
            phase = left > 1 ? .trailing(left: left - 1, ran: ran + 1) : .idle(frames: 0)
            if echo { compareInUse(inUseOutput) }
            if echo, current { compareShadow(output) }
            return (ran + 1 >= handBackLeastFrames && shadow <= handBackRatio * inUse) || left == 1 ? .handBack : .none
        case .running(let ran, let heard):
            state.cancel(rec, play, into: output)
            let now = heard + (echo && compared ? 1 : 0)
            phase = .running(ran: ran + 1, heard: now)
            compare(inUseOutput, echo: echo && compared)
            if ran + 1 >= leastFrames, shadow * winRatio < inUse { return .takeOver }
            if ran + 1 >= mostFrames || (now >= leastFrames && shadow > loseRatio * inUse) { stop() }
            return .none
        }
    }

    /// The smoothed energies of the output in use and of `output`, over frames with echo.
    private func compare(_ inUseOutput: UnsafePointer<Int16>, echo: Bool) {
        guard echo else { return }
        compareInUse(inUseOutput)
        compareShadow(output)
    }

    /// One frame with echo of the output in use, and of the shadow's (or the replaced state's).
    private func compareInUse(_ out: UnsafePointer<Int16>) { inUse += smooth * (ERLEMeter.energy(out, count: frameFrames * mics) - inUse) }
    private func compareShadow(_ out: UnsafePointer<Int16>) { shadow += smooth * (ERLEMeter.energy(out, count: frameFrames * mics) - shadow) }

    /// The shadow has won at stream time `time` (s): its state is the one in use from now on;
    /// `old`, the state it replaces, becomes the next shadow's. Returns the shadow's state.
    ///
    /// With `trail` (speex's preprocessor is attached to the echo state), `old` first goes on
    /// running on the frames for `trailSeconds` (no shadow starts meanwhile), and the caller
    /// leaves speex's preprocessor attached to it until `trailing` is 0: speex's estimate of the residual echo, which its preprocessor suppresses by, stays
    /// zero in a state until speex counts its filter as adapted (after about four frames of far
    /// end per block of the tail, replays counted), and a state that takes over within a second
    /// of a path change is seldom that far yet; the replaced state's estimate still follows the
    /// far end, and reconvergence after a path change comes sooner.
    package func takeOver(replacing old: EchoState, at time: Double, trail: Bool) -> EchoState {
        let won = state
        state = old
        if fastStart {
            // (The first: a later fast start covers a warm start too long for one frame.)
            if fastStartTookOverAt == nil { fastStartTookOverAt = time }
        } else {
            tookOver += 1
            lastTakeOver = time
        }
        let left = handsBack ? (fastStart ? fastStartFrames : handBackFrames) : trail ? trailFrames : 0
        phase = left > 0 ? .trailing(left: left, ran: 0) : .idle(frames: 0)
        inUse = 0
        shadow = 0
        return won
    }

    /// The replaced full-tail canceller cancels as much as the short shadow in use (or the
    /// short one has had its `handBackMostSeconds`): `inUse`, the short state, becomes the
    /// next shadow's, its retraining ends; returns the full-tail state, the one in use from
    /// now on (the caller leaves the preprocessor attached to it).
    package func handBack(inUse short: EchoState) -> EchoState {
        // A replay still owed is done now: the state is in use from this frame on.
        _ = state.catchUp(most: .max)
        let full = state
        state = short
        phase = .idle(frames: 0)
        retraining = .off
        handedBack += 1
        return full
    }
}
