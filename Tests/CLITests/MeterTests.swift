import Foundation
import Testing

/// `meter` through the binary: its figures agree with ffmpeg's `ebur128=peak=true` on real
/// recordings from Debian packages and on EBU Tech 3341 signals made with `aupipe gen`; the
/// audio passes byte for byte; `every=` lines are JSON; `--control` reads the figures while
/// the stream runs; a FIFO for the lines never stalls the stream.
@Suite struct MeterTests {
    /// Recordings Debian ships (alsa-utils' speech; sound-theme-freedesktop's sounds, Ogg Vorbis),
    /// each decoded by ffmpeg in the test; the speech files are also measured end to end as one.
    static let recordings: [String] = {
        let alsa = "/usr/share/sounds/alsa", fd = "/usr/share/sounds/freedesktop/stereo"
        return ["\(alsa)/Front_Center.wav", "\(alsa)/Noise.wav", "\(alsa)/Rear_Left.wav", "speech",
                "\(fd)/alarm-clock-elapsed.oga", "\(fd)/complete.oga", "\(fd)/phone-incoming-call.oga",
                "\(fd)/phone-outgoing-calling.oga", "\(fd)/audio-test-signal.oga", "\(fd)/service-login.oga"]
    }()

    /// A shell command that writes the recording as CAF on stdout.
    static func decode(_ name: String) -> String {
        if name == "speech" {
            let files = ["Front_Left", "Front_Center", "Front_Right", "Side_Left", "Side_Right", "Rear_Left", "Rear_Center", "Rear_Right", "Noise"]
            let inputs = files.map { "-i /usr/share/sounds/alsa/\($0).wav" }.joined(separator: " ")
            return "ffmpeg -nostdin -v error \(inputs) -filter_complex concat=n=\(files.count):v=0:a=1 -f caf -"
        }
        return "ffmpeg -nostdin -v error -i \(CLI.quote(name)) -f caf -"
    }

    /// meter's figures from `--stats=json`.
    static func meterFigures(_ command: String, cwd: URL? = nil) throws -> [String: Double] {
        let r = try CLI.shell("\(command) | \"$AUPIPE\" --stats=json meter -o /dev/null", cwd: cwd)
        try #require(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").last)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let unit = try #require((object?["units"] as? [[String: Any]])?.first)
        return (unit["figures"] as? [String: Double]) ?? [:]
    }

    /// ffmpeg's summary of `ebur128=peak=true`: I (LUFS), LRA (LU), true peak (dBFS, i.e. dBTP).
    static func ffmpegFigures(_ command: String, cwd: URL? = nil) throws -> (i: Double, lra: Double, tp: Double) {
        let r = try CLI.shell("\(command) | ffmpeg -nostdin -nostats -hide_banner -f caf -i - -af ebur128=peak=true -f null - 2>&1", cwd: cwd)
        let text = String(decoding: r.stdout, as: UTF8.self)
        func value(_ key: String) throws -> Double {
            let line = try #require(text.split(separator: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }, "no \(key) in ffmpeg's output: \(text)")
            return try #require(Double(line.split(separator: " ").dropFirst().first ?? ""), "\(line)")
        }
        return (try value("I"), try value("LRA"), try value("Peak"))
    }

    @Test(.needs("ffmpeg"), arguments: recordings)
    func agreesWithFFmpegOnRecordings(recording: String) throws {
        try #require(recording == "speech" || FileManager.default.fileExists(atPath: recording),
                     "\(recording) is missing: scripts/install-deps test installs alsa-utils and sound-theme-freedesktop")
        let command = Self.decode(recording)
        let ours = try Self.meterFigures(command), theirs = try Self.ffmpegFigures(command)
        let i = try #require(ours["integratedLUFS"]), lra = try #require(ours["loudnessRangeLU"]), tp = try #require(ours["truePeakDBTP"])
        // ffmpeg prints one decimal: its figure is within 0.05 of its own measurement.
        #expect(abs(i - theirs.i) <= 0.1, "\(recording): integrated \(i) LUFS, ffmpeg \(theirs.i)")
        #expect(abs(lra - theirs.lra) <= 0.5, "\(recording): range \(lra) LU, ffmpeg \(theirs.lra)")
        #expect(abs(tp - theirs.tp) <= 0.2, "\(recording): true peak \(tp) dBTP, ffmpeg \(theirs.tp)")
    }

    /// EBU Tech 3341 case 1 and 2 style: a 997 Hz stereo sine at -20 dBFS reads -20.0 LUFS,
    /// one at -23 dBFS reads -23.0 LUFS (both channels in phase), with range 0 LU.
    @Test(arguments: [(-20.0, 20), (-23.0, 20), (-23.0, 60)])
    func tech3341Sines(level: Double, seconds: Int) throws {
        let ours = try Self.meterFigures("\"$AUPIPE\" gen sine 997 level=\(Int(level)) duration=\(seconds) --out-format f32le:48000:2 -t caf")
        let i = try #require(ours["integratedLUFS"])
        #expect(abs(i - level) < 0.05, "a \(level) dBFS stereo sine reads \(i) LUFS")
        #expect(try #require(ours["loudnessRangeLU"]) <= 0.1)
        #expect(abs(try #require(ours["samplePeakDBFS"]) - level) < 0.01)
        #expect(abs(try #require(ours["truePeakDBTP"]) - level) < 0.1)
        #expect(abs(try #require(ours["rmsDBFS"]) - (level - 3.01)) < 0.01, "a sine's RMS is 3.01 dB below its peak")
    }

    /// EBU Tech 3341 case 5 style: 20 s at -26, 20.1 s at -20, 20 s at -26 dBFS reads -23.0 LUFS.
    @Test(.needs("ffmpeg")) func tech3341SteppedSignalReadsMinus23() throws {
        let dir = try CLI.temporaryDirectory()
        let gen = "\"$AUPIPE\" gen sine 997 --out-format f32le:48000:2 -t raw"
        let command = "{ \(gen) level=-26 duration=20; \(gen) level=-20 duration=20.1; \(gen) level=-26 duration=20; } | \"$AUPIPE\" --in-format f32le:48000:2 -t caf"
        let ours = try Self.meterFigures(command, cwd: dir), theirs = try Self.ffmpegFigures(command, cwd: dir)
        let i = try #require(ours["integratedLUFS"])
        #expect(abs(i - -23) <= 0.1, "reads \(i) LUFS")
        #expect(abs(i - theirs.i) <= 0.1, "\(i) LUFS, ffmpeg \(theirs.i)")
        #expect(abs(try #require(ours["loudnessRangeLU"]) - theirs.lra) <= 0.5)
    }

    @Test(arguments: ["s16le", "f32le", "s24le"])
    func theAudioPassesByteForByte(format: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen noise duration=3 --out-format \(format):44100:2 -o in.wav
            "$AUPIPE" -i in.wav meter every=1s to=lines.jsonl -o out.wav && cmp in.wav out.wav
            "$AUPIPE" -i in.wav -t raw meter > out.raw && "$AUPIPE" -i in.wav -t raw > ref.raw && cmp out.raw ref.raw
            """, cwd: dir)
        #expect(r.status == 0, "\(String(decoding: r.stdout, as: UTF8.self)) \(r.stderr)")
    }

    @Test func everyLinesAreJSONWithStableKeys() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 997 level=-20 duration=3.2 --out-format s16le:48000:2 | "$AUPIPE" meter every=500ms to=lines.jsonl > /dev/null
            "$AUPIPE" gen sine 997 level=-20 duration=1 --out-format s16le:48000:2 | "$AUPIPE" meter every=1s 2>&1 >/dev/null
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("lines.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 7, "3.2 s at every=500ms: 6 whole intervals and the last part one; got \(lines.count)")
        var times: [Double] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(Set(object.keys) == ["t", "momentary", "shortterm", "integrated", "range", "truepeak", "peak", "rms"], "\(line)")
            #expect(line.hasPrefix("{\"t\":"), "t comes first: \(line)")
            times.append(try #require(object["t"] as? Double))
        }
        #expect(times == [0.5, 1, 1.5, 2, 2.5, 3, 3.2])
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        #expect(abs((last["integrated"] as? Double ?? 0) - -20) < 0.05 && abs((last["peak"] as? Double ?? 0) - -20) < 0.01, "\(last)")
        // Without to=, the lines go to stderr.
        let stderrLine = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").first ?? ""
        #expect(stderrLine.hasPrefix("{\"t\":1.000,"), "\(stderrLine)")
    }

    /// A FIFO whose reader reads nothing until the end: the stream runs at full length, the
    /// lines that did not fit are dropped and counted, and those that came are whole.
    @Test func aFIFOForTheLinesNeverStallsTheStream() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkfifo lines
            exec 3<>lines; exec 4<lines; exec 3>&-
            "$AUPIPE" gen sine 997 duration=120 --out-format s16le:8000:1 | "$AUPIPE" --stats=json meter every=100ms to=lines -o out.wav 2> stats.json
            echo "status=$?"
            cat <&4 > lines.jsonl
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        let text = try String(contentsOf: dir.appendingPathComponent("lines.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(text.hasSuffix("\n"))
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "a torn line: \(line)") }
        let stats = try String(contentsOf: dir.appendingPathComponent("stats.json"), encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data((stats.split(separator: "\n").last ?? "").utf8)) as? [String: Any]
        let figures = try #require((object?["units"] as? [[String: Any]])?.first?["figures"] as? [String: Any])
        let written = try #require(figures["linesWritten"] as? Double), dropped = try #require(figures["linesDropped"] as? Double)
        #expect(Int(written) == lines.count && written + dropped == 1200 && dropped > 0, "written \(written), dropped \(dropped), read \(lines.count)")
        #expect(((object?["output"] as? [String: Any])?["frames"] as? Int) == 960000)
    }

    @Test func plotIsAnSVGWithLabelledAxes() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sweep duration=5 --out-format s16le:48000:2 | \"$AUPIPE\" meter plot=p.svg > /dev/null", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOf: dir.appendingPathComponent("p.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.hasSuffix("</svg>\n"))
        for label in ["stream time (s)", "level (LUFS, dBTP)", "momentary (LUFS)", "short-term (LUFS)", "true peak (dBTP)"] {
            #expect(svg.contains(label), "no '\(label)' in the plot")
        }
        #expect(svg.components(separatedBy: "<path d=\"M").count == 4, "three series")
        #expect(svg.components(separatedBy: "<text").count == svg.components(separatedBy: "</text>").count, "every <text> is closed")
    }

    @Test func refusals() throws {
        let dir = try CLI.temporaryDirectory()
        for (arguments, says) in [("-i in.wav meter to=in.wav", "the input"), ("-i in.wav meter plot=out.svg -o out.svg", "the output"),
                                  ("-i in.wav meter every=0", "every=0"), ("-i in.wav meter plot=/nonexistent/p.svg", "p.svg")] {
            let r = try CLI.shell("\"$AUPIPE\" gen sine duration=1 -o in.wav; \"$AUPIPE\" \(arguments) > /dev/null", cwd: dir)
            #expect([64, 73].contains(r.status) && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(says), "\(arguments): \(r.status) \(r.stderr)")
        }
    }
}
