import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `aec plot=` through the binary: the SVG is well-formed XML with the ERLE, delay and drift
/// series and double talk shaded, its points are the `--stats=json` series, and it is refused
/// onto a FIFO or onto the output.
@Suite struct AECPlotTests {
    /// 8 s of pink noise as the far end; the microphone its echo 100 ms later at −6 dB, with a
    /// near end (other pink noise, −20 dBFS) from 5 to 6 s: double talk.
    static let scene = """
        "$AUPIPE" gen noise pink seed=3 level=-20 duration=8 --out-format s16le:16000:1 -o far.wav
        "$AUPIPE" gen noise pink seed=9 level=-20 duration=1 --out-format s16le:16000:1 -o near.wav
        "$AUPIPE" gen silence duration=8 --out-format s16le:16000:1 -o mic0.wav
        "$AUPIPE" -i mic0.wav mix input=far.wav,gain=-6,offset=100ms input=near.wav,offset=5s -o mic.wav
        """

    /// Every `<path>`'s points and its `<title>`, and the shaded rectangles (x, width), from the
    /// SVG parsed with XMLParser (which fails on malformed XML).
    final class Reader: NSObject, XMLParserDelegate {
        var paths: [(title: String, points: [(x: Double, y: Double)])] = []
        var shaded: [(x: Double, width: Double)] = []
        private var inTitle = false, title = "", current: [(x: Double, y: Double)]?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if name == "path", let d = attributes["d"] {
                current = d.split(whereSeparator: { $0 == "M" || $0 == "L" }).map { pair in
                    let v = pair.split(separator: " ").map { Double($0)! }
                    return (v[0], v[1])
                }
            }
            if name == "title", current != nil { inTitle = true; title = "" }
            if name == "rect", attributes["fill"] == "#f4c7c3", attributes["width"] != "25" {
                shaded.append((Double(attributes["x"]!)!, Double(attributes["width"]!)!))
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { if inTitle { title += string } }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title" { inTitle = false }
            if name == "path", let c = current { paths.append((title, c)); current = nil }
        }
    }

    @Test func thePlotIsWellFormedAndAgreesWithTheJSONSeries() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(Self.scene + "\n" + #""$AUPIPE" -i mic.wav --stats=json aec ref=far.wav frame=10ms plot=p.svg -o /dev/null"#, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("{") }, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let unit = try #require((object["units"] as? [[String: Any]])?.first)
        let series = try #require(unit["series"] as? [String: [Any]], "\(unit)")
        func column(_ name: String) -> [Double?] { (series[name] ?? []).map { $0 as? Double } }
        let t = column("t").map { $0! }
        #expect(t.count >= 79 && t.count <= 82, "a point every 100 ms over 8 s: \(t.count)")
        for name in ["erleDB", "delayMS", "driftPPM", "doubleTalk"] {
            #expect(series[name]?.count == t.count, "\(name) has \(series[name]?.count ?? 0) points, t \(t.count)")
        }

        let data = try Data(contentsOf: dir.appendingPathComponent("p.svg"))
        let parser = XMLParser(data: data)
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is not well-formed XML: \(parser.parserError.map(String.init(describing:)) ?? "")")
        let svg = String(decoding: data, as: UTF8.self)
        for label in ["stream time (s)", "ERLE (dB)", "delay (ms)", "drift (ppm)", "double talk"] {
            #expect(svg.contains(label), "no '\(label)' in the plot")
        }
        // Each series' points are its JSON values (nulls left out), in the same places: x an
        // affine function of t, y of the value (checked to 0.15 px: the SVG has 0.1 px).
        for (title, name) in [("ERLE (dB)", "erleDB"), ("delay in use (ms)", "delayMS"), ("clock drift (ppm)", "driftPPM")] {
            let values = column(name)
            let known = zip(t, values).compactMap { tv in tv.1.map { (tv.0, $0) } }
            let path = try #require(reader.paths.first { $0.title == title }, "no path '\(title)' in the plot")
            try #require(path.points.count == known.count, "\(title): \(path.points.count) points in the plot, \(known.count) in the JSON")
            try #require(known.count >= 2)
            func affine(_ a: [Double], _ b: [Double]) -> Bool {
                guard let i = a.indices.min(by: { a[$0] < a[$1] }), let j = a.indices.max(by: { a[$0] < a[$1] }), a[j] > a[i] else {
                    return Set(b.map { ($0 * 10).rounded() }).count == 1
                }
                let slope = (b[j] - b[i]) / (a[j] - a[i])
                return a.indices.allSatisfy { abs(b[i] + slope * (a[$0] - a[i]) - b[$0]) <= 0.15 + abs(slope) * 0.005 }
            }
            #expect(affine(known.map(\.0), path.points.map(\.x)), "\(title): x is not the JSON's t")
            #expect(affine(known.map(\.1), path.points.map(\.y)), "\(title): y is not the JSON's \(name)")
        }
        // Double talk: the near end's second is shaded (in each of the three panels), and the
        // JSON says so too.
        let talk = column("doubleTalk").map { $0 ?? 0 }
        #expect(zip(t, talk).contains { $0.0 > 5 && $0.0 <= 6.3 && $0.1 >= 0.5 }, "no double talk in the JSON at 5-6 s: \(talk)")
        #expect(!reader.shaded.isEmpty && reader.shaded.count % 3 == 0, "shaded spans: \(reader.shaded)")
        #expect(zip(t, talk).allSatisfy { $0.0 < 4.5 ? $0.1 < 0.5 : true }, "double talk before the near end: \(talk)")
    }

    @Test func thePlotIsRefusedOntoAFIFOOrTheOutput() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(Self.scene + "\n" + """
            mkfifo p.svg
            timeout -s KILL 20 "$AUPIPE" -i mic.wav aec ref=far.wav plot=p.svg -o /dev/null; echo "fifo=$?"
            timeout -s KILL 20 "$AUPIPE" -i mic.wav aec ref=far.wav plot=out.svg -o out.svg; echo "output=$?"
            """, cwd: dir)
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(out.contains("fifo=64") && out.contains("output=64"), "\(out) \(r.stderr)")
        #expect(r.stderr.contains("plot=p.svg is not a regular file"), "\(r.stderr)")
        #expect(r.stderr.contains("the output"), "\(r.stderr)")
    }

    /// `drift=PPM` needs `ref=`: a reference from an input channel shares the microphone's clock.
    @Test func aGivenDriftNeedsAReferenceFile() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen noise duration=1 --out-format s16le:16000:2 -o two.wav
            "$AUPIPE" -i two.wav aec ref-channel=1 drift=100 -o /dev/null; echo "given=$?"
            "$AUPIPE" -i two.wav aec ref-channel=1 drift=auto -o /dev/null; echo "auto=$?"
            """, cwd: dir)
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(out.contains("given=64") && out.contains("auto=0"), "\(out) \(r.stderr)")
        #expect(r.stderr.contains("aec: drift=100 needs ref=PATH"), "\(r.stderr)")
    }
}
