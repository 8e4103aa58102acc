import AUPipeFormats
import AUPipeGraph

/// `aec drift=auto`: the clock drift between the reference and the microphone, from the fine
/// lag of the echo over time, and the resampling factor that holds the echo where the
/// canceller's filter expects it.
///
/// Measurements come from `DelayEstimator`'s analyses (every quarter second) of the reference
/// *as compensated* (resampled by `factor`, not yet delayed) against the microphone:
/// 1. Lock: the first trusted analysis whose strongest peak clears the estimator's threshold
///    gives the path followed, its lag `m` (frames, sub-sample by a parabola through the peak).
/// 2. Follow: each later trusted analysis looks for that path's peak within a few frames of
///    where it should be now; a peak at least half the threshold high, and half the strongest
///    peak's height, is a measurement. A peak elsewhere `strongerPath` times higher than the
///    path's highest so far takes the lock at once (a call's first lock can fall on a recorded
///    voice's likeness to itself some hundred ms later, before the echo is heard; what that
///    stray lock measured is dropped). Eight
///    analyses in a row without one (2 s: the echo path changed) drop the lock; the next lock
///    is joined to the earlier measurements without a jump (the new path's lag is offset to
///    continue the line), so an echo-path change reads as no drift. So is a measurement after
///    a gap of over a second: another path may have taken over meanwhile.
/// 3. Drift: the lag uncompensated, `u = m + offset` (`offset`: the frames the compensation has
///    added so far), against stream time, over the last `capacity` measurements (30 s of
///    quarter-second analyses; four minutes of the one-a-second analyses `aec` makes with a
///    fixed delay once it has a drift): the slope by Theil–Sen (the median of the slopes between each measurement and the one half
///    the window later; robust to a minority of stray peaks), once they span `firstSpan` and
///    number `firstCount` (3 s and 12; `aec`'s coarse bootstrap tracker 1.5 s and 8). That is
///    the drift, in ppm; it follows a drift that changes over tens of seconds. Before that, with
///    `early`, `earlyDrift` is the slope of the measurements on the path followed now once they
///    lie closely enough on one line (`EarlyDriftFit`: from about a second of measurements).
/// 4. Control: the factor is 1 until the drift found would have moved the echo two frames
///    over the measurements it has, spanning at least `leastSpan` (6 s), or at once when it is beyond 300 ppm
///    (below that, the reference stays as read: no drift, no change), and in either case only
///    while the measurements follow one path (`followsOnePath`).
///    Then it is 1 + drift + (m − m₀)/(2 s), the second term (within ±500 ppm) bringing the lag
///    back to `m₀`, where it was when compensation started; all within ±`limit`.
///
/// `trusted: false` (double talk, or just after it: the near end corrupts the peak) freezes
/// the tracker: no measurement, the factor kept. Silent windows never reach it (the estimator
/// skips them). Everything is allocated in `init` (a class: no copy on write in the audio path).
package final class DriftTracker {
    package let sampleRate: Int
    /// The largest drift followed, as a fraction (0.002: 2000 ppm).
    package let limit: Double
    /// The least span (s) of measurements behind a drift under 300 ppm before it is acted on.
    package static let leastSpan = 6.0
    /// Measurements kept for the slope: 30 s of analyses.
    package let capacity = 240
    /// A peak's height over the correlation's floor that locks, and half of it to follow.
    package let lockStrength: Double
    /// The tracker's output: compensated frames per frame read (1 ± limit).
    package private(set) var factor = 1.0
    /// The drift found, as a fraction (1e-6 is 1 ppm), or nil until enough measurements.
    package private(set) var drift: Double?
    /// Whether the factor has left 1 (the reference is resampled from then on).
    package private(set) var engaged = false
    /// Stream time (s) of the first measurement and of the first drift estimate.
    package private(set) var firstMeasured: Double?, foundAt: Double?
    /// The median distance (frames) of the measurements behind `drift` from the line it draws
    /// through them: a fraction of a frame when they follow one path's peak, several frames when
    /// the peak followed jumps between the taps of a room without a dominant path (a drift
    /// read from those is noise).
    package private(set) var spread = 0.0
    /// The lower and upper quartiles of the slopes behind `drift` (fractions).
    package private(set) var slopeQuartiles = (0.0, 0.0)
    /// Whether the measurements follow one path closely enough for the drift to be acted on:
    /// they lie within `onePathSpread` of their line (frames at 16 kHz, scaled to the rate)
    /// plus a quarter of what the drift moves the echo within one analysis window
    /// (`windowSeconds`: the peak of a moving echo is smeared over that), and at least three
    /// quarters of the slopes between them lie on the drift's side, beyond half of it.
    package var followsOnePath: Bool {
        guard let drift else { return false }
        let smear = abs(drift) * windowSeconds * Double(sampleRate)
        let agree = drift > 0 ? slopeQuartiles.0 >= drift / 2 : slopeQuartiles.1 <= drift / 2
        return agree && spread <= Self.onePathSpread * Double(sampleRate) / 16000 + smear / 4
    }
    /// The spread (frames at 16 kHz) within which measurements follow one path: a path's peak
    /// followed to a fraction of a sample stays well within a frame of its line, while in a
    /// diffuse room without a direct path the peak wanders between taps several frames apart
    /// (and reads as a drift). The spreads measured are in bench/README.md.
    package static let onePathSpread = 1.0
    /// The search radius around where the followed path should be (frames): at least
    /// `searchFrames` (a sub-sample peak's own jitter and the parabola's), at most
    /// `mostSearchFrames` (beyond that another tap of the room is as likely as the path).
    package static let searchFrames = 3.0, mostSearchFrames = 24.0
    /// How far (fraction per frame) the compensated lag may still move once the motion is known:
    /// 100 ppm, what is left of a drift when the compensation follows it.
    package static let knownMotion = 1e-4
    /// Analyses in a row without the path's peak that drop the lock: eight quarter-second
    /// analyses, 2 s, longer than double talk's usual freeze, short enough for an echo-path change.
    package static let missesToUnlock = 8
    /// A gap (s) between measurements after which the peak found may be another path (double
    /// talk, silence or misses in between): it is joined like a re-lock, not read as drift.
    package static let relockGapSeconds = 1.0
    /// The recent lags (count) whose median is the control's compensated lag: robust to a stray
    /// peak, and a little more than a second of analyses.
    package static let controlLags = 5
    /// A drift (fraction) acted on at once: beyond 300 ppm the echo moves a frame at 16 kHz in
    /// 0.2 s, and no span of 3 s of measurements leaves it uncertain.
    package static let immediateDrift = 3e-4
    /// The echo's move (frames) a drift must have made over its measurements to be acted on:
    /// two frames, beyond the measurements' own scatter.
    package static let leastMoveFrames = 2.0
    /// The control's pull back to the set point: the lag's error is taken out over `pullSeconds`,
    /// at most `mostPull` (fraction, 500 ppm) on top of the drift, so that a stray measurement
    /// cannot swing the resampler.
    package static let pullSeconds = 2.0, mostPull = 5e-4
    /// Whether the latest drift was large enough to act on but its measurements did not follow
    /// one path (what held the compensation back, for `--stats`).
    package private(set) var heldBackByPath = false
    /// Measurements taken, and analyses skipped as untrusted (double talk).
    package private(set) var measurements = 0, frozen = 0

    private var locked = false, misses = 0
    /// The highest peak of the path followed since it was locked, and its measurements since
    /// then (or since its last gap's re-join).
    private var pathHeight = 0.0, pathCount = 0
    /// How many times the lock moved to a far stronger path (`strongerPath`).
    package private(set) var strongerPathLocks = 0
    /// How much higher than the followed path's highest peak (and the lock's threshold) a peak
    /// elsewhere (beyond `mostSearchFrames` of where the path should be) must stand to take the
    /// lock from it: four times. A stray lock stands barely over the threshold, the echo's own
    /// path, once heard, many times it; the followed path's own peaks, however high, lie near it
    /// and are measured.
    package static let strongerPath = 4.0
    /// The followed path's last lag (compensated, frames), its raw lag and time (frames).
    private var lastM = 0.0, lastU = 0.0, lastT = 0.0
    /// What re-locks added to keep the line continuous, subtracted from every raw lag.
    private var jumps = 0.0
    /// Ring of (time, adjusted raw lag), oldest at `head`.
    private var times: [Double], lags: [Double]
    private var head = 0, count = 0
    /// The last five adjusted raw lags and their times (frames), for the control's
    /// proportional term.
    private var recent = [Double](repeating: 0, count: DriftTracker.controlLags), recentTimes = [Double](repeating: 0, count: DriftTracker.controlLags)
    private var recentCount = 0, recentNext = 0
    private var setpoint = 0.0
    /// When (stream frames) the path followed now was locked.
    private var segmentStart = 0.0
    private var scratch: [Double]

    /// The least span (s) and number of measurements behind a first drift estimate.
    package let firstSpan: Double, firstCount: Int
    /// Whether the tracker reads `earlyDrift` before it has a drift.
    package let early: Bool
    /// With `early`, until there is a `drift`: the drift of the line through the measurements on
    /// the path followed now when they lie closely on it (`EarlyDriftFit`), or nil.
    package private(set) var earlyDrift: Double?

    /// The analyses' window (s): how long the echo's peak is smeared over when it moves.
    package let windowSeconds: Double

    /// `firstSpan` (s, default 3) and `firstCount` (default 12): what a first estimate needs;
    /// `windowSeconds`: the analyses' window; `early`: whether to read `earlyDrift` meanwhile.
    package init(sampleRate: Int, limitPPM: Double, lockStrength: Double, windowSeconds: Double, firstSpan: Double = 3, firstCount: Int = 12,
                 early: Bool = false) {
        self.sampleRate = sampleRate
        self.windowSeconds = windowSeconds
        self.firstSpan = firstSpan
        self.firstCount = firstCount
        self.early = early
        limit = limitPPM * 1e-6
        self.lockStrength = lockStrength
        times = [Double](repeating: 0, count: capacity)
        lags = [Double](repeating: 0, count: capacity)
        scratch = [Double](repeating: 0, count: capacity)
    }

    /// The drift in ppm, or nil.
    package var driftPPM: Double? { drift.map { $0 * 1e6 } }

    /// One analysis. `time`: when (stream frames) the analysis's lag holds; `offset`: the
    /// compensation's added frames at that time; `strongest`: the analysis's strongest peak
    /// (lag in frames, height over the floor); `near(lag, radius)`: the highest peak within
    /// `radius` frames of `lag`, refined, and its height. `compensating`: the drift (fraction)
    /// the compensation applies now, which the raw lag is expected to move by while this
    /// tracker has no drift of its own (another tracker's, engaged before it).
    package func analysis(time: Double, offset: Double, compensating: Double = 0, trusted: Bool, strongest: (lag: Double, height: Double)?,
                           near: (Double, Int) -> (lag: Double, height: Double)?) {
        guard trusted else { frozen += 1; return }
        var measured: Double?
        // A path far stronger than the one followed, elsewhere: the lock was on a stray peak (a
        // voice's likeness to itself some hundred ms later, in the call's first words) or on a
        // weak path; it moves to the strong one at once rather than after `missesToUnlock`.
        if locked, let s = strongest, s.height >= Self.strongerPath * max(pathHeight, lockStrength),
           abs(s.lag - (lastU + (drift ?? compensating) * (time - lastT) - offset)) > Self.mostSearchFrames {
            locked = false
            misses = 0
            strongerPathLocks += 1
            // Everything the tracker holds came from the stray path: dropped, not joined.
            if pathCount == count { count = 0; recentCount = 0; jumps = 0; firstMeasured = nil }
        }
        if locked {
            // Where the path should be: its raw lag moved by the drift, less the compensation.
            let dt = time - lastT
            let predicted = lastU + (drift ?? compensating) * dt - offset
            // The search radius: `searchFrames` plus what an unknown drift (within `limit`)
            // could have moved it; `knownMotion` per frame once the motion is known (this
            // tracker's drift, or a compensation another tracker set going: then the compensated
            // lag holds still, and a wide radius would let the tracker hop to another tap of the room).
            let known = drift != nil || compensating != 0
            let radius = Int(min(Self.mostSearchFrames, Self.searchFrames + dt * (known ? Self.knownMotion : limit)).rounded(.up))
            // The path's peak, if it is still a main one: at least half the threshold, and
            // half the strongest (after an echo-path change a stray peak near the old lag is
            // no measurement of it).
            if let p = near(predicted, radius), p.height >= max(lockStrength, strongest?.height ?? 0) / 2 {
                measured = p.lag
                misses = 0
                pathHeight = max(pathHeight, p.height)
                // After a gap of over a second (double talk, silence, misses) the peak found
                // may be another path (an echo-path change), not evidence of drift: joined
                // like a re-lock.
                if dt > Self.relockGapSeconds * Double(sampleRate) {
                    let deviation = p.lag - predicted
                    jumps += deviation
                    segmentStart = time
                    pathCount = 0
                }
            } else {
                misses += 1
                if misses >= Self.missesToUnlock { locked = false; misses = 0 }
            }
        } else if let s = strongest, s.height >= lockStrength {
            if count > 0 {
                // A new path: offset so that its raw lag continues the line where it was going.
                let predicted = lastU + (drift ?? compensating) * (time - lastT)
                jumps += (s.lag + offset) - predicted
            }
            locked = true
            segmentStart = time
            measured = s.lag
            pathHeight = s.height
            pathCount = 0
        }
        guard let m = measured else { return }
        measurements += 1
        pathCount += 1
        lastM = m
        lastU = m + offset
        lastT = time
        let seconds = time / Double(sampleRate)
        if firstMeasured == nil { firstMeasured = seconds }
        push(time: time, lag: lastU - jumps)
        recent[recentNext] = lastU - jumps
        recentTimes[recentNext] = time
        recentNext = (recentNext + 1) % recent.count
        recentCount = min(recent.count, recentCount + 1)
        updateDrift(at: seconds)
        earlyDrift = early && drift == nil
            ? EarlyDriftFit.drift(times: times, lags: lags, head: head, count: count, since: segmentStart, sampleRate: sampleRate)
            : nil
        control(offset: offset)
    }

    private func push(time: Double, lag: Double) {
        let slot = (head + count) % capacity
        times[slot] = time
        lags[slot] = lag
        if count < capacity { count += 1 } else { head = (head + 1) % capacity }
    }

    /// Theil–Sen over pairs half the window apart.
    private func updateDrift(at seconds: Double) {
        guard count >= firstCount else { return }
        let oldest = times[head], newest = times[(head + count - 1) % capacity]
        guard newest - oldest >= firstSpan * Double(sampleRate) else { return }
        let h = count / 2
        var n = 0
        for i in 0..<(count - h) {
            let a = (head + i) % capacity, b = (head + i + h) % capacity
            let dt = times[b] - times[a]
            guard dt > 0 else { continue }
            scratch[n] = (lags[b] - lags[a]) / dt
            n += 1
        }
        guard n > 0 else { return }
        let slope = Self.median(&scratch, count: n)
        // `median` left the slopes sorted: their quartiles.
        slopeQuartiles = (scratch[n / 4], scratch[(3 * n) / 4])
        drift = max(-limit, min(limit, slope))
        // How far the measurements lie from that line: the median distance from it (frames),
        // the line through the median of their offsets.
        func residuals(less centre: Double, absolute: Bool) {
            for i in 0..<count {
                let j = (head + i) % capacity
                let r = lags[j] - slope * times[j] - centre
                scratch[i] = absolute ? abs(r) : r
            }
        }
        residuals(less: 0, absolute: false)
        let centre = Self.median(&scratch, count: count)
        residuals(less: centre, absolute: true)
        spread = Self.median(&scratch, count: count)
        if foundAt == nil { foundAt = seconds }
    }

    /// `offset`: the compensation's offset at the latest measurement.
    private func control(offset: Double) {
        guard let drift else { return }
        // The compensated lag now: the recent raw lags carried to the latest measurement's time
        // by the drift (a median: robust to a stray peak), less the offset then.
        for i in 0..<recentCount { scratch[i] = recent[i] + drift * (lastT - recentTimes[i]) }
        let lag = Self.median(&scratch, count: recentCount) - offset
        if !engaged {
            // Not before the drift found has moved the echo by `leastMoveFrames` over the
            // measurements behind it, spanning `leastSpan` or more (a shorter span's slope is too
            // uncertain to act on), or at once for a drift beyond `immediateDrift`.
            // The span of the measurements behind it on the path followed now (a re-lock's
            // first point lies on the line by construction: it adds no evidence).
            let newest = times[(head + count - 1) % capacity]
            let span = (newest - max(times[head], segmentStart)) / Double(sampleRate)
            let large = abs(drift) >= Self.immediateDrift || (span >= Self.leastSpan && abs(drift) * span * Double(sampleRate) >= Self.leastMoveFrames)
            let onePath = followsOnePath
            heldBackByPath = large && !onePath
            guard large, onePath else { return }
            engaged = true
            setpoint = lag
        }
        let pull = max(-Self.mostPull, min(Self.mostPull, (lag - setpoint) / (Self.pullSeconds * Double(sampleRate))))
        factor = 1 + max(-limit, min(limit, drift + pull))
    }

    /// The median of `values[0..<count]` (count ≥ 1), leaving them sorted (insertion sort: up to
    /// `capacity` values, three times an analysis; bounded, and cheap next to the analysis's FFTs).
    /// `updateDrift` reads the slopes' quartiles from that order: a selection that does not sort
    /// everything would break them.
    package static func median(_ values: inout [Double], count: Int) -> Double {
        for i in 1..<max(1, count) {
            let v = values[i]
            var j = i - 1
            while j >= 0, values[j] > v { values[j + 1] = values[j]; j -= 1 }
            values[j + 1] = v
        }
        return count % 2 == 1 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2])
    }
}
