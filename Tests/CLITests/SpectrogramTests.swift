import Foundation
import Testing

/// `spectrogram`: the picture shows tones and a sweep where they are, keeps its size and its
/// memory whatever the stream's length, is the same at any block size, passes the audio
/// through untouched, and refuses bad parameters in one line.
@Suite struct SpectrogramTests {
    /// The panels of a spectrogram picture: the insides of the rectangles framed in the axis
    /// grey (150, 150, 150), found as horizontal runs of that grey at least `width` long, in
    /// pairs (top and bottom edge) from the top.
    static func panels(_ png: PNGPicture, width: Int) -> [(x: Int, y: Int, width: Int, height: Int)] {
        var lines: [(x: Int, y: Int)] = []
        for y in 0..<png.height {
            var run = 0
            for x in 0..<png.width {
                let p = png[x, y]
                run = p == (150, 150, 150) ? run + 1 : 0
                if run == width + 2 { lines.append((x - run + 1, y)); break }
            }
        }
        return stride(from: 0, to: lines.count - 1, by: 2).map { i in
            (lines[i].x + 1, lines[i].y + 1, width, lines[i + 1].y - lines[i].y - 1)
        }
    }

    /// Runs `script` in a fresh directory, then reads the picture `name` from it.
    static func picture(_ script: String, _ name: String = "p.png") throws -> (PNGPicture, URL) {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(script, cwd: dir)
        try #require(r.status == 0, "\(script): \(r.stderr)")
        return (try PNGPicture(path: dir.appendingPathComponent(name).path), dir)
    }

    /// The panel row (0 at the bottom) of `frequency` with `rows` rows up to `top` Hz.
    static func row(of frequency: Double, rows: Int, top: Double) -> Double { frequency / top * Double(rows - 1) }

    @Test func twoTonesShowAsTheBrightestRowsAtTheirFrequencies() throws {
        let (png, _) = try Self.picture(#""$AUPIPE" gen tones 1000,5000 level=-12 duration=2 --out-format s16le:48000:2 | "$AUPIPE" spectrogram plot=p.png -o /dev/null"#)
        let panels = Self.panels(png, width: 800)
        try #require(panels.count == 2, "one panel per channel: found \(panels.count)")
        for panel in panels {
            #expect(panel.height == 257, "y=257 rows by default: \(panel.height)")
            // Each row's brightness over the whole width; the two brightest rows apart.
            var rowBrightness: [(row: Int, sum: Int)] = []
            for py in 0..<panel.height {
                var sum = 0
                for px in 0..<panel.width { sum += png.brightness(x: panel.x + px, y: panel.y + py) }
                rowBrightness.append((panel.height - 1 - py, sum))
            }
            let sorted = rowBrightness.sorted { $0.sum > $1.sum }
            let first = sorted[0].row
            let second = try #require(sorted.first { abs($0.row - first) > 3 }).row
            let found = [first, second].sorted()
            for (row, frequency) in zip(found, [1000.0, 5000]) {
                let expected = Self.row(of: frequency, rows: 257, top: 24000)
                #expect(abs(Double(row) - expected) <= 1, "the tone at \(frequency) Hz shows at row \(row), expected \(expected) ± 1")
            }
            // Between and above the tones, far from them: the floor's colours (dark).
            let quiet = rowBrightness.first { $0.row == 150 }!.sum / panel.width
            #expect(quiet < 120, "row 150 (14 kHz, no tone) is bright: \(quiet)")
        }
    }

    @Test func aLinearSweepShowsAsItsDiagonal() throws {
        let (png, _) = try Self.picture(#""$AUPIPE" gen sweep from=100 to=20000 mode=lin duration=5 | "$AUPIPE" spectrogram plot=p.png -o /dev/null"#)
        let panels = Self.panels(png, width: 800)
        try #require(panels.count == 1)
        let panel = panels[0]
        for px in stride(from: 40, to: 800, by: 40) {
            var best = (row: -1, value: -1)
            for py in 0..<panel.height {
                let v = png.brightness(x: panel.x + px, y: panel.y + py)
                if v > best.value { best = (panel.height - 1 - py, v) }
            }
            let t = (Double(px) + 0.5) * 5 / 800
            let expected = Self.row(of: 100 + 19900 * t / 5, rows: 257, top: 24000)
            #expect(abs(Double(best.row) - expected) <= 1, "at \(t) s the sweep shows at row \(best.row), expected \(expected) ± 1")
        }
    }

    @Test func maxFreqAndYSetTheRows() throws {
        // y=101 up to 4 kHz: 40 Hz a row; a tone at 3 kHz is row 75.
        let (png, _) = try Self.picture(#""$AUPIPE" gen sine 3000 duration=1 --out-format s16le:16000:1 | "$AUPIPE" spectrogram plot=p.png y=101 max-freq=4k x=300 -o /dev/null"#)
        let panel = try #require(Self.panels(png, width: 300).first)
        #expect(panel.height == 101)
        var best = (row: -1, value: -1)
        for py in 0..<panel.height {
            let v = png.brightness(x: panel.x + 150, y: panel.y + py)
            if v > best.value { best = (panel.height - 1 - py, v) }
        }
        #expect(abs(best.row - 75) <= 1, "3 kHz at row \(best.row), expected 75 ± 1")
    }

    /// An hour costs what a minute does: 60 s and 600 s give pictures of the same size with the
    /// same number of heap allocations (pooling keeps the columns' store as it was).
    @Test func aLongStreamIsPooledIntoTheSameSizeAndMemory() throws {
        let shim = try #require(AllocationTests.shim, "could not compile Support/malloccount.c")
        var sizes: [(Int, Int)] = [], counts: [Int] = []
        for seconds in [60, 600] {
            let dir = try CLI.temporaryDirectory()
            let r = try CLI.shell(#""$AUPIPE" gen noise duration=\#(seconds) --out-format s16le:8000:1 -t raw > in.raw && LD_PRELOAD='\#(shim)' "$AUPIPE" --in-format s16le:8000:1 -i in.raw spectrogram plot=p.png -o /dev/null 2>&1 | grep '^mallocs:'"#, cwd: dir)
            try #require(r.status == 0, "\(r.stderr)")
            let text = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            counts.append(try #require(Int(text.replacingOccurrences(of: "mallocs: ", with: "")), "no count in '\(text)'"))
            let png = try PNGPicture(path: dir.appendingPathComponent("p.png").path)
            sizes.append((png.width, png.height))
            #expect(Self.panels(png, width: 800).count == 1)
        }
        #expect(sizes[0] == sizes[1], "60 s gives \(sizes[0]), 600 s \(sizes[1])")
        #expect(abs(counts[1] - counts[0]) <= 4, "\(counts[0]) allocations for 60 s but \(counts[1]) for 600 s")
    }

    /// The same input gives the same PNG bytes at any block size (x=100: the columns are
    /// merged twice on the way).
    @Test func theBlockSizeDoesNotChangeTheBytes() throws {
        let dir = try CLI.temporaryDirectory()
        var pictures: [Data] = []
        for block in ["1f", "7f", "4096f"] {
            let r = try CLI.shell(#""$AUPIPE" gen noise pink duration=0.6 --out-format s16le:16000:2 | "$AUPIPE" --block \#(block) spectrogram plot=p\#(block).png x=100 y=129 -o /dev/null"#, cwd: dir)
            try #require(r.status == 0, "\(r.stderr)")
            pictures.append(try Data(contentsOf: dir.appendingPathComponent("p\(block).png")))
        }
        #expect(pictures[0].count > 1000)
        #expect(pictures[0] == pictures[1] && pictures[1] == pictures[2], "the PNG differs between --block 1f, 7f and 4096f")
    }

    /// The audio passes byte for byte; `aupipe spectrogram FILE` writes what the unit writes,
    /// to FILE's name with .png.
    @Test func theAudioPassesAndTheCommandDrawsWhatTheUnitDraws() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen tones 440,3000 duration=1.5 --out-format s24le:44100:2 -o in.wav
            "$AUPIPE" -i in.wav -t raw -o plain.raw
            "$AUPIPE" -i in.wav spectrogram plot=unit.png -t raw -o through.raw
            cmp plain.raw through.raw
            "$AUPIPE" spectrogram in.wav
            cmp in.png unit.png
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test(arguments: [
        ("spectrogram plot=p.svg", "must name a .png file"),
        ("spectrogram", "needs plot=FILE.png"),
        ("spectrogram plot=p.png x=50", "x=50 is out of range"),
        ("spectrogram plot=p.png y=8", "y=8 is out of range"),
        ("spectrogram plot=p.png range=5", "range=5 is out of range"),
        ("spectrogram plot=p.png window=kaiser", "window=kaiser is not one of"),
        ("spectrogram plot=p.png max-freq=30k", "above half the sample rate"),
        ("spectrogram plot=p.png y=4097 max-freq=100", "need a DFT of more than 65536 points"),
        ("spectrogram plot=/no/such/dir/p.png", "cannot create"),
    ])
    func badParametersAreOneLine(arguments: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell(#""$AUPIPE" gen sine duration=0.1 | "$AUPIPE" \#(arguments) -o /dev/null"#, cwd: dir)
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == (message == "cannot create" ? 73 : 64), "\(arguments): status \(r.status)")
        #expect(lines.count == 1 && lines[0].hasPrefix("aupipe: ") && lines[0].contains(message), "\(arguments): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p.png").path))
    }

    @Test func theHelpFitsATerminal() throws {
        let r = try CLI.aupipe(["help", "spectrogram"])
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(r.status == 0 && lines.count < 60, "\(lines.count) lines")
        for line in lines { #expect(line.count <= 100, "longer than 100 columns: \(line)") }
        #expect(lines.contains { $0.contains("aupipe spectrogram FILE") })
    }

    @Test func theCommandRefusesWhatItCannotDo() throws {
        for (command, message) in [("spectrogram - < /dev/null", "needs plot=FILE.png"),
                                   ("spectrogram in.wav -o out.wav", "takes --in-format, --block and --duration"),
                                   ("spectrogram in.wav : gain -3", "draws one file")] {
            let r = try CLI.shell("\"$AUPIPE\" \(command)")
            #expect(r.status == 64 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(message), "\(command): \(r.status) \(r.stderr)")
        }
    }
}
