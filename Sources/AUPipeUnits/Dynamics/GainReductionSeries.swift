import AUPipeFormats
import AUPipeGraph

/// A dynamics unit's gain reduction over stream time, for `plot=`: per point, the deepest
/// reduction (dB) of the frames it covers.
///
/// A point covers `pointFrames` frames (10 ms at first). Memory is bounded: the buffer holds
/// `capacity` points (2000), allocated in `init`; when it is full, neighbouring points are
/// merged in pairs (the deeper reduction kept) and each point covers twice as long from then
/// on, so a run of any length keeps between 1000 and 2000 points.
package final class GainReductionSeries {
    /// Seconds a point covers at first.
    package static let pointSeconds = 0.01
    package static let capacity = 2000

    package let sampleRate: Int
    package private(set) var pointFrames: Int
    private var deepest: [Float]
    package private(set) var count = 0
    private var frames = 0
    private var current: Float = 0
    /// Frames added so far.
    package private(set) var totalFrames: Int64 = 0

    package init(sampleRate: Int) {
        self.sampleRate = sampleRate
        pointFrames = max(1, Int((Self.pointSeconds * Double(sampleRate)).rounded()))
        deepest = [Float](repeating: 0, count: Self.capacity)
    }

    /// One frame's reduction, dB (≥ 0).
    @inline(__always)
    package func add(_ reduction: Float) {
        current = max(current, reduction)
        frames += 1
        totalFrames += 1
        if frames == pointFrames { close() }
    }

    /// Closes a part-filled last point (at the end of the stream).
    package func finish() { if frames > 0 { close() } }

    private func close() {
        if count == Self.capacity {
            for i in 0..<count / 2 { deepest[i] = max(deepest[2 * i], deepest[2 * i + 1]) }
            count /= 2
            pointFrames *= 2
        }
        deepest[count] = current
        count += 1
        frames = 0
        current = 0
    }

    /// The SVG document: gain reduction (dB, drawn downwards as a negative gain) over time.
    package func svg(title: String) -> String {
        let seconds = Double(totalFrames) / Double(sampleRate)
        let step = Double(pointFrames) / Double(sampleRate)
        let times = (0..<count).map { min(seconds, Double($0 + 1) * step) }
        let values: [Double?] = (0..<count).map { -Double(deepest[$0]) }
        let low = SVGPlot.range(of: values, minimum: -6...0, step: 3)
        let panel = SVGPlot.Panel(label: "gain reduction (dB)", range: low.lowerBound...0, step: SVGPlot.step(for: -low.lowerBound),
                                  series: [SVGPlot.Series(name: "gain (dB)", color: "#1f77b4", width: 1.5, values: values)])
        return SVGPlot(title: title, times: times, duration: seconds, panels: [panel]).svg()
    }
}
