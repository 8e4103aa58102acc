import AUPipeFormats
import AUPipeGraph

/// A self-contained SVG of series over stream time (no script, no external font), that a
/// browser or `rsvg-convert` opens: one or more panels stacked on a shared time axis, each
/// with its own value axis, grid, series (lines, with gaps where a value is missing) and
/// legend, and optionally shaded time spans. A point with no neighbouring point (the only
/// one, or one between gaps) is drawn as a dot, since a line needs two. `meter plot=` (one panel) and `aec plot=` (four)
/// draw with it.
package struct SVGPlot {
    /// One line: a legend name (with its unit), a colour, a dash pattern ("" for solid), a
    /// width, and one value per point (nil: a gap).
    package struct Series {
        package var name: String
        package var color: String
        package var dash = ""
        package var width = 1.2
        package var values: [Double?]
    }

    /// One panel: its value-axis label (with the unit), the values it shows (beyond them,
    /// values are drawn at the edge), the step of its labelled grid lines, its series, and
    /// time spans shaded (with a legend entry `shadeName`).
    package struct Panel {
        package var label: String
        package var range: ClosedRange<Double>
        package var step: Double
        package var series: [Series]
        package var shaded: [Range<Double>] = []
        package var shadeName = ""
    }

    package var title: String
    /// The time (s) of each point, and the stream's length (s): the time axis runs 0...duration.
    package var times: [Double]
    package var duration: Double
    package var panels: [Panel]

    /// The range of an axis that shows `values` (nil ignored) with a margin, at least `minimum`
    /// wide, ends on multiples of `step`.
    package static func range(of values: [Double?], minimum: ClosedRange<Double>, step: Double) -> ClosedRange<Double> {
        var low = minimum.lowerBound, high = minimum.upperBound
        for v in values { if let v, v.isFinite { low = Swift.min(low, v); high = Swift.max(high, v) } }
        return (low / step).rounded(.down) * step...(high / step).rounded(.up) * step
    }

    /// A round step giving about `lines` grid lines over `span`.
    package static func step(for span: Double, lines: Double = 5) -> Double {
        let raw = Swift.max(span, 1e-9) / lines
        var unit = 1.0
        while unit * 10 <= raw { unit *= 10 }
        while unit > raw { unit /= 10 }
        return [1, 2, 5, 10].map { $0 * unit }.first { $0 >= raw } ?? 10 * unit
    }

    /// The SVG document.
    package func svg() -> String {
        let width = 960.0, left = 70.0, right = 20.0, top = 40.0, bottom = 50.0, gap = 24.0
        let panelH = panels.count > 1 ? 150.0 : 380.0
        let height = top + Double(panels.count) * panelH + Double(Swift.max(0, panels.count - 1)) * gap + bottom
        let plotW = width - left - right
        let span = Swift.max(duration, 1e-3)
        func x(_ t: Double) -> Double { left + Swift.min(Swift.max(t, 0), span) / span * plotW }
        func f(_ v: Double) -> String { String(v, decimals: 1) }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="15">\(Self.escape(title))</text>

            """
        // Time ticks: about 10, at a round step; tick k at k × step, labelled to tenths.
        let steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400]
        let timeStep = steps.first { span / $0 <= 12 } ?? 86400
        for (index, panel) in panels.enumerated() {
            let y0 = top + Double(index) * (panelH + gap)
            let low = panel.range.lowerBound, high = Swift.max(panel.range.upperBound, low + 1e-9)
            func y(_ v: Double) -> Double { y0 + (high - Swift.min(high, Swift.max(low, v))) / (high - low) * panelH }
            out += "<g>\n"
            for s in panel.shaded where s.upperBound > s.lowerBound {
                out += "<rect x=\"\(f(x(s.lowerBound)))\" y=\"\(f(y0))\" width=\"\(f(x(s.upperBound) - x(s.lowerBound)))\" height=\"\(f(panelH))\" fill=\"#f4c7c3\" fill-opacity=\"0.6\"/>\n"
            }
            var v = (low / panel.step).rounded(.up) * panel.step
            while v <= high + 1e-9 {
                out += "<line x1=\"\(f(left))\" y1=\"\(f(y(v)))\" x2=\"\(f(left + plotW))\" y2=\"\(f(y(v)))\" stroke=\"#ddd\"/>"
                out += "<text x=\"\(f(left - 6))\" y=\"\(f(y(v) + 4))\" text-anchor=\"end\">\(formatNumber((v / panel.step).rounded() * panel.step))</text>\n"
                v += panel.step
            }
            var k = 0
            while Double(k) * timeStep <= span + 1e-9 {
                let t = Double(k) * timeStep
                out += "<line x1=\"\(f(x(t)))\" y1=\"\(f(y0))\" x2=\"\(f(x(t)))\" y2=\"\(f(y0 + panelH))\" stroke=\"#eee\"/>"
                if index == panels.count - 1 {
                    out += "<text x=\"\(f(x(t)))\" y=\"\(f(y0 + panelH + 16))\" text-anchor=\"middle\">\(formatNumber((t * 10).rounded() / 10))</text>"
                }
                out += "\n"
                k += 1
            }
            out += "<rect x=\"\(f(left))\" y=\"\(f(y0))\" width=\"\(f(plotW))\" height=\"\(f(panelH))\" fill=\"none\" stroke=\"black\"/>\n"
            out += "<text transform=\"translate(18 \(f(y0 + panelH / 2))) rotate(-90)\" text-anchor=\"middle\">\(Self.escape(panel.label))</text>\n"
            // The legend goes over the traces, on a white backdrop that keeps it readable.
            let entries = panel.series.count + (panel.shadeName.isEmpty ? 0 : 1)
            var legend = "<rect x=\"\(f(left + plotW - 176))\" y=\"\(f(y0 + 2))\" width=\"172\" height=\"\(entries * 16 + 4)\" fill=\"white\" fill-opacity=\"0.85\"/>\n"
            for (i, series) in panel.series.enumerated() {
                // A point with no neighbour (alone, or between gaps) draws no line: it gets a dot.
                var path = "", pen = false, dots = ""
                var run: [(x: Double, y: Double)] = []
                func endRun() {
                    if run.count == 1 {
                        dots += "<circle cx=\"\(f(run[0].x))\" cy=\"\(f(run[0].y))\" r=\"\(formatNumber(series.width + 1))\" fill=\"\(series.color)\"><title>\(Self.escape(series.name))</title></circle>\n"
                    }
                    run = []
                }
                for (p, t) in times.enumerated() where p < series.values.count {
                    guard let value = series.values[p], value.isFinite else { pen = false; endRun(); continue }
                    path += (pen ? "L" : "M") + f(x(t)) + " " + f(y(value))
                    run.append((x(t), y(value)))
                    pen = true
                }
                endRun()
                let dashed = series.dash.isEmpty ? "" : " stroke-dasharray=\"\(series.dash)\""
                if !path.isEmpty {
                    out += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"\(formatNumber(series.width))\"\(dashed)><title>\(Self.escape(series.name))</title></path>\n"
                }
                out += dots
                let ly = y0 + 14 + Double(i) * 16
                legend += "<line x1=\"\(f(left + plotW - 170))\" y1=\"\(f(ly - 4))\" x2=\"\(f(left + plotW - 145))\" y2=\"\(f(ly - 4))\" stroke=\"\(series.color)\" stroke-width=\"2\"\(dashed)/>"
                legend += "<text x=\"\(f(left + plotW - 140))\" y=\"\(f(ly))\">\(Self.escape(series.name))</text>\n"
            }
            if !panel.shadeName.isEmpty {
                let ly = y0 + 14 + Double(panel.series.count) * 16
                legend += "<rect x=\"\(f(left + plotW - 170))\" y=\"\(f(ly - 9))\" width=\"25\" height=\"10\" fill=\"#f4c7c3\"/>"
                legend += "<text x=\"\(f(left + plotW - 140))\" y=\"\(f(ly))\">\(Self.escape(panel.shadeName))</text>\n"
            }
            out += legend + "</g>\n"
        }
        out += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 12))\" text-anchor=\"middle\">stream time (s)</text>\n"
        out += "</svg>\n"
        return out
    }

    package static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
