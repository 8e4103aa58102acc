import Foundation
import Testing

/// The SVG plots (`meter plot=`, `aec plot=`) opened in a real browser, headless Chromium:
/// every text label lies inside the picture at a font of at least 10 px, every trace has
/// points and a length, and a screenshot is not blank. The layout is read through the DOM: a
/// page embeds the SVG and a script (Support/plot-measure.js) writes each label's box and each
/// trace's points into the page, which `--dump-dom` prints.
@Suite(.serialized) struct PlotBrowserTests {
    /// What the script measured.
    struct Layout: Decodable {
        struct Label: Decodable { var text: String; var left, top, right, bottom, fontSize: Double }
        struct Trace: Decodable { var title: String; var points: Int; var length: Double }
        struct Dot: Decodable { var title: String; var width: Double }
        var width, height: Double
        var texts: [Label]
        var traces: [Trace]
        var dots: [Dot]
    }

    /// Chromium, headless, with a profile of its own in `dir` (root needs --no-sandbox).
    static func chromium(_ arguments: String, in dir: URL) throws -> CLI.Result {
        try CLI.shell("timeout -s KILL 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=\(CLI.quote(dir.appendingPathComponent("profile").path)) \(arguments) 2>/dev/null")
    }

    /// The layout of the SVG at `svg`, as Chromium lays it out.
    static func layout(of svg: URL) throws -> Layout {
        let dir = svg.deletingLastPathComponent()
        let script = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/plot-measure.js"), encoding: .utf8)
        let document = try String(contentsOf: svg, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("<?xml") }.joined(separator: "\n")
        let page = dir.appendingPathComponent(svg.lastPathComponent + ".html")
        try ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body{margin:0}</style></head><body>\n" + document
             + "\n<pre id=\"result\"></pre>\n<script>\n" + script + "</script></body></html>\n").write(to: page, atomically: true, encoding: .utf8)
        let r = try chromium("--virtual-time-budget=5000 --dump-dom \(CLI.quote(page.absoluteString))", in: dir)
        let dom = String(decoding: r.stdout, as: UTF8.self)
        let start = try #require(dom.range(of: "<pre id=\"result\">"), "no result in the page Chromium dumped (status \(r.status)): \(dom.prefix(300))")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let json = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Layout.self, from: Data(json.utf8))
    }

    /// A screenshot of the SVG file as Chromium draws it, at its own size.
    static func screenshot(of svg: URL, width: Int, height: Int) throws -> PNGPicture {
        let shot = svg.deletingPathExtension().appendingPathExtension("shot.png")
        _ = try chromium("--window-size=\(width),\(height) --screenshot=\(CLI.quote(shot.path)) \(CLI.quote(svg.absoluteString))", in: svg.deletingLastPathComponent())
        return try PNGPicture(path: shot.path)
    }

    /// The checks every plot must pass; `series` names the traces it must have.
    static func check(_ svg: URL, series: [String]) throws {
        let layout = try layout(of: svg)
        #expect(layout.width >= 600 && layout.height >= 300, "\(svg.lastPathComponent): \(layout.width) x \(layout.height)")
        #expect(!layout.texts.isEmpty)
        for label in layout.texts {
            #expect(label.left >= 0 && label.top >= 0 && label.right <= layout.width && label.bottom <= layout.height,
                    "\(svg.lastPathComponent): '\(label.text)' lies outside the \(layout.width) x \(layout.height) picture: \(label)")
            #expect(label.fontSize >= 10 && label.bottom - label.top >= 10, "\(svg.lastPathComponent): '\(label.text)' is smaller than 10 px: \(label)")
        }
        for name in series {
            let traces = layout.traces.filter { $0.title == name }
            #expect(!traces.isEmpty, "\(svg.lastPathComponent): no trace '\(name)'")
        }
        // A trace is drawn: a line through its points, or dots where a point stands alone.
        for trace in layout.traces {
            let dots = layout.dots.filter { $0.title == trace.title && $0.width >= 2 }
            #expect(trace.points >= 1 && (trace.length > 0 || !dots.isEmpty),
                    "\(svg.lastPathComponent): the trace '\(trace.title)' has \(trace.points) points, length \(trace.length), \(dots.count) dots")
        }
        let png = try screenshot(of: svg, width: Int(layout.width), height: Int(layout.height))
        #expect(png.width == Int(layout.width) && png.height == Int(layout.height), "screenshot \(png.width) x \(png.height)")
        var inked = 0
        for y in 0..<png.height { for x in 0..<png.width { if png.brightness(x: x, y: y) < 600 { inked += 1 } } }
        #expect(png.colourCount > 16 && inked > png.width * png.height / 100,
                "\(svg.lastPathComponent): the screenshot looks blank: \(png.colourCount) colours, \(inked) pixels not white")
    }

    static let meterSeries = ["true peak (dBTP)", "momentary (LUFS)", "short-term (LUFS)"]

    @Test(.needs("chromium"), arguments: [
        // A few seconds; 150 ms (a point and a last one for the part interval); 50 ms (only
        // the last point: a dot); ten minutes (long tick labels).
        "\"$AUPIPE\" gen sweep duration=5 --out-format s16le:48000:2",
        "\"$AUPIPE\" gen sine 1000 duration=0.15 --out-format s16le:48000:1",
        "\"$AUPIPE\" gen sine 1000 duration=0.05 --out-format s16le:48000:1",
        "\"$AUPIPE\" gen noise pink duration=600 level=-30 --out-format s16le:8000:1",
    ])
    func meterPlotOpensInABrowser(source: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\(source) | \"$AUPIPE\" meter plot=p.svg -o /dev/null", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        try Self.check(dir.appendingPathComponent("p.svg"), series: Self.meterSeries)
    }

    @Test(.needs("chromium")) func aecPlotOpensInABrowser() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(AECPlotTests.scene + "\n" + #""$AUPIPE" -i mic.wav aec ref=far.wav frame=10ms plot=p.svg -o /dev/null"#, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        try Self.check(dir.appendingPathComponent("p.svg"), series: ["ERLE (dB)", "delay in use (ms)", "clock drift (ppm)"])
    }

    @Test(.needs("chromium")) func compressorPlotOpensInABrowser() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(#""$AUPIPE" gen sweep duration=5 level=-6 --out-format s16le:48000:2 | "$AUPIPE" compressor -30 plot=p.svg -o /dev/null"#, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        try Self.check(dir.appendingPathComponent("p.svg"), series: ["gain (dB)"])
    }
}
