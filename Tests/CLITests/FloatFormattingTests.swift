import Foundation
import Testing

/// Numbers in help and messages are the shortest text that reads back as the value (issue 24,
/// item 12): a plugin port's float is printed as a float, never widened to a double first
/// (`fast (0.02)`, not `fast (0.019999999552965164)`); bounds that are fractions of the sample
/// rate read `4.8...23520 at 48000 Hz`; a port whose default is a fraction of the rate says so
/// once, not next to "no default".
@Suite struct FloatFormattingTests {

    /// A run of 6 or more 9s or 0s after a point: a float widened to a double, or float rounding.
    static func noise(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.range(of: #"\.[0-9]*(999999|000000)[0-9]"#, options: .regularExpression) != nil }
    }

    @Test(.needsFile("/usr/lib/lv2/fat1.lv2"))
    func scalePointsPrintAsTheirFloats() throws {
        let r = try CLI.aupipe(["help", "lv2", "http://gareus.org/oss/lv2/fat1"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("fast (0.02), med (0.1), slow (0.5)"), "\(text)")
        #expect(Self.noise(text).isEmpty, "\(Self.noise(text))")
    }

    @Test(.needsFile("/usr/lib/ladspa/triple_para_1204.so"))
    func sampleRateRelativePortsReadCleanly() throws {
        let help = try CLI.aupipe(["help", "ladspa", "triplePara"])
        let text = String(decoding: help.stdout, as: UTF8.self)
        #expect(text.contains("0.0001...0.49 × the sample rate; default 0.007 × the sample rate"), "\(text)")
        #expect(!text.contains("× the sample rate; no default"), "\(text)")
        #expect(Self.noise(text).isEmpty, "\(Self.noise(text))")
        let r = try CLI.aupipe(["ladspa", "triplePara", "band_2_frequency_hz=1"], stdin: CLIBehaviourTests.clip)
        CLIBehaviourTests.expectError(r, status: 64, "band_2_frequency_hz=1 is out of range 4.8...23520 at 48000 Hz")
    }

    /// Every installed plugin's help: no widened floats, and no port with a default and "no default".
    @Test(.needsFile("/usr/lib/ladspa/amp.so"))
    func noPluginHelpHasFloatNoise() throws {
        let r = try CLI.shell("\"$AUPIPE\" plugins | awk '{print $1, $2}' | while read s n; do \"$AUPIPE\" help \"$s\" \"$n\"; done")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("Parameters:"), "no plugin help: \(r.stderr)")
        #expect(Self.noise(text).isEmpty, "\(Self.noise(text).prefix(10))")
        // A parameter is two lines: its name and help, then its type and default.
        let lines = text.split(separator: "\n").map(String.init)
        let both = zip(lines, lines.dropFirst()).filter { ($0.0 + $0.1).contains("; default ") && $0.1.contains("no default") }
        #expect(both.isEmpty, "\(both.prefix(5))")
    }

    /// An output port's figure in --stats=json is its float's shortest text (an array over the
    /// instances, one on mono).
    @Test(.needsFile("/usr/lib/ladspa/sc4m_1916.so"))
    func pluginFiguresAreTheirFloats() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.5 | \"$AUPIPE\" --stats=json ladspa sc4m -o /dev/null")
        #expect(r.status == 0, "\(r.stderr)")
        let figure = try #require(r.stderr.range(of: #""amplitude_db":\[[^,}\]]*"#, options: .regularExpression).map { String(r.stderr[$0].dropFirst(16)) })
        let value = try #require(Float(figure), "\(figure)")
        #expect(figure == "\(value)", "amplitude_db is written \(figure), the float is \(value)")
    }
}
