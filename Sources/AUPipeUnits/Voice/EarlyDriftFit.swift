/// `aec drift=auto`'s early drift: a drift read from the first second of the coarse tracker's
/// measurements (`DriftTracker` with `early`), before its count and span give it a drift of its
/// own (1.5 s and 8 measurements), when they lie so closely on one line that the line cannot be
/// the lag wandering at the start of an echo.
///
/// What tells them apart is the measurements' scatter about their line, not their number: an
/// echo with a dominant path drifting by 100–500 ppm gives quarter-second lags within 0.07–0.3
/// frames (root mean square, 16 kHz) of a straight line from the first second on (0.45–0.66 at
/// 1000 ppm, the peak smeared over 4 frames in a window), while in a room without a direct path
/// the peak followed hops between taps several frames apart (1.15–2.7 frames about the line of
/// their first second), and five such lags can line up as a drift of 1300–2100 ppm whose slope
/// stands 8–16 standard errors from zero (`EchoSceneTests`' 9 s scenes; bench/README.md). The least-squares line through the
/// measurements since the path followed was locked is taken as the drift when:
/// - there are at least `leastCount` of them over `leastSeconds` or more;
/// - their root-mean-square distance from it is at most `mostRMS` and none lies further than
///   `mostResidual` (frames at 16 kHz, scaled to the rate): one hop to another tap is enough to
///   refuse it;
/// - its slope lies at least `leastPrecision` standard errors from zero.
/// The thresholds do not grow with the drift found, as `DriftTracker.followsOnePath`'s allowance
/// for the smear does: a false line is steep, and an allowance that grows with its slope would
/// let it through.
package enum EarlyDriftFit {
    /// The least number of measurements and their least span (s): five quarter-second analyses
    /// over half a second, the least over which a 100 ppm drift moves the lag beyond its scatter.
    package static let leastCount = 5, leastSeconds = 0.5
    /// The most root-mean-square and single distance (frames at 16 kHz) of the measurements from
    /// their line: half a frame, above a followed path's 0.07–0.3 at 100–500 ppm (at 1000 ppm it
    /// waits for the regular estimate more often than not) and well under a diffuse room's 1.15.
    package static let mostRMS = 0.5, mostResidual = 1.0
    /// How many standard errors of the slope the slope must be from zero.
    package static let leastPrecision = 10.0

    /// The drift (fraction: frames of lag per frame of time) of the least-squares line through the
    /// measurements of the ring `times`/`lags` (stream frames, lag frames; `count` from `head`)
    /// whose time is `since` or later, or nil when they are too few or too short a span, or do
    /// not lie closely enough on it. At `sampleRate` Hz.
    package static func drift(times: [Double], lags: [Double], head: Int, count: Int, since: Double, sampleRate: Int) -> Double? {
        let capacity = times.count
        var n = 0, meanT = 0.0, meanU = 0.0, first = Double.infinity, last = -Double.infinity
        for i in 0..<count {
            let j = (head + i) % capacity
            guard times[j] >= since else { continue }
            n += 1
            meanT += times[j]
            meanU += lags[j]
            first = min(first, times[j])
            last = max(last, times[j])
        }
        guard n >= leastCount, last - first >= leastSeconds * Double(sampleRate) else { return nil }
        meanT /= Double(n)
        meanU /= Double(n)
        var stt = 0.0, stu = 0.0
        for i in 0..<count {
            let j = (head + i) % capacity
            guard times[j] >= since else { continue }
            stt += (times[j] - meanT) * (times[j] - meanT)
            stu += (times[j] - meanT) * (lags[j] - meanU)
        }
        guard stt > 0 else { return nil }
        let slope = stu / stt
        var squares = 0.0, most = 0.0
        for i in 0..<count {
            let j = (head + i) % capacity
            guard times[j] >= since else { continue }
            let r = lags[j] - meanU - slope * (times[j] - meanT)
            squares += r * r
            most = max(most, abs(r))
        }
        let scale = Double(sampleRate) / 16000
        let rms = (squares / Double(n - 2)).squareRoot()
        let standardError = rms / stt.squareRoot()
        guard rms <= mostRMS * scale, most <= mostResidual * scale, abs(slope) >= leastPrecision * standardError else { return nil }
        return slope
    }
}
