import Foundation
import Testing

/// The `lv2` unit through the binary, against real plugins the test command installs
/// (lv2-examples' eg-amp, x42's digital peak limiter, swh-lv2's Butterworth high-pass, run by lilv's
/// own `lv2apply` too) and four tiny test plugins built here (`Support/lv2_test_plugins.c`): a
/// required feature no host has, fixed power-of-two blocks, a reported latency, a CV port.
@Suite struct LV2HostTests {
    /// The directory holding the test bundle `aupipe-test.lv2`, built once per run.
    static let testBundles: String? = {
        guard let lib = CLI.sharedLibrary("lv2_test_plugins.c", named: "lv2_test_plugins.so", flags: "-O2", libraries: "") else { return nil }
        let root = URL(fileURLWithPath: lib).deletingLastPathComponent().appendingPathComponent("lv2")
        let bundle = root.appendingPathComponent("aupipe-test.lv2")
        try? FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let ttl = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/lv2_test_plugins.ttl")
        try? FileManager.default.removeItem(at: bundle.appendingPathComponent("manifest.ttl"))
        try? FileManager.default.removeItem(at: bundle.appendingPathComponent("lv2_test_plugins.so"))
        guard (try? FileManager.default.copyItem(at: ttl, to: bundle.appendingPathComponent("manifest.ttl"))) != nil,
              (try? FileManager.default.copyItem(atPath: lib, toPath: bundle.appendingPathComponent("lv2_test_plugins.so").path)) != nil
        else { return nil }
        return root.path
    }()

    /// LV2_PATH with the test bundle first, then Debian's directories.
    static func lv2Path() throws -> String {
        let dir = try #require(testBundles, "could not build the LV2 test plugins (gcc)")
        return "\(dir):/usr/lib/lv2:/usr/local/lib/lv2"
    }

    static func run(_ script: String, in dir: URL) throws -> CLI.Result {
        try CLI.shell(script, cwd: dir, environment: ["LV2_PATH": try lv2Path()])
    }

    /// Reads a mono f32le raw file.
    static func floats(_ url: URL) throws -> [Float] {
        let d = try Data(contentsOf: url)
        return d.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func egAmpAtMinus6EqualsGainMinus6() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen sine 997 level=-3 duration=1 --out-format s16le:48000:1 -o in.wav \
              && "$AUPIPE" -i in.wav lv2 http://lv2plug.in/plugins/eg-amp gain=-6 -o a.wav \
              && "$AUPIPE" -i in.wav lv2 eg-amp gain=-6 -o a2.wav \
              && "$AUPIPE" -i in.wav gain -6 -o b.wav \
              && "$AUPIPE" compare a.wav b.wav && cmp a.wav a2.wav
            """, in: dir)
        #expect(r.status == 0, "eg-amp -6 differs from gain -6: \(r.stderr)")
    }

    /// swh's Butterworth high-pass (a rate-relative cutoff) against lilv's own host; the noise is
    /// at -24 dBFS so that neither output clips (libsndfile wraps what lv2apply writes past full
    /// scale), and the output must really be filtered. Rounded plainly (`--dither=off`), as
    /// lv2apply's libsndfile rounds.
    @Test(.needs("lv2apply")) func withinOneLSBOfLv2apply() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=2 level=-24 --out-format s16le:48000:1 -o in.wav \
              && lv2apply -i in.wav -o ref.wav -c cutoff 200 http://plugin.org.uk/swh-plugins/butthigh_iir \
              && "$AUPIPE" -i in.wav --dither=off lv2 butthigh_iir cutoff=200 -o out.wav \
              && "$AUPIPE" compare out.wav ref.wav --max-lsb 1 && ! "$AUPIPE" compare out.wav in.wav --max-lsb 8
            """, in: dir)
        #expect(r.status == 0, "aupipe's high-pass differs from lv2apply's by more than 1 LSB: \(r.stderr)")
    }

    @Test func x42LimiterLeavesAnImpulseOnItsSampleWithTheExactLength() throws {
        let dir = try CLI.temporaryDirectory()
        for frames in [48000, 1234, 1] {
            let r = try Self.run("""
                "$AUPIPE" gen impulse at=\(min(700, frames - 1))f level=-3 duration=\(frames)f --out-format f32le:48000:1 -t raw \
                  | "$AUPIPE" --in-format f32le:48000:1 lv2 'http://gareus.org/oss/lv2/dpl#mono' -t raw > out.raw
                """, in: dir)
            try #require(r.status == 0, "\(r.stderr)")
            let out = try Self.floats(dir.appendingPathComponent("out.raw"))
            #expect(out.count == frames, "\(frames) frames in, \(out.count) out")
            let peak = out.indices.max { abs(out[$0]) < abs(out[$1]) }
            #expect(peak == min(700, frames - 1), "the impulse moved from \(min(700, frames - 1)) to \(peak.map(String.init) ?? "nowhere")")
        }
    }

    @Test func aReportedLatencyIsCompensated() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=12345f --out-format f32le:48000:2 -t raw > in.raw \
              && "$AUPIPE" --in-format f32le:48000:2 lv2 delay100 -t raw < in.raw > out.raw && cmp in.raw out.raw
            """, in: dir)
        #expect(r.status == 0, "a 100-frame plugin delay was not compensated exactly: \(r.stderr)")
    }

    @Test(arguments: ["10ms", "7f", "4096f", "1s"])
    func fixedPowerOfTwoBlocksAreHonoured(block: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=10007f --out-format f32le:44100:1 -t raw > in.raw \
              && "$AUPIPE" --in-format f32le:44100:1 --block \(block) lv2 fixedblock -t raw < in.raw > out.raw && cmp in.raw out.raw
            """, in: dir)
        #expect(r.status == 0, "--block \(block): \(r.stderr)")
    }

    @Test func aMissingFeatureIsNamedOnOneLine() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 unobtainium -o /dev/null", in: dir)
        #expect(r.status == 69)
        #expect(r.stderr.contains("http://aupipe.test/ns#unobtainium"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func aCVPortIsRefusedOnOneLine() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 aupipe.test/plugins/cv -o /dev/null", in: dir)
        #expect(r.status != 0 && r.status != 70)
        #expect(r.stderr.lowercased().contains("cv"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func withoutLilvOneLineNamesThePackage() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 eg-amp -o /dev/null", cwd: dir,
                              environment: ["AUPIPE_LILV_LIBRARY": "/nonexistent/liblilv-0.so.0"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("liblilv-0-0"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    /// A port whose lv2:symbol is `name` (every unit's label key) is `name_port`, as LADSPA's is.
    @Test func aPortNamedNameIsNamePort() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=1000f --out-format f32le:48000:1 -t raw > in.raw \
              && "$AUPIPE" --in-format f32le:48000:1 lv2 plugins/named name_port=0.5 name=half -t raw < in.raw > out.raw \
              && "$AUPIPE" help lv2 plugins/named | grep -q '^  name_port'
            """, in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let input = try Self.floats(dir.appendingPathComponent("in.raw")), output = try Self.floats(dir.appendingPathComponent("out.raw"))
        #expect(output.count == input.count && zip(input, output).allSatisfy { $0 * 0.5 == $1 }, "name_port=0.5 did not halve every sample")
    }

    @Test func sameBytesEveryRun() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=1 --out-format s16le:48000:2 -o in.wav \
              && "$AUPIPE" -i in.wav lv2 'http://gareus.org/oss/lv2/dpl#stereo' threshold=-10 -o a.wav \
              && "$AUPIPE" -i in.wav lv2 'http://gareus.org/oss/lv2/dpl#stereo' threshold=-10 -o b.wav && cmp a.wav b.wav
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
    }
}
