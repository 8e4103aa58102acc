import Foundation
import TestScratch
import Testing

/// The `ladspa` unit and `aupipe plugins` through the binary, against real plugins from Debian
/// (ladspa-sdk's amp_mono/amp_stereo, swh-plugins) and test plugins built from
/// `Support/ladspa_test_plugins.c` (a reported latency, a channel mismatch, an unsupported port,
/// sample-rate-relative, toggled and integer ports), each chosen by LADSPA_PATH.
@Suite struct LADSPATests {
    /// A directory holding only the test plugin library `aupipe_test.so`, or nil if it would not
    /// compile; with `announce`, a build that writes "aupipe_test loaded" on stderr when loaded.
    static func testPlugins(announce: Bool) -> String? {
        let dir = TestScratch.root.appendingPathComponent("aupipe-ladspa-\(getpid())-\(announce ? "loud" : "quiet")")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let source = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/ladspa_test_plugins.c").path
        let include = CLI.packageRoot.appendingPathComponent("Sources/CAUPipeSupport/include").path
        let r = try? CLI.shell("cc=$(command -v gcc || command -v clang || command -v cc) && \"$cc\" -O2 -shared -fPIC \(announce ? "-DANNOUNCE_LOAD" : "") -I '\(include)' -o '\(dir.path)/aupipe_test.so' '\(source)' -lm")
        return r?.status == 0 ? dir.path : nil
    }

    static let quiet = testPlugins(announce: false)
    static let loud = testPlugins(announce: true)

    /// Debian's LADSPA directory, where ladspa-sdk, swh-plugins and tap-plugins install.
    static let debian = "/usr/lib/ladspa"

    static func hasDebianPlugin(_ file: String) -> Bool {
        let found = FileManager.default.fileExists(atPath: "\(debian)/\(file)")
        if !found, ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(debian)/\(file) is missing, but CI must have it (scripts/install-deps test installs ladspa-sdk and swh-plugins)")
        }
        return found
    }

    static func s16(_ data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    static func bytes(_ samples: [Int16]) -> Data {
        var d = Data()
        for s in samples { d.append(UInt8(truncatingIfNeeded: UInt16(bitPattern: s))); d.append(UInt8(UInt16(bitPattern: s) >> 8)) }
        return d
    }

    /// One line on stderr, prefixed `aupipe:`.
    static func oneLine(_ r: CLI.Result) -> String {
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(r.stderr)")
        #expect(r.stderr.hasPrefix("aupipe: "))
        return r.stderr
    }

    @Test(.needsFile("\(LADSPATests.debian)/amp.so")) func ampMonoAtHalfEqualsGainWithinOneLSB() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen noise seed=3 level=-6 duration=1 -o in.wav
            LADSPA_PATH=\(Self.debian) "$AUPIPE" -i in.wav ladspa amp_mono gain=0.5 -o plugin.wav
            "$AUPIPE" -i in.wav gain -6.020599913279624 -o gain.wav
            "$AUPIPE" compare plugin.wav gain.wav --max-lsb 1
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
        let plugin = Self.s16(try Data(contentsOf: dir.appendingPathComponent("plugin.wav")))
        let input = Self.s16(try Data(contentsOf: dir.appendingPathComponent("in.wav")))
        #expect(plugin.count == input.count, "the length changed")
    }

    @Test(.needsFile("\(LADSPATests.debian)/amp.so")) func aMonoPluginOnStereoRunsPerChannelAndKeepsTheChannelsApart() throws {
        var samples = [Int16](repeating: 0, count: 2 * 1000)
        samples[2 * 300] = 10000          // left only, frame 300
        samples[2 * 700 + 1] = -8000      // right only, frame 700
        let r = try CLI.shell("LADSPA_PATH=\(Self.debian) \"$AUPIPE\" --in-format s16le:48000:2 -t raw --stats ladspa amp_mono gain=2", stdin: Self.bytes(samples))
        #expect(r.status == 0, "\(r.stderr)")
        let out = Self.s16(r.stdout)
        #expect(out.count == samples.count)
        var expected = [Int16](repeating: 0, count: 2 * 1000)
        expected[2 * 300] = 20000
        expected[2 * 700 + 1] = -16000
        #expect(out == expected, "left-only and right-only impulses did not stay on their channels, doubled")
        #expect(r.stderr.contains("2 instances, one per channel"), "\(r.stderr)")
    }

    @Test(.needsFile("\(LADSPATests.debian)/amp.so")) func aStereoPluginRunsAsOneInstance() throws {
        var samples = [Int16](repeating: 0, count: 2 * 500)
        samples[2 * 10] = 1000
        samples[2 * 20 + 1] = 3000
        let r = try CLI.shell("LADSPA_PATH=\(Self.debian) \"$AUPIPE\" --in-format s16le:48000:2 -t raw --stats ladspa amp:amp_stereo gain=0.5", stdin: Self.bytes(samples))
        #expect(r.status == 0, "\(r.stderr)")
        let out = Self.s16(r.stdout)
        #expect(out.count == samples.count)
        #expect(out[2 * 10] == 500 && out[2 * 20 + 1] == 1500 && out.filter { $0 != 0 }.count == 2)
        #expect(!r.stderr.contains("instances"), "a stereo plugin on a stereo stream must run once: \(r.stderr)")
    }

    /// The test plugin delays by 37 frames and says so on its latency port: compensated, an
    /// impulse stays on its frame and the length is exact, whatever the block.
    @Test(arguments: ["7f", "10ms", "4096f"])
    func aReportedLatencyIsCompensated(block: String) throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen impulse at=1000f level=-6 duration=2345f -o in.wav
            LADSPA_PATH=\(plugins) "$AUPIPE" -i in.wav --block \(block) --stats ladspa latency_delay -o out.wav
            "$AUPIPE" compare out.wav in.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
        #expect(r.stderr.contains("latency 37 frames compensated"), "\(r.stderr)")
    }

    /// A plugin that outputs NaN (stream samples 4800-4809) and infinity (sample 9600): each is
    /// replaced by 0 on its way out, in a float output too, every other sample passes as it came
    /// (the test plugin copies its input), the length is exact, one warning line names the
    /// plugin and the time of the first (0.100 s at 48 kHz), and `--stats=json` counts 11.
    @Test(arguments: ["7f", "4096f"])
    func nonFiniteSamplesFromAPluginBecomeZeros(block: String) throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        let frames = 12000
        let input = (0..<frames).map { Float(0.25 * sin(Double($0) * 0.05)) }
        var raw = Data()
        for x in input { withUnsafeBytes(of: x.bitPattern.littleEndian) { raw.append(contentsOf: $0) } }
        let r = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" --in-format f32le:48000:1 -t raw --block \(block) --stats=json ladspa nan_burst", stdin: raw)
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = [UInt8](r.stdout)
        var out: [Float] = []
        for i in stride(from: 0, to: bytes.count - 3, by: 4) {
            let b0 = UInt32(bytes[i]), b1 = UInt32(bytes[i + 1]) << 8, b2 = UInt32(bytes[i + 2]) << 16, b3 = UInt32(bytes[i + 3]) << 24
            out.append(Float(bitPattern: b0 | b1 | b2 | b3))
        }
        #expect(out.count == frames)
        let poisoned = Set(4800..<4810).union([9600])
        for i in 0..<min(out.count, frames) {
            if poisoned.contains(i) { #expect(out[i] == 0, "sample \(i): \(out[i])") } else if out[i] != input[i] { Issue.record("sample \(i) changed: \(out[i]) for \(input[i])"); break }
        }
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings == ["aupipe: ladspa: warning: aupipe_test:nan_burst output NaN or infinite samples from 0.100 s; they are replaced by 0 (--stats counts them)"], "\(r.stderr)")
        #expect(r.stderr.contains("\"nonFiniteReplaced\":11"), "\(r.stderr)")
    }

    /// Real look-ahead limiters report their latency: swh's fastLookaheadLimiter (stereo, one
    /// instance) and TAP's limiter (mono, one instance per channel) leave an impulse below their
    /// limit on its frame, with the exact length (rounded plainly, `--dither=off`: a plugin's
    /// output is taken to be float, and dither would add noise around the impulse).
    @Test(.needsFile("\(LADSPATests.debian)/fast_lookahead_limiter_1913.so", "\(LADSPATests.debian)/tap_limiter.so"),
          arguments: [("fast_lookahead_limiter_1913.so", "fastLookaheadLimiter", 240), ("tap_limiter.so", "tap_limiter", 600)])
    func aRealPluginsLatencyIsCompensated(library: String, plugin: String, latency: Int) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen impulse at=12345f level=-6 duration=1 --out-format s16le:48000:2 -o in.wav
            LADSPA_PATH=\(Self.debian) "$AUPIPE" -i in.wav --stats --dither=off ladspa \(plugin) -o out.wav
            "$AUPIPE" compare out.wav in.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
        #expect(r.stderr.contains("latency \(latency) frames compensated"), "\(r.stderr)")
    }

    @Test(.needsFile("\(LADSPATests.debian)/fast_lookahead_limiter_1913.so")) func deterministicPluginsGiveTheSameBytesEveryRun() throws {
        let dir = try CLI.temporaryDirectory()
        let chain = "ladspa fastLookaheadLimiter input_gain_db=12 limit_db=-3 : ladspa amp_mono gain=0.7"
        let r = try CLI.shell("""
            "$AUPIPE" gen noise seed=9 duration=1 --out-format s16le:44100:2 -o in.wav
            LADSPA_PATH=\(Self.debian) "$AUPIPE" -i in.wav \(chain) -o a.wav
            LADSPA_PATH=\(Self.debian) "$AUPIPE" -i in.wav --block 3f \(chain) -o b.wav
            LADSPA_PATH=\(Self.debian) "$AUPIPE" -i in.wav \(chain) -o c.wav
            cmp a.wav c.wav && echo same-bytes
            "$AUPIPE" compare a.wav in.wav --allow-length --ignore-format >/dev/null; echo compared=$?
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("same-bytes"), "\(text) \(r.stderr)")
        #expect(text.contains("compared=1"), "the limiter changed nothing: \(text)")
        let a = try Data(contentsOf: dir.appendingPathComponent("a.wav")), input = try Data(contentsOf: dir.appendingPathComponent("in.wav"))
        #expect(a.count == input.count, "the length changed")
    }

    @Test func listingAndHelpShowPluginsAndPorts() throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        // No LV2 plugins: an empty LV2_PATH.
        let noLV2 = try CLI.temporaryDirectory().path
        let list = try CLI.shell("LADSPA_PATH=\(plugins) LV2_PATH=\(noLV2) \"$AUPIPE\" plugins")
        let rows = String(decoding: list.stdout, as: UTF8.self).split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows == ["ladspa aupipe_test:hinted Hinted Ports (test) 1 in 1 out",
                         "ladspa aupipe_test:latency_delay Latency Delay (test) 1 in 1 out reports latency",
                         "ladspa aupipe_test:nan_burst NaN Burst (test) 1 in 1 out",
                         "ladspa aupipe_test:odd_port Odd Port (test) 1 in 1 out unsupported ports mystery",
                         "ladspa aupipe_test:one_to_two One To Two (test) 1 in 2 out"], "\(rows) \(list.stderr)")
        let filtered = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" plugins ladspa DELAY")
        #expect(String(decoding: filtered.stdout, as: UTF8.self).split(separator: "\n").count == 1)
        let help = String(decoding: try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" help ladspa hinted").stdout, as: UTF8.self)
        for part in ["ladspa — Hinted Ports (test)", "Label: hinted, unique ID 4104", "cutoff_hz (live", "0...0.5 × the sample rate",
                     "default 0.25 × the sample rate", "invert (live", "toggle, 0/1 (on/off); default 0", "steps (live", "integer, 0...3; default 1"] {
            #expect(help.contains(part), "help lacks '\(part)': \(help)")
        }
        let delay = String(decoding: try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" help ladspa 4101").stdout, as: UTF8.self)
        #expect(delay.contains("Latency: reports latency") && delay.contains("Outputs (--control get ladspa.SYMBOL; --stats prints them): peak (Peak)"), "\(delay)")
        if Self.hasDebianPlugin("amp.so") {
            let amp = String(decoding: try CLI.shell("LADSPA_PATH=\(Self.debian) \"$AUPIPE\" help ladspa amp:amp_mono").stdout, as: UTF8.self)
            #expect(amp.contains("gain (live: --control can change it while running): Gain (logarithmic)") && amp.contains("0 or more; default 1"), "\(amp)")
        }
    }

    @Test func portValuesAreParsedAndRangeChecked() throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        let input = Self.bytes([1000, -2000, 3000])
        let r = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" --in-format s16le:48000:1 -t raw ladspa hinted invert=on steps=3 cutoff_hz=1000", stdin: input)
        #expect(Self.s16(r.stdout) == [-3000, 6000, -9000], "\(r.stderr)")
        // Cutoff's range is 0...0.5 × the rate: 30000 Hz is refused at 48 kHz, before audio.
        let high = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" --in-format s16le:48000:1 -t raw ladspa hinted cutoff_hz=30000", stdin: input)
        #expect(high.status == 64 && high.stdout.isEmpty)
        #expect(Self.oneLine(high) == "aupipe: ladspa: cutoff_hz=30000 is out of range 0...24000 at 48000 Hz\n")
        let steps = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" --check ladspa hinted steps=4 < /dev/null")
        #expect(steps.status == 64)
        #expect(Self.oneLine(steps) == "aupipe: ladspa: steps=4 is out of range 0...3\n")
    }

    @Test func badPluginNamesAndMismatchesAreOneLine() throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        func run(_ chain: String, stdin: Data = Self.bytes([0, 0])) throws -> CLI.Result {
            try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" --in-format s16le:48000:1 -t raw \(chain)", stdin: stdin)
        }
        let unknown = try run("ladspa latency_dela_x")
        #expect(unknown.status == 64)
        #expect(Self.oneLine(unknown).contains("ladspa: no plugin 'latency_dela_x'; did you mean 'latency_delay'?"), "\(unknown.stderr)")
        let ambiguous = try run("ladspa test")
        #expect(ambiguous.status == 64)
        #expect(Self.oneLine(ambiguous).contains("'test' matches 5 plugins: aupipe_test:hinted (Hinted Ports (test)), aupipe_test:latency_delay"), "\(ambiguous.stderr)")
        let unique = try run("ladspa TWO")  // a unique part of a name
        #expect(unique.status == 64 && Self.oneLine(unique).contains("one_to_two has 1 audio input and 2 audio outputs, the stream 1 channel: expected 1 in and 1 out, found 1 in and 2 out"), "\(unique.stderr)")
        let odd = try run("ladspa odd_port")
        #expect(odd.status == 69 && Self.oneLine(odd).contains("port mystery is a port that is not exactly one of input/output and audio/control"), "\(odd.stderr)")
        let missing = try run("ladspa")
        #expect(missing.status == 64 && Self.oneLine(missing).contains("ladspa needs the plugin first"), "\(missing.stderr)")
        let key = try run("ladspa hinted stepz=1")
        #expect(key.status == 64 && Self.oneLine(key).contains("unknown parameter 'stepz'; did you mean 'steps'?"), "\(key.stderr)")
        if Self.hasDebianPlugin("amp.so") {
            let stereo = try CLI.shell("LADSPA_PATH=\(Self.debian) \"$AUPIPE\" --in-format s16le:48000:1 -t raw ladspa amp_stereo", stdin: Self.bytes([0]))
            #expect(stereo.status == 64)
            #expect(Self.oneLine(stereo).contains("expected 1 in and 1 out, found 2 in and 2 out; put convert channels=2 before it"), "\(stereo.stderr)")
            let range = try CLI.shell("LADSPA_PATH=\(Self.debian) \"$AUPIPE\" --check ladspa amp_mono gain=-1 < /dev/null")
            #expect(range.status == 64 && Self.oneLine(range) == "aupipe: ladspa: gain=-1 is out of range: at least 0\n")
        }
    }

    /// Discovery is lazy: listing units, reading help and running a chain without a plugin load
    /// no plugin library; a chain with one does.
    @Test func nothingIsScannedWithoutAPlugin() throws {
        let plugins = try #require(Self.loud, "could not compile Support/ladspa_test_plugins.c")
        let quiet = try CLI.shell("""
            export LADSPA_PATH=\(plugins)
            "$AUPIPE" units >/dev/null; "$AUPIPE" help ladspa >/dev/null; "$AUPIPE" --help >/dev/null
            "$AUPIPE" gen sine duration=0.01 | "$AUPIPE" gain -3 >/dev/null
            """)
        #expect(quiet.status == 0 && !quiet.stderr.contains("aupipe_test loaded"), "\(quiet.stderr)")
        let loaded = try CLI.shell("LADSPA_PATH=\(plugins) \"$AUPIPE\" gen sine duration=0.01 | LADSPA_PATH=\(plugins) \"$AUPIPE\" ladspa hinted >/dev/null")
        #expect(loaded.stderr.contains("aupipe_test loaded"), "\(loaded.stderr)")
    }

    /// LIBRARY:LABEL opens that library only; a label alone makes every library be scanned.
    @Test(.needsFile("\(LADSPATests.debian)/amp.so")) func aLibraryAndLabelOpenThatLibraryOnly() throws {
        let plugins = try #require(Self.loud, "could not compile Support/ladspa_test_plugins.c")
        let path = "\(Self.debian):\(plugins)"
        let one = try CLI.shell("\"$AUPIPE\" gen sine duration=0.01 | LADSPA_PATH=\(path) \"$AUPIPE\" ladspa amp:amp_mono >/dev/null")
        #expect(one.status == 0 && !one.stderr.contains("aupipe_test loaded"), "\(one.stderr)")
        let all = try CLI.shell("\"$AUPIPE\" gen sine duration=0.01 | LADSPA_PATH=\(path) \"$AUPIPE\" ladspa amp_mono >/dev/null")
        #expect(all.status == 0 && all.stderr.contains("aupipe_test loaded"), "\(all.stderr)")
    }

    /// `aupipe completions` offers the installed plugins after `ladspa`, and the plugin units
    /// after `plugins`.
    @Test func completionsOfferTheInstalledPlugins() throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            source <("$AUPIPE" completions bash) || exit 1
            export LADSPA_PATH=\(plugins) PATH="$(dirname "$AUPIPE"):$PATH"
            unset COMP_LINE
            COMP_WORDS=(aupipe ladspa la); COMP_CWORD=2; _aupipe; printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(aupipe gain -3 : ladspa hinted st); COMP_CWORD=6; _aupipe; printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(aupipe plugins l); COMP_CWORD=2; _aupipe; printf '%s\\n' "${COMPREPLY[@]}"
            """, cwd: dir)
        // The plugins and the ports of the plugin typed come from aupipe while completing.
        #expect(String(decoding: r.stdout, as: UTF8.self) == "latency_delay\nsteps=\nladspa\nlv2\n", "\(r.stderr)")
    }

    /// fish's completions offer the installed plugins after `ladspa` too.
    @Test(.needs("fish")) func fishCompletionsOfferTheInstalledPlugins() throws {
        let plugins = try #require(Self.quiet, "could not compile Support/ladspa_test_plugins.c")
        let dir = try CLI.temporaryDirectory()
        let script = dir.appendingPathComponent("aupipe.fish").path
        _ = try CLI.shell("\"$AUPIPE\" completions fish > \(CLI.quote(script))")
        let f = try CLI.shell("PATH=\"$(dirname \"$AUPIPE\"):$PATH\" LADSPA_PATH=\(plugins) fish -c \(CLI.quote("source \(CLI.quote(script)); complete -C 'aupipe ladspa on'"))")
        #expect(String(decoding: f.stdout, as: UTF8.self).hasPrefix("one_to_two"), "\(f.stderr)")
    }
}
