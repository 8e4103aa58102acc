import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `meter plot=`: momentary and short-term loudness and true peak over stream time, collected
/// every `interval` frames while the stream runs and drawn at the end as a self-contained SVG
/// (no script, no external font) that a browser or `rsvg-convert` opens.
///
/// The series live in one buffer sized in `init` for an hour of points (36000 at 100 ms) and
/// doubled when a longer stream fills it: a handful of allocations in a day, never per block.
package struct LoudnessPlot {
    /// Seconds between points.
    package let interval: Double
    /// Momentary LUFS, short-term LUFS, and true peak dBTP over the interval, per point.
    private var points: [(m: Float, s: Float, tp: Float)] = []
    /// The stream's length (s) once `finish` has given it: the time of a last, shorter point.
    private var end: Double?

    package init(interval: Double) {
        self.interval = interval
        points.reserveCapacity(Int((3600 / interval).rounded()))
    }

    package var count: Int { points.count }

    package mutating func add(momentary: Double, shortTerm: Double, truePeak: Double) {
        points.append((Float(momentary), Float(shortTerm), Float(truePeak)))
    }

    /// At the end of a stream of `seconds` whose last interval was not whole: a last point for
    /// that part, at the end (as `every=` writes a last line).
    package mutating func finish(momentary: Double, shortTerm: Double, truePeak: Double, seconds: Double) {
        add(momentary: momentary, shortTerm: shortTerm, truePeak: truePeak)
        end = seconds
    }

    /// Lowest and highest level the plot shows, dB.
    package static let floor = -60.0, ceiling = 6.0

    /// The SVG document (one `SVGPlot` panel). `title` is written as the plot's heading (escaped).
    package func svg(title: String) -> String {
        // Silence (−inf) is drawn at the floor.
        func values(_ key: KeyPath<(m: Float, s: Float, tp: Float), Float>) -> [Double?] {
            points.map { p in let v = Double(p[keyPath: key]); return v.isFinite ? v : Self.floor }
        }
        let panel = SVGPlot.Panel(label: "level (LUFS, dBTP)", range: Self.floor...Self.ceiling, step: 6, series: [
            SVGPlot.Series(name: "true peak (dBTP)", color: "#d62728", dash: "4 3", values: values(\.tp)),
            SVGPlot.Series(name: "momentary (LUFS)", color: "#1f77b4", values: values(\.m)),
            SVGPlot.Series(name: "short-term (LUFS)", color: "#ff7f0e", width: 2, values: values(\.s)),
        ])
        var times = (0..<points.count).map { Double($0 + 1) * interval }
        if let end, !times.isEmpty { times[times.count - 1] = end }
        return SVGPlot(title: title, times: times, duration: end ?? max(interval, Double(points.count) * interval), panels: [panel]).svg()
    }
}
