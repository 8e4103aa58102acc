import Foundation
import Testing

/// The filter units' frequency responses, measured from the binary's output (an impulse,
/// DTFT'd in numpy) against outside references: scipy.signal's butter/sosfreqz, the RBJ
/// cookbook written out in Python, ffmpeg's biquads (and sox's bass and treble) in double
/// precision, and analytic points. 8, 44.1, 48 and 192 kHz; 10 Hz to 0.45 × rate wherever the
/// reference is above −80 dB: within 0.01 dB and 0.1°. See Support/filter_response.py.
@Suite struct FilterResponseTests {
    static let script = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/filter_response.py").path

    @Test(.needs("python3", "ffmpeg", "sox")) func everyKindMatchesScipyTheCookbookAndThePeers() throws {
        let r = try CLI.shell("python3 \(CLI.quote(Self.script)) \"$AUPIPE\" --peers")
        let out = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 0 && out.contains(" 0 failures"), "\(out)\(r.stderr)")
        // Guard against a script that checks nothing: thousands of points were compared.
        let checked = out.split(separator: " ").drop { $0 != "checked" }.dropFirst().first.flatMap { Int($0) } ?? 0
        #expect(checked > 10_000, "only \(checked) points checked: \(out)")
    }
}

/// `eq` with an Equalizer APO file and its messages, through the binary.
@Suite struct EqFileTests {
    static let autoEQ = """
        Preamp: -6.2 dB
        Filter 1: ON PK Fc 105 Hz Gain -3.1 dB Q 0.70
        Filter 2: ON LSC Fc 105 Hz Gain 5.5 dB Q 0.70
        Filter 3: OFF PK Fc 2000 Hz Gain 9 dB Q 1
        Filter 4: ON HSC Fc 10000 Hz Gain -2.0 dB Q 0.70
        # a comment
        Filter 5: ON PK Fc 19000 Hz Gain 1.5 dB Q 2.00

        """

    @Test func aFileAppliesLikeTheSameBandsOnTheCommandLine() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.autoEQ.write(to: dir.appendingPathComponent("eq.txt"), atomically: true, encoding: .utf8)
        let gen = "\"$AUPIPE\" gen noise duration=0.5 -t raw --out-format f32le:48000:2"
        let file = try CLI.shell("\(gen) | \"$AUPIPE\" --in-format f32le:48000:2 -t raw eq file=eq.txt", cwd: dir)
        let bands = try CLI.shell("\(gen) | \"$AUPIPE\" --in-format f32le:48000:2 -t raw eq pk,105,gain=-3.1,q=0.7 ls,105,gain=5.5,q=0.7 hs,10k,gain=-2,q=0.7 pk,19k,gain=1.5,q=2 preamp=-6.2", cwd: dir)
        #expect(file.status == 0 && file.stderr.isEmpty, "\(file.stderr)")
        #expect(file.stdout.count == 24000 * 8 && file.stdout == bands.stdout, "the file's bands differ from the same bands given as arguments")
    }

    /// A file saved on Windows (CRLF line ends, a UTF-8 byte-order mark) reads as the same bands.
    @Test func windowsLineEndsAndAByteOrderMarkReadTheSame() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.autoEQ.write(to: dir.appendingPathComponent("eq.txt"), atomically: true, encoding: .utf8)
        try ("\u{FEFF}" + Self.autoEQ.replacingOccurrences(of: "\n", with: "\r\n")).write(to: dir.appendingPathComponent("win.txt"), atomically: true, encoding: .utf8)
        let gen = "\"$AUPIPE\" gen noise duration=0.2 -t raw --out-format f32le:48000:2"
        let unix = try CLI.shell("\(gen) | \"$AUPIPE\" --in-format f32le:48000:2 -t raw eq file=eq.txt", cwd: dir)
        let windows = try CLI.shell("\(gen) | \"$AUPIPE\" --in-format f32le:48000:2 -t raw eq file=win.txt", cwd: dir)
        #expect(windows.status == 0 && windows.stderr.isEmpty, "\(windows.stderr)")
        #expect(!unix.stdout.isEmpty && windows.stdout == unix.stdout)
    }

    @Test func bandsTooHighForTheRateAreDroppedWithOneWarning() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.autoEQ.write(to: dir.appendingPathComponent("eq.txt"), atomically: true, encoding: .utf8)
        let r = try CLI.shell("\"$AUPIPE\" gen noise duration=0.1 -t raw --out-format s16le:16000:1 | \"$AUPIPE\" --in-format s16le:16000:1 -t raw eq file=eq.txt pk,7.5k,gain=3", cwd: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "aupipe: eq: warning: dropped band3 (10000 Hz), band4 (19000 Hz), band5 (7500 Hz): at or above 0.45 × the rate of 16000 Hz\n", "\(r.stderr)")
    }

    @Test(arguments: [
        ("Channel: L\n", "eq.txt:1: 'channel' is not supported"),
        ("Preamp: -3 dB\nFilter 1: ON XYZ Fc 100 Hz\n", "eq.txt:2: filter type XYZ is not supported"),
        ("Filter: ON PK Fc 100 Hz Q 1\n", "eq.txt:1: a PK filter needs 'Gain G dB'"),
        ("Filter: ON PK Gain 3 dB\n", "eq.txt:1: a PK filter needs 'Fc F Hz'"),
        ("Filter 2: MAYBE PK Fc 100 Hz\n", "eq.txt:1: expected ON or OFF"),
    ])
    func anUnsupportedLineStopsTheRunNamingFileAndLine(text: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        try text.write(to: dir.appendingPathComponent("eq.txt"), atomically: true, encoding: .utf8)
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -t wav | \"$AUPIPE\" -t raw eq file=eq.txt", cwd: dir)
        #expect(r.status == 65 && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(r.status) \(r.stderr)")
    }

    @Test func aMissingFileIsStatus66() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -t wav | \"$AUPIPE\" -t raw eq file=/nonexistent/eq.txt")
        #expect(r.status == 66 && r.stderr.hasPrefix("aupipe: eq: cannot read file=/nonexistent/eq.txt"), "\(r.stderr)")
    }
}
