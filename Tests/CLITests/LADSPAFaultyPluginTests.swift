import Foundation
import TestScratch
import Testing

/// LADSPA libraries that misbehave the ways real ones do (`Support/ladspa_broken_plugins.c`):
/// a descriptor without a label, ports without names or hints, bounds given the wrong way round,
/// a latency port reporting what no host can compensate; next to a file that is not a library
/// and a library with an unresolved symbol in the same directory.
@Suite struct LADSPAFaultyPluginTests {
    /// A directory with `aupipe_broken.so`, `garbage.so` (not an ELF file) and `undefined.so`
    /// (needs a symbol nothing provides), or nil if the compiler is missing.
    static let directory: String? = {
        let dir = TestScratch.root.appendingPathComponent("aupipe-ladspa-broken-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let source = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/ladspa_broken_plugins.c").path
        let include = CLI.packageRoot.appendingPathComponent("Sources/CAUPipeSupport/include").path
        let r = try? CLI.shell("""
            cc=$(command -v gcc || command -v clang || command -v cc) || exit 1
            "$cc" -O2 -shared -fPIC -I '\(include)' -o aupipe_broken.so '\(source)' -lm || exit 1
            printf 'not a library' > garbage.so
            printf 'void aupipe_nowhere(void); void f(void) { aupipe_nowhere(); }\\n' > undefined.c
            "$cc" -shared -fPIC -Wl,-z,now -o undefined.so undefined.c || exit 1
            """, cwd: dir)
        return r?.status == 0 ? dir.path : nil
    }()

    static func run(_ command: String) throws -> CLI.Result {
        let plugins = try #require(directory, "could not compile Support/ladspa_broken_plugins.c")
        let dir = try CLI.temporaryDirectory()
        return try CLI.shell("""
            "$AUPIPE" gen impulse at=100f level=-6 duration=1000f -o in.wav || exit 9
            export LADSPA_PATH=\(plugins)
            \(command)
            """, cwd: dir)
    }

    /// Listing skips the file that is not a library, the one that does not link and the
    /// label-less descriptor; using a plugin of that library after the label-less descriptor
    /// does not read its NULL label (it crashed: status 132).
    @Test func brokenLibrariesAndALabellessDescriptorAreSkipped() throws {
        let noLV2 = try CLI.temporaryDirectory().path
        let r = try Self.run("""
            LV2_PATH=\(noLV2) "$AUPIPE" plugins ladspa | awk '{print $2}'; echo "listed=${PIPESTATUS[0]}"
            "$AUPIPE" -i in.wav ladspa no_names -o out.wav; echo "ran=$?"
            "$AUPIPE" compare out.wav in.wav >/dev/null; echo "compared=$?"
            """)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text == """
            aupipe_broken:named
            aupipe_broken:nan_out
            aupipe_broken:no_names
            aupipe_broken:swapped
            aupipe_broken:told_latency
            listed=0
            ran=0
            compared=0

            """, "\(text) \(r.stderr)")
    }

    /// A first latency that is not a number of frames to wait for (NaN, infinite, negative, more
    /// than 10 s) ends the run with one line and 70, instead of being taken as 0 or as hours of
    /// silence; a fraction is rounded, and a latency longer than the stream is still compensated
    /// with the exact length.
    @Test(arguments: [("-1", "nan"), ("-2", "inf"), ("-5", "-5"), ("100000000", "100000000")])
    func aLatencyThatCannotBeCompensatedIsRefused(report: String, shown: String) throws {
        let r = try Self.run("\"$AUPIPE\" -i in.wav ladspa told_latency report=\(report) -o out.wav")
        #expect(r.status == 70, "\(r.stderr)")
        // The one line of the error, then the line naming what was written (item 26 of issue 24).
        #expect(r.stderr == "aupipe: ladspa: aupipe_broken:told_latency reported a latency of \(shown) frames, which cannot be compensated "
                + "(0 to 480000 frames, 10 s, expected); the plugin is faulty: use another\n"
                + "aupipe: output kept as out.wav.partial; out.wav was left as it was (the run failed)\n")
    }

    @Test func aFractionalOrLongerThanTheStreamLatencyIsCompensated() throws {
        let r = try Self.run("""
            "$AUPIPE" -i in.wav --stats ladspa told_latency report=5.4 -o a.wav 2>a.txt; echo "a=$?"
            "$AUPIPE" -i in.wav --stats ladspa told_latency report=2000 -o b.wav 2>b.txt; echo "b=$?"
            grep -o 'latency [0-9]* frames compensated' a.txt b.txt
            "$AUPIPE" info b.wav | grep -o 'frames: 1000'
            """)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("a=0\nb=0\n"), "\(text) \(r.stderr)")
        #expect(text.contains("a.txt:latency 5 frames compensated") && text.contains("b.txt:latency 2000 frames compensated"), "\(text)")
        #expect(text.hasSuffix("frames: 1000\n"), "the output of a plugin whose latency outlasts the stream must keep the length: \(text)")
    }

    /// A hint whose lower bound (2) is above its upper (0.5) made every value out of range, the
    /// port's own default included: the bounds are taken the right way round.
    @Test func boundsGivenTheWrongWayRoundAreSwapped() throws {
        let r = try Self.run("""
            "$AUPIPE" -i in.wav ladspa swapped -o a.wav; echo "default=$?"
            "$AUPIPE" -i in.wav ladspa swapped level=1 -o b.wav; echo "one=$?"
            "$AUPIPE" compare b.wav in.wav >/dev/null; echo "compared=$?"
            "$AUPIPE" -i in.wav ladspa swapped level=3 -o c.wav 2>err.txt; echo "three=$?"; cat err.txt
            """)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text == "default=0\none=0\ncompared=0\nthree=64\naupipe: ladspa: level=3 is out of range 0.5...2\n", "\(text) \(r.stderr)")
    }

    /// A port named "Name" would have the symbol `name`, which every unit takes as its label for
    /// `--control`: it could not be set (`name=0.5` was refused as a label) and the help's own
    /// example failed. Its symbol is `name_port`.
    @Test func aPortNamedNameDoesNotTakeTheLabelsKey() throws {
        let r = try Self.run("""
            "$AUPIPE" -i in.wav ladspa named name_port=0.5 name=half -o a.wav; echo "set=$?"
            "$AUPIPE" -i in.wav gain -6.020599913279624 -o b.wav
            "$AUPIPE" compare a.wav b.wav --max-lsb 1 >/dev/null; echo "compared=$?"
            "$AUPIPE" help ladspa named | grep -c 'name_port (live'
            """)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text == "set=0\ncompared=0\n1\n", "\(text) \(r.stderr)")
    }
}
