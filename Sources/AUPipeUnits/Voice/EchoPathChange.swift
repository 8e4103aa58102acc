import AUPipeFormats
import AUPipeGraph

/// `aec`'s watch on the echo path: double talk as a sudden fall of the cancellation
/// (`DoubleTalkDetector`), a shadow canceller started at such a fall (`ShadowCanceller`), and
/// the verdict that tells the two apart: a shadow that takes over confirms a path change (the
/// detector is told, and the residual echo suppressor gets `justChanged`).
///
/// The linear canceller's state in use is swapped here on a take-over or a hand-back
/// (`LinearEchoCanceller.replace(with:)`); the shadow keeps the states it trains.
package final class EchoPathChange {
    /// How long (s) after a take-over, while the replaced canceller still runs beside the new
    /// one, the residual echo suppressor takes the frames as echo unless the double-talk
    /// detector says otherwise (`ResidualEchoSuppressor.run`'s `pathChanged`).
    package static let pathChangeSeconds = 1.0

    package let shadow: ShadowCanceller
    package private(set) var doubleTalk: DoubleTalkDetector
    /// Double talk for the residual echo suppressor: the same detector, its envelope held
    /// while double talk lasts (`DoubleTalkDetector.heldFallSeconds`), its cancellation read
    /// with the output's background taken out (`noiseAware`).
    package private(set) var nearTalk: DoubleTalkDetector
    /// Stream frames since double talk was last seen (the drift trackers freeze within it).
    package private(set) var sinceDoubleTalk = Int.max / 2
    private let frameFrames: Int, mics: Int
    /// Stream time (s) at which the first fast start's short filter gave the full-tail
    /// canceller its place back (`delayFound`), if it took over and has.
    package private(set) var fastStartBackAt: Double?

    /// For `layout`'s stream. The shadow's tail is at most `ShadowCanceller.shortTailSeconds`:
    /// it learns a new echo path fast.
    package init(layout: EchoLayout) throws {
        frameFrames = layout.frameFrames
        mics = layout.mics
        let rate = layout.rate, tailFrames = layout.tailFrames
        let shadowTail = min(tailFrames, max(frameFrames, Int((ShadowCanceller.shortTailSeconds * Double(rate)).rounded())))
        shadow = ShadowCanceller(state: try LinearEchoCanceller.state(layout, tailFrames: shadowTail),
                                 learner: try LinearEchoCanceller.state(layout, tailFrames: shadowTail),
                                 frameFrames: frameFrames, mics: mics, rate: rate, handsBack: shadowTail < tailFrames)
        doubleTalk = DoubleTalkDetector(frameFrames: frameFrames, rate: rate)
        nearTalk = DoubleTalkDetector(frameFrames: frameFrames, rate: rate, heldFallSeconds: DoubleTalkDetector.heldFallSeconds, noiseAware: true)
    }

    /// Before the frame is cancelled: a sudden fall of the cancellation (double talk or an
    /// echo-path change) starts a shadow, trained on the recent past, beside `linear`; a
    /// retraining under way goes on (the reference at `delay`; `play` and `scratch` as
    /// `ShadowCanceller.retrain`). A shadow that took over and has been retrained since puts
    /// the retrained state in use.
    package func beforeCancel(_ linear: LinearEchoCanceller, delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>) {
        if doubleTalk.active, shadow.mayStart { shadow.start() }
        if let retrained = shadow.retrain(history: linear.history, delay: delay, play: play, scratch: scratch, inUse: linear.state) {
            linear.replace(with: retrained)
        }
    }

    /// `delay=auto` has found the delay for the first time (the linear canceller has just been
    /// warm-started at it, or kept, if it is the delay in use): the call's first echo; or a
    /// later warm start (a delay's move, a drift's engagement) is too long for one frame
    /// (`LinearEchoCanceller.replayFits`) and is left to the frames that follow. A fast
    /// start (`ShadowCanceller.start(seen:)`): the short shadow learns from all the history
    /// holds, retrained at once, and takes over from the fresh full-tail canceller, which
    /// learns the room beside it and is handed its place back once it cancels as much.
    ///
    /// The short filter is put in use at once (at stream time `time`, s; `trail` as
    /// `afterCancel`'s): its first retraining, on all it has seen, replaces it within a few
    /// frames, and it cancels more than the fresh full-tail canceller from then on (waiting
    /// for it to win by `ShadowCanceller.winDB` took over 0.4–0.9 s later on bench/aec/'s
    /// rooms).
    package func delayFound(_ linear: LinearEchoCanceller, time: Double, trail: Bool) {
        guard shadow.idle else { return }
        shadow.start(seen: min(linear.framesRun, linear.history.framesHeld))
        linear.replace(with: shadow.takeOver(replacing: linear.state, at: time, trail: trail))
    }

    /// The delay moves, or drift compensation engages, and the linear canceller is about to be
    /// warm-started: a fast start's short filter in use hands the full-tail canceller its place
    /// back first, so that the canceller kept is the one warm-started at the new alignment.
    /// `time`: stream time (s).
    package func alignmentMoving(_ linear: LinearEchoCanceller, time: Double) {
        if shadow.fastStart, shadow.handsBack, shadow.trailing > 0 {
            linear.replace(with: shadow.handBack(inUse: linear.state))
            if fastStartBackAt == nil { fastStartBackAt = time }
        }
    }

    /// After `linear` cancelled the frame into `out`: the shadow runs on it (`echo`: the far end
    /// plays). When it cancels clearly more (an echo-path change) it takes over at stream time
    /// `time` (s): its output replaces `out` and its state is in use from now on; `trail` when
    /// speex's preprocessor reads the echo state (it stays with the replaced state while that
    /// runs on). When the replaced full-tail canceller, still attached to the preprocessor,
    /// cancels as much as the short shadow, it is the canceller again.
    ///
    /// `cancelled` false: the canceller in use is still catching up on a warm start
    /// (`LinearEchoCanceller.catchingUp`) and left `out` to the shadow: the running shadow's
    /// output is the frame's (it is not compared), or, no shadow running, the canceller
    /// finishes its replay now (`settle`).
    package func afterCancel(_ linear: LinearEchoCanceller, rec: UnsafePointer<Int16>, play: UnsafePointer<Int16>, out: UnsafeMutablePointer<Int16>,
                     echo: Bool, time: Double, trail: Bool, cancelled: Bool = true) {
        if !cancelled, !shadow.running { linear.settle(rec, play, into: out) }
        let standIn = !cancelled && shadow.running
        switch shadow.run(rec: rec, play: play, inUseOutput: out, echo: echo, compared: !standIn) {
        case .none:
            if standIn { out.update(from: shadow.output, count: frameFrames * mics) }
        case .takeOver:
            out.update(from: shadow.output, count: frameFrames * mics)
            let fastStart = shadow.fastStart
            // A canceller still catching up is current before it is replaced (and trails).
            linear.settle(rec, play, into: shadow.output)
            linear.replace(with: shadow.takeOver(replacing: linear.state, at: time, trail: trail))
            // A fast start's take-over is the call's first echo cancelled, not a path change.
            if !fastStart { doubleTalk.pathChanged(); nearTalk.pathChanged() }
        case .handBack:
            out.update(from: shadow.output, count: frameFrames * mics)
            if shadow.fastStart, fastStartBackAt == nil { fastStartBackAt = time }
            linear.replace(with: shadow.handBack(inUse: linear.state))
        }
    }

    /// The frame's mean squares (full scale 1.0) of the microphone, the filter's output and the
    /// reference, for the double-talk detector; returns whether the frame is double talk.
    package func add(mic: Double, filtered: Double, reference: Double) -> Bool {
        let talking = doubleTalk.add(mic: mic, filtered: filtered, reference: reference)
        nearTalk.add(mic: mic, filtered: filtered, reference: reference)
        sinceDoubleTalk = talking ? 0 : sinceDoubleTalk + frameFrames
        return talking
    }

    /// The echo state speex's preprocessor should read: the replaced full-tail state while it
    /// trails a take-over (`ShadowCanceller.takeOver`: speex estimates no residual echo for a
    /// state it does not yet count as adapted), else `inUse`. After a fast start the replaced
    /// state is as fresh as the short one and not retrained: the preprocessor reads `inUse`,
    /// which its retrainings make count as adapted within a few frames.
    package func preprocessorEcho(inUse: EchoState) -> EchoState { shadow.trailing > 0 && !shadow.fastStart ? shadow.state : inUse }

    /// This frame's output of the other linear filter beside the canceller in use, after an
    /// echo-path change's fall (not a fast start's): the shadow's while it runs and is quieter
    /// than the canceller in use over its comparison's window (in double talk a fresh shadow is
    /// louder), the replaced state's while it runs on after a take-over (when it is current: a
    /// deferred replay's state has not cancelled the frame); nil otherwise. For `ShadowEvidence`.
    package var shadowBeside: UnsafePointer<Int16>? {
        guard !shadow.fastStart, shadow.runsQuieter || shadow.trailing > 0 && shadow.state.backlog == nil else { return nil }
        return UnsafePointer(shadow.output)
    }

    /// Whether a shadow took over (a confirmed echo-path change) within `pathChangeSeconds` of
    /// stream time `now` (s) and the replaced canceller still runs beside it: the residual echo
    /// suppressor then takes the frames as echo unless the double-talk detector says otherwise.
    package func justChanged(now: Double) -> Bool {
        guard shadow.trailing > 0, let at = shadow.lastTakeOver else { return false }
        return now - at < Self.pathChangeSeconds
    }
}
