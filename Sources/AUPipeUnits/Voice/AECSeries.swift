import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s figures over stream time, for `plot=` and `--stats=json`: per point, the ERLE, the
/// delay in use, the drift and the share of double talk.
///
/// A point covers `pointFrames` DSP frames (the whole number of frames nearest 100 ms); its
/// time is the end of what it covers. The ERLE of a point is 10·log10(Σ mic² / Σ out²) over its
/// frames with echo (`ERLEMeter`'s conditions: far end above −50 dBFS, microphone above
/// −60 dBFS; the output after the preprocessor), none when it has no such frame; the delay
/// (ms) and the drift (ppm) are means over the point (the drift over the frames that had an
/// estimate); double talk is the share of its frames that were (`DoubleTalkDetector`).
///
/// Memory is bounded: the buffers hold `capacity` points (3000: five minutes at 100 ms),
/// allocated in `init`; when they are full, neighbouring points are merged in pairs (energies
/// summed, means averaged) and each point covers twice as long from then on. A run of any
/// length keeps between 1500 and 3000 points, each an equal share of the stream (the last
/// one, at the end, possibly shorter).
package final class AECSeries {
    package let capacity: Int
    /// Seconds per DSP frame.
    package let frameSeconds: Double
    /// DSP frames per point (doubles when the buffers fill).
    package private(set) var pointFrames: Int
    /// Per point: end time (s), mic and output energy with echo, delay (ms), drift (ppm) and
    /// frames with a drift, double-talk share.
    private var time, micEnergy, outEnergy, delay, drift, driftWeight, doubleTalk: [Double]
    package private(set) var count = 0
    /// The point being filled.
    private var frames = 0, framesWithDrift = 0
    private var sumMic = 0.0, sumOut = 0.0, sumDelay = 0.0, sumDrift = 0.0, talkFrames = 0
    private var elapsed = 0.0

    package init(frameFrames: Int, rate: Int, capacity: Int = 3000) {
        self.capacity = max(2, capacity & ~1)
        frameSeconds = Double(frameFrames) / Double(rate)
        pointFrames = max(1, Int((0.1 / frameSeconds).rounded()))
        // Seven buffers of their own (one shared, written, would be copied).
        func zeros() -> [Double] { [Double](repeating: 0, count: capacity) }
        time = zeros(); micEnergy = zeros(); outEnergy = zeros(); delay = zeros()
        drift = zeros(); driftWeight = zeros(); doubleTalk = zeros()
    }

    /// One DSP frame: mic and output energy when it had echo (else nil), the delay in use (ms),
    /// the drift (ppm, nil before an estimate), and whether it was double talk.
    package func add(echo: (mic: Double, out: Double)?, delayMS: Double, driftPPM: Double?, doubleTalk talk: Bool) {
        if let echo { sumMic += echo.mic; sumOut += echo.out }
        sumDelay += delayMS
        if let driftPPM { sumDrift += driftPPM; framesWithDrift += 1 }
        if talk { talkFrames += 1 }
        frames += 1
        elapsed += frameSeconds
        if frames == pointFrames { close() }
    }

    /// Closes a part-filled last point (at the end of the stream).
    package func finish() { if frames > 0 { close() } }

    private func close() {
        if count == capacity { mergePairs() }
        time[count] = elapsed
        micEnergy[count] = sumMic
        outEnergy[count] = sumOut
        delay[count] = sumDelay / Double(frames)
        drift[count] = framesWithDrift > 0 ? sumDrift / Double(framesWithDrift) : 0
        driftWeight[count] = Double(framesWithDrift)
        doubleTalk[count] = Double(talkFrames) / Double(frames)
        count += 1
        frames = 0; framesWithDrift = 0; talkFrames = 0
        sumMic = 0; sumOut = 0; sumDelay = 0; sumDrift = 0
    }

    /// Halves the points: each pair becomes one covering both.
    private func mergePairs() {
        for i in 0..<count / 2 {
            let a = 2 * i, b = 2 * i + 1
            time[i] = time[b]
            micEnergy[i] = micEnergy[a] + micEnergy[b]
            outEnergy[i] = outEnergy[a] + outEnergy[b]
            delay[i] = 0.5 * (delay[a] + delay[b])
            let w = driftWeight[a] + driftWeight[b]
            drift[i] = w > 0 ? (drift[a] * driftWeight[a] + drift[b] * driftWeight[b]) / w : 0
            driftWeight[i] = w
            doubleTalk[i] = 0.5 * (doubleTalk[a] + doubleTalk[b])
        }
        count /= 2
        pointFrames *= 2
    }

    /// The points as they are reported: time (s), ERLE (dB, nil without echo), delay (ms),
    /// drift (ppm, nil before an estimate), double-talk share (0...1). Rounded as `--stats=json`
    /// writes them (0.001 s, 0.01 dB, ms and ppm, 0.01 share), so that the plot and the JSON agree.
    package var points: [(t: Double, erle: Double?, delay: Double, drift: Double?, doubleTalk: Double)] {
        var list: [(t: Double, erle: Double?, delay: Double, drift: Double?, doubleTalk: Double)] = []
        list.reserveCapacity(count)
        for i in 0..<count {
            var erle: Double?
            if micEnergy[i] > 0 { erle = Self.rounded(outEnergy[i] > 0 ? 10 * log10(micEnergy[i] / outEnergy[i]) : 100, 100) }
            list.append((Self.rounded(time[i], 1000), erle, Self.rounded(delay[i], 100),
                         driftWeight[i] > 0 ? Self.rounded(drift[i], 100) : nil, Self.rounded(doubleTalk[i], 100)))
        }
        return list
    }

    /// `v` rounded to 1/`scale`.
    package static func rounded(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }
}

extension AECSeries {
    /// The columns of `--stats=json`'s `series`: `t` (s), `erleDB`, `delayMS`, `driftPPM`,
    /// `doubleTalk` (share 0...1), as `points`.
    package var statsSeries: [StatsSeries] {
        let p = points
        // Built as [Double?] directly (a [Double] cast to it is converted element by element).
        func column(_ value: (Int) -> Double?) -> [Double?] {
            var c: [Double?] = []
            c.reserveCapacity(p.count)
            for i in p.indices { c.append(value(i)) }
            return c
        }
        return [StatsSeries("t", column { p[$0].t }), StatsSeries("erleDB", column { p[$0].erle }), StatsSeries("delayMS", column { p[$0].delay }),
                StatsSeries("driftPPM", column { p[$0].drift }), StatsSeries("doubleTalk", column { p[$0].doubleTalk })]
    }

    /// `aec plot=`: three panels on one time axis: ERLE (dB) with double talk shaded, the delay
    /// in use (ms), and the drift (ppm), double talk shaded in each; the points are `points`.
    package func svg(title: String) -> String {
        let p = points
        let times = p.map { $0.t }
        // Double talk: runs of points with half or more of their time in it, each from the
        // previous point's time to its own.
        var shaded: [Range<Double>] = []
        for (i, point) in p.enumerated() where point.doubleTalk >= 0.5 {
            let start = i > 0 ? p[i - 1].t : 0
            if let last = shaded.last, last.upperBound == start { shaded[shaded.count - 1] = last.lowerBound..<point.t } else { shaded.append(start..<point.t) }
        }
        let erle = p.map { $0.erle }, delay: [Double?] = p.map { $0.delay }, drift = p.map { $0.drift }
        let delayRange = SVGPlot.range(of: delay, minimum: (delay.compactMap { $0 }.min() ?? 0)...((delay.compactMap { $0 }.max() ?? 0) + 1), step: 1)
        let driftRange = SVGPlot.range(of: drift, minimum: -100...100, step: 100)
        let panels = [
            SVGPlot.Panel(label: "ERLE (dB)", range: SVGPlot.range(of: erle, minimum: 0...40, step: 10), step: 10,
                          series: [SVGPlot.Series(name: "ERLE (dB)", color: "#1f77b4", width: 1.5, values: erle)], shaded: shaded, shadeName: "double talk"),
            SVGPlot.Panel(label: "delay (ms)", range: delayRange, step: SVGPlot.step(for: delayRange.upperBound - delayRange.lowerBound),
                          series: [SVGPlot.Series(name: "delay in use (ms)", color: "#2ca02c", width: 1.5, values: delay)], shaded: shaded),
            SVGPlot.Panel(label: "drift (ppm)", range: driftRange, step: SVGPlot.step(for: driftRange.upperBound - driftRange.lowerBound),
                          series: [SVGPlot.Series(name: "clock drift (ppm)", color: "#d62728", width: 1.5, values: drift)], shaded: shaded),
        ]
        return SVGPlot(title: title, times: times, duration: times.last ?? 0, panels: panels).svg()
    }
}
