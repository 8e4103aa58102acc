import Foundation
import Testing

/// What `aec --stats` claims, through the binary, on inputs made with `aupipe gen` and `mix`:
/// no ERLE and no convergence where nothing was cancelled.
@Suite struct AECStatsTests {
    /// A directory with `far.wav` (4 s of pink noise at −20 dBFS, 16 kHz mono) and `mic0.wav`
    /// (4 s of silence), then `script` run in it.
    static func run(_ script: String) throws -> CLI.Result {
        let d = try CLI.temporaryDirectory()
        return try CLI.shell("""
            "$AUPIPE" gen noise pink seed=3 level=-20 duration=4 --out-format s16le:16000:1 -o far.wav
            "$AUPIPE" gen silence duration=4 --out-format s16le:16000:1 -o mic0.wav
            \(script)
            """, cwd: d)
    }

    /// The `figures` of the first unit in a `--stats=json` line.
    static func figures(_ json: String) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        return try #require((object["units"] as? [[String: Any]])?.first?["figures"] as? [String: Any], "\(json)")
    }

    /// A silent microphone while the far end plays holds no echo: no ERLE figure, no convergence.
    @Test func aSilentMicrophoneMeasuresNoEcho() throws {
        let r = try Self.run("""
            "$AUPIPE" -i mic0.wav --stats aec ref=far.wav -o /dev/null 2> text.txt
            "$AUPIPE" -i mic0.wav --stats=json aec ref=far.wav -o /dev/null; cat text.txt >&2
            """)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let text = try #require(lines.first { $0.hasPrefix("aupipe: stats: 1 aec:") }, "\(r.stderr)")
        #expect(text.contains("ERLE: no echo measured"), "\(text)")
        #expect(!text.contains("convergence") && !text.contains(" dB (median"), "\(text)")
        let figures = try Self.figures(try #require(lines.first { $0.hasPrefix("{") }))
        #expect(figures["erleDB"] is NSNull && figures["convergedAtSeconds"] is NSNull, "\(figures)")
    }

    /// An echo beyond max-delay (800 ms, max-delay 500 ms) cannot be cancelled: the ERLE is
    /// small and the canceller never converges. Within reach (100 ms), the same echo converges.
    /// The far end here is stationary pink noise, which the default noise suppression
    /// (denoise=-30) takes for noise and removes, and the ERLE figure (output against
    /// microphone) would count that (28.9 dB): the late runs have denoise=0, and residual=0 (the
    /// residual echo suppressor takes out some of an echo the filter cannot model, which is
    /// its job, until its noise floor has learnt the stationary noise: 20.9 dB over these 4 s).
    @Test func anEchoBeyondMaxDelayDoesNotConverge() throws {
        let r = try Self.run("""
            "$AUPIPE" -i mic0.wav mix input=far.wav,gain=-6,offset=800ms -o late.wav
            "$AUPIPE" -i mic0.wav mix input=far.wav,gain=-6,offset=100ms -o near.wav
            "$AUPIPE" -i late.wav --stats aec ref=far.wav denoise=0 residual=0 -o /dev/null
            "$AUPIPE" -i late.wav --stats=json aec ref=far.wav denoise=0 residual=0 -o /dev/null
            "$AUPIPE" -i near.wav --stats aec ref=far.wav -o /dev/null
            """)
        #expect(r.status == 0, "\(r.stderr)")
        let notes = r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("aupipe: stats: 1 aec:") }
        try #require(notes.count == 2, "\(r.stderr)")
        #expect(notes[0].contains("not converged") && !notes[0].contains("after convergence"), "echo at 800 ms: \(notes[0])")
        let erle = try #require(notes[0].firstMatch(of: /ERLE (-?\d+(\.\d+)?) dB/).map { Double($0.1)! }, "\(notes[0])")
        #expect(erle < 10, "echo at 800 ms: \(notes[0])")
        let json = try #require(r.stderr.split(separator: "\n").first { $0.hasPrefix("{") })
        let figures = try Self.figures(String(json))
        #expect(figures["convergedAtSeconds"] is NSNull && figures["erleDB"] is Double, "\(figures)")
        #expect(notes[1].contains("after convergence at"), "echo at 100 ms: \(notes[1])")
    }

    /// A reference shorter than the stream: one warning on stderr without --stats, worded as
    /// the manual quotes it.
    @Test func aShortReferenceWarnsWithoutStatsAsTheManualSays() throws {
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=1 --out-format s16le:16000:1 -o short.wav && mv short.wav far.wav
            "$AUPIPE" -i mic0.wav aec ref=far.wav delay=0 -o /dev/null
            """)
        #expect(r.status == 0, "\(r.stderr)")
        let warning = "aupipe: aec: warning: the reference far.wav ended at 1.000 s, before the stream; silence from there on"
        #expect(r.stderr == warning + "\n", "\(r.stderr)")
        let units = try #require(try DocsAgreementTests.loadPage().section("UNITS"))
        let aec = try #require(ManPage.subsections(units).first { $0.name == "aec" }?.lines)
        let manual = ManPage.plainText(aec)
        #expect(manual.contains(warning), "the manual's aec section does not quote the warning as printed: \(warning)")
        #expect(!manual.contains("nothing is said without"), "the manual says the warning needs --stats")
    }

    /// The worst frame's processing time (thread CPU time) is in --stats, text and JSON, in ms
    /// and as a fraction of the frame's real time: present and positive (a measurement: no
    /// threshold).
    @Test func theWorstFrameIsInTheStats() throws {
        let r = try Self.run("""
            "$AUPIPE" -i mic0.wav mix input=far.wav,gain=-6,offset=100ms -o echo.wav
            "$AUPIPE" -i echo.wav --stats aec ref=far.wav -o /dev/null 2> text.txt
            "$AUPIPE" -i echo.wav --stats=json aec ref=far.wav -o /dev/null; cat text.txt >&2
            """)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let text = try #require(lines.first { $0.hasPrefix("aupipe: stats: 1 aec:") }, "\(r.stderr)")
        let ms = try #require(text.firstMatch(of: /worst frame (\d+\.\d+) ms of thread CPU time \((\d+\.\d)% of its 20 ms\)/), "\(text)")
        #expect(Double(ms.1)! > 0, "\(text)")
        let figures = try Self.figures(try #require(lines.first { $0.hasPrefix("{") }))
        let worst = try #require(figures["worstFrameMS"] as? Double, "\(figures)")
        let share = try #require(figures["worstFrameRealTimeFraction"] as? Double, "\(figures)")
        #expect(worst > 0 && share > 0, "\(figures)")
        #expect(abs(share - worst / 20) < 1e-9, "the fraction is the ms over the frame's 20 ms: \(figures)")
    }
}
