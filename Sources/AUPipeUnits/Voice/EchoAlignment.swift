import AUPipeFormats
import AUPipeGraph

/// `aec`'s alignment of the far end with its echo: the bulk delay (`delay=`, or `delay=auto`'s
/// `DelayEstimator`) and the clocks' drift (`drift=`: `DriftTracker`s on the estimators'
/// analyses, `DriftCompensator` resampling the reference, `DriftLagTiming`).
///
/// The unit gives it each frame's undelayed reference and microphone (`analyse`), asks whether
/// the delay has moved (`delayMoved`) or the compensation has just engaged (`takeRetrain`), and
/// reads the reference through `compensator`. Everything is allocated in `init`.
package final class EchoAlignment {
    /// The least drift (fraction) whose engagement retrains the canceller: 30 ppm moves the echo
    /// a frame in 2 s at 16 kHz; speex follows slower drifts on its own, and a filter that has
    /// converged over a long stream is better kept than retrained on 1.5 s.
    package static let driftRetrainLeast = 30e-6
    /// The drift (ppm) from which the coarse tracker's estimate (`bootstrap`) is compensated
    /// before the fine tracker has one of its own.
    package static let bootstrapPPM = 60.0
    /// The span (s) and measurements behind `bootstrap`'s first estimate: a drift of 250 ppm
    /// or more is plain within 1.5 s (6 frames at 16 kHz), and the sooner it is compensated,
    /// the less of the stream the canceller spends on an echo that moves.
    package static let bootstrapSpan = 1.5, bootstrapCount = 8
    /// How far above the noise floor (on `DelayEstimator.threshold`'s scale) a single analysis's
    /// peak must stand to be used at once, before the estimator's hysteresis confirms it (three
    /// analyses, half a second later): twice the threshold, far above unrelated signals (5–13)
    /// and below an echo 30 dB over the noise (about 100) or one under equal double talk
    /// (50–70). With it the delay is in use after the first half second of echo, and the
    /// call's first echo is cancelled (`EchoPathChange.delayFound`) a second sooner.
    package static let provisionalStrength = 40.0
    /// `coarseEstimator`'s window (s) and band (Hz).
    package static let coarseWindow = 0.25, coarseBandHz = 3000.0

    private let rate: Int, frameFrames: Int, speakers: Int
    /// Whether the delay is found from the signals (`delay=auto`).
    package let automatic: Bool
    /// `drift=` as given, and whether the reference has a clock of its own (`ref=`).
    private let drift: ClockDriftSetting
    private let ownClock: Bool
    /// The delay in use, in frames.
    package private(set) var delayFrames: Int
    /// `delay=auto`: when (stream seconds) the first estimate came and how many times it changed.
    package private(set) var delayFoundAt: Double?
    package private(set) var delayChanges = 0
    /// `delay=auto`: the bulk-delay estimator.
    package private(set) var estimator: DelayEstimator?
    /// The first microphone channel for the estimators, and the loudspeakers summed for them
    /// (with speakers > 1).
    private var estimatorMic: UnsafeMutablePointer<Float>?
    private var estimatorRef: UnsafeMutablePointer<Float>?
    /// `drift=auto` with a fixed delay: the tracker's estimator (with `delay=auto`, `estimator`).
    private var driftEstimator: DelayEstimator?
    /// The reference's resampler (with `ref=` and drift ≠ off).
    package private(set) var compensator: DriftCompensator?
    /// `drift=auto`'s tracker on the fine analyses.
    package private(set) var tracker: DriftTracker?
    /// A second tracker on short, low-band analyses (`coarseEstimator`): it finds a drift too
    /// fast for `tracker`'s analyses (whose peak it smears), and its estimate is used, from
    /// `bootstrapPPM` on, until `tracker` has one of its own; before its own first estimate,
    /// its `earlyDrift`.
    package private(set) var bootstrap: DriftTracker?
    private var coarseEstimator: DelayEstimator?
    package private(set) var bootstrapped = false
    /// The warp (factor − 1) of a retraining due when the compensation has just engaged.
    private var driftRetrain: Double?
    /// When (stream seconds) `drift=auto` started compensating (by either tracker).
    package private(set) var compensationStartedAt: Double?
    private var analysesSeen = 0, coarseAnalysesSeen = 0
    /// What the trackers' analyses stand for (`DriftLagTiming`), and the analyses counted in it.
    private var fineTiming = DriftLagTiming(smoothing: 0), coarseTiming = DriftLagTiming(smoothing: 0)

    /// For `layout`'s stream: `fixedDelay` frames (nil: auto), `drift`, and whether the
    /// reference comes from `ref=` (only a reference of its own can drift).
    package init(layout: EchoLayout, fixedDelay: Int?, drift: ClockDriftSetting, ownClock: Bool) throws {
        rate = layout.rate
        frameFrames = layout.frameFrames
        speakers = layout.speakers
        automatic = fixedDelay == nil
        self.drift = drift
        self.ownClock = ownClock
        delayFrames = fixedDelay ?? 0
        let maxDelayFrames = layout.maxDelayFrames
        if ownClock, drift != .off {
            let c = try DriftCompensator(channels: speakers, rate: rate, frameFrames: frameFrames)
            if case .ppm(let ppm) = drift { try c.engage(factor: 1 + ppm * 1e-6) }
            compensator = c
        }
        if ownClock, drift == .auto {
            let coarse = DelayEstimator(sampleRate: rate, maxDelay: maxDelayFrames, windowSeconds: Self.coarseWindow, highestHz: Self.coarseBandHz)
            coarse.smoothing = 0
            coarseEstimator = coarse
            // With a fixed delay, the echo's lag is at most that delay and the tail.
            if let d = fixedDelay {
                driftEstimator = DelayEstimator(sampleRate: rate, maxDelay: min(maxDelayFrames, d + layout.tailFrames))
            }
            tracker = DriftTracker(sampleRate: rate, limitPPM: ClockDriftSetting.limitPPM, lockStrength: coarse.threshold,
                                   windowSeconds: DelayEstimator.defaultWindowSeconds)
            coarseTiming = DriftLagTiming(smoothing: coarse.smoothing)
            bootstrap = DriftTracker(sampleRate: rate, limitPPM: ClockDriftSetting.limitPPM, lockStrength: coarse.threshold,
                                     windowSeconds: Self.coarseWindow, firstSpan: Self.bootstrapSpan, firstCount: Self.bootstrapCount, early: true)
        }
        if automatic || tracker != nil {
            estimatorMic = .allocate(capacity: frameFrames)
            if speakers > 1 { estimatorRef = .allocate(capacity: frameFrames) }
        }
        if automatic {
            estimator = DelayEstimator(sampleRate: rate, maxDelay: maxDelayFrames)
            // The first estimate may come from candidates up to 5 ms apart (a change must reach
            // 5 ms to be applied anyway): a room's strongest paths can take turns a few ms
            // apart, which within 1 ms would hold the first estimate back by analyses.
            estimator?.firstEstimateTolerance = rate / 200
            // The first analysis after a quarter of a second rather than after half a second
            // plus max-delay= (both streams before their start are silence): the delay is found
            // sooner at the start of a call.
            estimator?.analysesFromFirstHop = true
        }
        if tracker != nil, let f = driftEstimator ?? estimator { fineTiming = DriftLagTiming(smoothing: f.smoothing) }
    }

    deinit {
        estimatorMic?.deallocate()
        estimatorRef?.deallocate()
    }

    /// One frame for the estimators: `ref`, the undelayed reference (`speakers` interleaved),
    /// and the first of `mics` interleaved microphone channels of `mic`; then the trackers
    /// (`framesProcessed`: stream frames before this frame; `sinceDoubleTalk`: stream frames
    /// since double talk was last seen).
    package func analyse(mic: UnsafePointer<Float>, mics: Int, ref refFloat: UnsafePointer<Float>, framesProcessed: Int64, sinceDoubleTalk: Int) throws {
        guard let estimatorMic else { return }
        // The estimators see the undelayed reference and the first microphone channel.
        for f in 0..<frameFrames { estimatorMic[f] = mic[f * mics] }
        var ref = refFloat
        if let estimatorRef {
            // Several loudspeakers: their sum, for the bulk delay common to all of them.
            for f in 0..<frameFrames {
                var x: Float = 0
                for c in 0..<speakers { x += refFloat[f * speakers + c] }
                estimatorRef[f] = x
            }
            ref = UnsafePointer(estimatorRef)
        }
        estimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames)
        driftEstimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames)
        // The coarse tracker is needed only until the fine one has a drift.
        if tracker?.drift == nil { coarseEstimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames) }
        try track(framesProcessed: framesProcessed, sinceDoubleTalk: sinceDoubleTalk)
    }

    /// `delay=auto`: whether the delay in use has just moved (`delayFrames` is then the new one,
    /// and the canceller must be warm-started). Applied 10 ms early, so the echo's first taps are
    /// inside the filter; moves of less than 5 ms are not worth re-adapting for. A first estimate
    /// equal to the delay in use (0) leaves the canceller as it is.
    ///
    /// Until the estimator has an estimate, a single analysis whose peak stands
    /// `provisionalStrength` over the floor gives the first delay (once); the estimate, when it
    /// comes, moves it only if it differs by 5 ms or more, and only once none of the analyses
    /// that made it saw double talk (`sinceDoubleTalk`, stream frames since the double-talk
    /// detector last fired, at least a window and `requiredWins` hops): a near talker can
    /// raise a peak of its own at another lag (a word like one the far end said), and a moved
    /// delay retrains the canceller. A real move seen in double talk is taken once it is over.
    package func delayMoved(framesProcessed: Int64, sinceDoubleTalk: Int) -> Bool {
        guard automatic, let estimator else { return false }
        let provisional = delayFoundAt == nil && estimator.peakToFloor >= Self.provisionalStrength ? estimator.candidate : nil
        guard let e = (estimator.estimate ?? provisional).map({ max(0, $0 - rate / 100) }),
              delayFoundAt == nil || abs(e - delayFrames) >= rate / 200 else { return false }
        if delayFoundAt != nil, sinceDoubleTalk < estimator.windowFrames + estimator.requiredWins * estimator.hopFrames { return false }
        if delayFoundAt == nil { delayFoundAt = Double(framesProcessed + Int64(frameFrames)) / Double(rate) }
        else { delayChanges += 1 }
        guard e != delayFrames else { return false }
        delayFrames = e
        return true
    }

    /// The warp (factor − 1) when drift compensation has just engaged for a drift of
    /// `driftRetrainLeast` or more: the canceller learnt a moving echo until now and is to be
    /// retrained on the past warped by it. Nil otherwise; each engagement is given out once.
    package func takeRetrain() -> Double? {
        defer { driftRetrain = nil }
        return driftRetrain
    }

    /// `drift=auto`: the analyses just made, for the trackers (`tracker` on the fine one,
    /// `bootstrap` on the coarse one), and the compensation follows: `tracker`'s factor once it
    /// has a drift, until then `bootstrap`'s drift once that is beyond `bootstrapPPM`.
    private func track(framesProcessed: Int64, sinceDoubleTalk: Int) throws {
        guard let compensator, let fine = tracker, let coarse = bootstrap, let c = coarseEstimator,
              let f = driftEstimator ?? estimator else { return }
        if f.estimatesMade + f.windowsSkipped != analysesSeen {
            analysesSeen = f.estimatesMade + f.windowsSkipped
            feed(fine, from: f, timing: &fineTiming, compensator: compensator, sinceDoubleTalk: sinceDoubleTalk)
            // Its own estimator (a fixed delay) analyses once a second once a drift is known:
            // a quarter of the cost, and drift changes slowly.
            if fine.drift != nil, f === driftEstimator { f.hopsPerAnalysis = 4 }
        }
        if fine.drift == nil, c.estimatesMade + c.windowsSkipped != coarseAnalysesSeen {
            coarseAnalysesSeen = c.estimatesMade + c.windowsSkipped
            feed(coarse, from: c, timing: &coarseTiming, compensator: compensator, sinceDoubleTalk: sinceDoubleTalk)
        }
        var factor: Double?, slowAndEarly = false
        if let d = fine.drift {
            // Once compensating (the coarse tracker's start), the fine drift takes over when its
            // own measurements follow one path; otherwise the compensation stays as it is.
            factor = fine.engaged ? fine.factor : (compensator.engaged && fine.followsOnePath ? 1 + d : nil)
        } else if let d = coarse.drift, abs(d) * 1e6 >= Self.bootstrapPPM, coarse.followsOnePath {
            factor = 1 + d
            bootstrapped = true
        } else if coarse.drift == nil, let d = coarse.earlyDrift, abs(d) * 1e6 >= Self.bootstrapPPM {
            // Before its first estimate, the coarse tracker's early line (`EarlyDriftFit`): a
            // drift plain from about a second of measurements is compensated then. Under
            // `DriftTracker.immediateDrift` the echo has moved 2–4 frames by then, which speex
            // has followed: its filter is kept rather than retrained on the second or so of
            // history there is (retrained, `drift-100` converged 1.1 s later and lost 1.2 dB).
            slowAndEarly = abs(d) < DriftTracker.immediateDrift
            factor = 1 + d
            bootstrapped = true
        }
        if let factor, factor != compensator.factor || !compensator.engaged {
            // The compensation's start: the canceller, adapted so far to an echo that moved, is
            // retrained on the past as the compensation would have made it (`driftRetrain`).
            if !compensator.engaged {
                compensationStartedAt = Double(framesProcessed + Int64(frameFrames)) / Double(rate)
                if abs(factor - 1) >= Self.driftRetrainLeast, !slowAndEarly { driftRetrain = factor - 1 }
            }
            try compensator.engage(factor: factor)
        }
    }

    /// One analysis of `estimator` for `tracker` (`timing`: the blend of windows its lag stands
    /// for, `DriftLagTiming`); frozen while double talk is recent enough to be in it.
    private func feed(_ tracker: DriftTracker, from estimator: DelayEstimator, timing: inout DriftLagTiming, compensator: DriftCompensator,
                      sinceDoubleTalk: Int) {
        timing.follow(estimator, compensator: compensator)
        let trusted = sinceDoubleTalk >= estimator.windowFrames + estimator.hopFrames
        tracker.analysis(time: timing.time, offset: timing.offset, compensating: compensator.engaged ? compensator.factor - 1 : 0, trusted: trusted,
                         strongest: estimator.strongestPeak, near: { estimator.peak(near: $0, radius: $1) })
    }

    /// The delay in use, ms (`delay=` or auto's).
    package var delayMS: Double { Double(delayFrames) * 1000 / Double(rate) }

    /// The delay the reference has in the canceller, ms: `delay=` (or auto's) and what the drift
    /// compensation has added.
    package var delayInUseMS: Double { (Double(delayFrames) + (compensator?.offset ?? 0)) * 1000 / Double(rate) }

    /// The drift in ppm: `drift=PPM`'s, auto's estimate, or nil (none yet, or off).
    package var driftPPM: Double? {
        switch drift {
        case .ppm(let ppm): return ownClock ? ppm : nil
        case .auto: return tracker?.driftPPM ?? (bootstrapped ? bootstrap?.driftPPM ?? bootstrap?.earlyDrift.map { $0 * 1e6 } : nil)
        case .off: return nil
        }
    }
}
