#if canImport(Glibc)
import Glibc
#endif

/// `meter plot=`: momentary and short-term loudness and true peak over stream time, collected
/// every `interval` frames while the stream runs and drawn at the end as a self-contained SVG
/// (no script, no external font) that a browser or `rsvg-convert` opens.
///
/// The series live in one buffer sized in `init` for an hour of points (36000 at 100 ms) and
/// doubled when a longer stream fills it: a handful of allocations in a day, never per block.
struct LoudnessPlot {
    /// Seconds between points.
    let interval: Double
    /// Momentary LUFS, short-term LUFS, and true peak dBTP over the interval, per point.
    private var points: [(m: Float, s: Float, tp: Float)] = []

    init(interval: Double) {
        self.interval = interval
        points.reserveCapacity(Int((3600 / interval).rounded()))
    }

    var count: Int { points.count }

    mutating func add(momentary: Double, shortTerm: Double, truePeak: Double) {
        points.append((Float(momentary), Float(shortTerm), Float(truePeak)))
    }

    /// Lowest and highest level the plot shows, dB.
    static let floor = -60.0, ceiling = 6.0

    /// The SVG document. `title` is written as the plot's heading (escaped).
    func svg(title: String) -> String {
        let width = 960.0, height = 480.0
        let left = 70.0, right = 20.0, top = 40.0, bottom = 60.0
        let plotW = width - left - right, plotH = height - top - bottom
        let duration = max(interval, Double(points.count) * interval)
        func x(_ t: Double) -> Double { left + t / duration * plotW }
        func y(_ db: Double) -> Double {
            let v = db.isFinite ? min(Self.ceiling, max(Self.floor, db)) : Self.floor
            return top + (Self.ceiling - v) / (Self.ceiling - Self.floor) * plotH
        }
        func f(_ v: Double) -> String { String(v, decimals: 1) }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="15">\(Self.escape(title))</text>

            """
        // Grid and level ticks every 6 dB, labelled.
        var db = Self.floor
        while db <= Self.ceiling {
            out += "<line x1=\"\(f(left))\" y1=\"\(f(y(db)))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y(db)))\" stroke=\"#ddd\"/>"
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(y(db) + 4))\" text-anchor=\"end\">\(Int(db))</text>\n"
            db += 6
        }
        // Time ticks: about 10, at a round step.
        let steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400]
        let step = steps.first { duration / $0 <= 12 } ?? 86400
        // Tick k is at k × step, labelled rounded to the step's tenths (0.6, not 0.6000000000000001).
        var k = 0
        while Double(k) * step <= duration + 1e-9 {
            let t = Double(k) * step
            out += "<line x1=\"\(f(x(t)))\" y1=\"\(f(top))\" x2=\"\(f(x(t)))\" y2=\"\(f(top + plotH))\" stroke=\"#eee\"/>"
            out += "<text x=\"\(f(x(t)))\" y=\"\(f(top + plotH + 16))\" text-anchor=\"middle\">\(formatNumber((t * 10).rounded() / 10))</text>\n"
            k += 1
        }
        out += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"none\" stroke=\"black\"/>\n"
        out += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 14))\" text-anchor=\"middle\">stream time (s)</text>\n"
        out += "<text transform=\"translate(18 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">level (LUFS, dBTP)</text>\n"
        // The three series.
        let series: [(String, String, String, KeyPath<(m: Float, s: Float, tp: Float), Float>)] = [
            ("true peak (dBTP)", "#d62728", "4 3", \.tp),
            ("momentary (LUFS)", "#1f77b4", "", \.m),
            ("short-term (LUFS)", "#ff7f0e", "", \.s),
        ]
        for (i, (name, color, dash, key)) in series.enumerated() {
            var path = ""
            for (k, p) in points.enumerated() {
                path += (k == 0 ? "M" : "L") + f(x(Double(k + 1) * interval)) + " " + f(y(Double(p[keyPath: key])))
            }
            let dashed = dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\""
            if !path.isEmpty {
                out += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(i == 2 ? 2 : 1.2)\"\(dashed)/>\n"
            }
            let ly = top + 14 + Double(i) * 16
            out += "<line x1=\"\(f(left + plotW - 170))\" y1=\"\(f(ly - 4))\" x2=\"\(f(left + plotW - 145))\" y2=\"\(f(ly - 4))\" stroke=\"\(color)\" stroke-width=\"2\"\(dashed)/>"
            out += "<text x=\"\(f(left + plotW - 140))\" y=\"\(f(ly))\">\(name)</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
