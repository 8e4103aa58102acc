import Foundation
import TestScratch
import Testing

/// Plugins run on runs of one length for the whole stream, chosen from the rate and the
/// plugin's own limits (`PluginRunLength`), never from `--block` or how a pipe's writes fall:
/// so the block size never changes the bytes, plugins included; a plugin's stated
/// `bufsz:minBlockLength`/`maxBlockLength` are honoured, and limits no length meets, or a
/// plugin that refuses the length, are one line with status 69.
@Suite struct PluginBlockTests {
    /// Runs `chain` on in.wav (made by `gen`) through `--block` 1f, 7f, the default and 4096f,
    /// and once from a pipe written 7 bytes at a time; the script fails unless every output has
    /// the same bytes.
    static func sameBytesScript(_ chain: String, rate: Int = 48000) -> String {
        """
        set -e
        "$AUPIPE" gen sweep level=-1 duration=1 --out-format f32le:\(rate):1 -o in.wav
        for b in 1f 7f 10ms 4096f; do "$AUPIPE" -i in.wav --block $b \(chain) -o out-$b.wav; done
        dd if=in.wav ibs=7 obs=7 2>/dev/null | "$AUPIPE" \(chain) -o out-pipe.wav
        for f in out-7f.wav out-10ms.wav out-4096f.wav out-pipe.wav; do cmp out-1f.wav $f; done
        "$AUPIPE" info out-1f.wav | grep -q '^frames: \(rate)$'
        """
    }

    /// x42's digital peak limiter, driven 12 dB into its threshold: its gain envelope follows
    /// where its runs begin.
    @Test func x42LimiterGivesTheSameBytesAtAnyBlockAndChunking() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run(Self.sameBytesScript("lv2 'http://gareus.org/oss/lv2/dpl#mono' gain=12"), in: dir)
        #expect(r.status == 0, "dpl's output changed with the block or the chunking: \(r.stderr)")
    }

    /// A directory holding only `Support/ladspa_run_marker.c` built, or nil if it would not compile.
    static let runMarker: String? = {
        let dir = TestScratch.root.appendingPathComponent("aupipe-run-marker-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let source = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/ladspa_run_marker.c").path
        let include = CLI.packageRoot.appendingPathComponent("Sources/CAUPipeSupport/include").path
        let r = try? CLI.shell("cc=$(command -v gcc || command -v clang || command -v cc) && \"$cc\" -O2 -shared -fPIC -I '\(include)' -o '\(dir.path)/run_marker.so' '\(source)'")
        return r?.status == 0 ? dir.path : nil
    }()

    /// The test plugin adds 0.25 to the first sample of every run.
    @Test func aLADSPAPluginGivesTheSameBytesAtAnyBlockAndChunking() throws {
        let plugins = try #require(Self.runMarker, "could not compile Support/ladspa_run_marker.c")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("export LADSPA_PATH=\(plugins)\n" + Self.sameBytesScript("ladspa run_marker"), cwd: dir)
        #expect(r.status == 0, "run_marker's output changed with the block or the chunking: \(r.stderr)")
    }

    /// An impulse through x42's limiter (which reports latency) at 1f and 4096f: on its sample,
    /// the length exact.
    @Test(arguments: ["1f", "4096f"])
    func latencyStaysExactOnFixedRuns(block: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen impulse at=1000f level=-6 duration=3001f -o in.wav \
              && "$AUPIPE" -i in.wav --block \(block) lv2 'http://gareus.org/oss/lv2/dpl#mono' -o out.wav \
              && "$AUPIPE" compare out.wav in.wav --max-lsb 1
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
    }

    /// convoLV2 states runs of 64 to 8192 frames and refuses any length that is not a power of
    /// two: at the default block (480 frames) it runs, with the exact length.
    @Test func convoLV2RunsAtTheDefaultBlock() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen sine 440 duration=1 -o in.wav \
              && "$AUPIPE" -i in.wav --stats lv2 'http://gareus.org/oss/lv2/convoLV2#Mono' -o out.wav \
              && "$AUPIPE" info out.wav | grep -q '^frames: 48000$'
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("runs of 512 frames"), "\(r.stderr)")
    }

    /// The test plugin states bufsz:minBlockLength and maxBlockLength 1000 and aborts unless its
    /// options and every run say 1000.
    @Test(arguments: ["7f", "10ms", "1s"])
    func statedBlockLimitsAreHonoured(block: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen noise duration=10007f --out-format f32le:48000:1 -t raw > in.raw \
              && "$AUPIPE" --in-format f32le:48000:1 --block \(block) lv2 plugins/limits -t raw < in.raw > out.raw && cmp in.raw out.raw
            """, in: dir)
        #expect(r.status == 0, "--block \(block): \(r.stderr)")
    }

    @Test func limitsNoLengthMeetsAreOneLineWith69() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 plugins/nopow2 -o /dev/null", in: dir)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr == "aupipe: lv2: http://aupipe.test/plugins/nopow2 needs power-of-two runs of 600 to 1000 frames, and no power of two lies there "
                + "(bufsz:minBlockLength 600, bufsz:maxBlockLength 1000); use another plugin\n", "\(r.stderr)")
    }

    /// A plugin that logs why it refuses to instantiate: its reason in the one line, status 69.
    @Test func aPluginThatRefusesIsOneLineWithItsReason() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 plugins/refuser -o /dev/null", in: dir)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("refused to instantiate at 48000 Hz with runs of 512 frames: needs a sound card"), "\(r.stderr)")
    }
}
