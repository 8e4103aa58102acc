import Foundation
import Testing

/// LV2 presets that carry plugin state (`state:state`): restored into every instance through
/// lilv's state API before it is activated (with lilv's state:mapPath and freePath, so a file
/// the preset names is found from its bundle), and refused in one line (69) only where the plugin
/// cannot restore it.
@Suite struct LV2PresetStateTests {
    /// x42 zeroconvolv's "No-OP Mono" names an impulse response file (a delta): the output is
    /// the input, not silence.
    @Test func zeroconvolvsNoOpPresetPassesTheInput() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen sine 440 level=-6 duration=1 -o in.wav \
              && "$AUPIPE" -i in.wav lv2 'http://gareus.org/oss/lv2/zeroconvolv#Mono' preset='No-OP Mono' --stats -o out.wav \
              && "$AUPIPE" compare out.wav in.wav --max-lsb 1
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
        #expect(r.stderr.contains("peak -6.0"), "the output is not the input's level: \(r.stderr)")
    }

    /// zeroconvolv prints what it loads on stdout: through a pipe, the audio stays exactly the
    /// input's bytes (the text goes to stderr). Rounded plainly (`--dither=off`): the FFT
    /// convolution's result is a hair off the grid, which dither would turn into noise.
    @Test func whatAPluginPrintsOnStdoutStaysOutOfTheAudio() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen sine 440 level=-6 duration=1 -t raw > in.raw \
              && "$AUPIPE" --in-format s16le:48000:1 --dither=off lv2 'http://gareus.org/oss/lv2/zeroconvolv#Mono' preset='No-OP Mono' -t raw < in.raw | cat > out.raw \
              && cmp in.raw out.raw
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr) \(String(decoding: r.stdout, as: UTF8.self))")
    }

    /// The test plugin multiplies by a factor its state restores (1 until then); its preset
    /// "Quarter" carries 0.25.
    @Test func aPresetsStateChangesTheOutput() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("""
            "$AUPIPE" gen noise duration=5000f --out-format f32le:48000:2 -t raw > in.raw \
              && "$AUPIPE" --in-format f32le:48000:2 lv2 plugins/stateful -t raw < in.raw > plain.raw \
              && "$AUPIPE" --in-format f32le:48000:2 lv2 plugins/stateful preset=quarter -t raw < in.raw > quarter.raw
            """, in: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let input = try LV2HostTests.floats(dir.appendingPathComponent("in.raw"))
        let plain = try LV2HostTests.floats(dir.appendingPathComponent("plain.raw"))
        let quarter = try LV2HostTests.floats(dir.appendingPathComponent("quarter.raw"))
        #expect(plain == input, "without the preset the plugin passes the input")
        #expect(quarter.count == input.count && zip(input, quarter).allSatisfy { $0 * 0.25 == $1 },
                "the preset's state (factor 0.25) was not restored into both instances")
    }

    @Test func stateThePluginCannotRestoreIsOneLineWith69() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try LV2HostTests.run("\"$AUPIPE\" gen sine 440 duration=0.1 | \"$AUPIPE\" lv2 plugins/stateless preset=quarter -o /dev/null", in: dir)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr == "aupipe: lv2 http://aupipe.test/plugins/stateless: preset 'Quarter' carries plugin state (1 property), "
                + "and the plugin has no state:interface to restore it; use another preset, or set the ports by hand\n", "\(r.stderr)")
    }
}
