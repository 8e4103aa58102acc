import Foundation
import Testing

/// Messages that name the real mistake: a missing `:` rather than a repeated parameter, a
/// range rather than "not a number", aec's own wording, counts in the singular, raw input
/// without a header.
@Suite struct MessageTests {
    static let clip = CLIBehaviourTests.clip

    @Test func aSecondBareValueThatIsAUnitHintsAtAMissingColon() throws {
        let r = try CLI.aupipe(["gain", "-6", "gain", "-3"], stdin: Self.clip)
        CLIBehaviourTests.expectError(r, status: 64, "gain: a second value 'gain' after '-6'", "'gain' is a unit", "is a ':' missing between two units")
        #expect(!r.stderr.contains("given twice"), "\(r.stderr)")
    }

    @Test func aUnitWordWrittenApartIsNotAParameter() throws {
        let r = try CLI.aupipe(["gain", "6", "dB"], stdin: Self.clip)
        CLIBehaviourTests.expectError(r, status: 64, "gain: 'dB' is not a gain parameter", "write 'gain 6' or 'gain db=6'")
        #expect(!r.stderr.contains("given twice"), "\(r.stderr)")
        let stray = try CLI.aupipe(["gain", "6", "loud"], stdin: Self.clip)
        CLIBehaviourTests.expectError(stray, status: 64, "a second value 'loud' after '6'", "stray word")
    }

    @Test func aBusGainOutOfRangeSaysTheRange() throws {
        let r = try CLI.aupipe(["mix", "input=x.wav,gain=70"], stdin: Self.clip)
        CLIBehaviourTests.expectError(r, status: 64, "mix: input 1 (x.wav): gain=70 is out of range -120...60 dB")
        #expect(!r.stderr.contains("not a number"), "\(r.stderr)")
        let pan = try CLI.aupipe(["mix", "input=x.wav,pan=2"], stdin: Self.clip)
        #expect(pan.stderr == "aupipe: mix: input 1 (x.wav): pan=2 is out of range -1...1\n", "\(pan.stderr)")
    }

    @Test func aecSaysWhatItsReferenceNeeds() throws {
        let r = try CLI.shell("""
            "$AUPIPE" gen noise duration=0.1 --out-format s16le:16000:6 -o 6ch.wav
            "$AUPIPE" gen silence duration=0.1 --out-format s16le:16000:1 | "$AUPIPE" aec ref=6ch.wav speakers=2
            """, cwd: try CLI.temporaryDirectory())
        CLIBehaviourTests.expectError(r, status: 64, "aec: ref 6ch.wav has 6 channels; speakers=2 needs a reference of 1 channel", "or 2", "convert it first")
        #expect(!r.stderr.contains("mix") && !r.stderr.contains("the stream"), "\(r.stderr)")
    }

    /// One channel is "1 channel".
    @Test(arguments: [
        (["mix", "input=x.wav,pan=0"], "pan needs stereo output; the stream has 1 channel\n"),
        (["convert", "map=0", "channels=2"], "convert: map= lists 1 channel but channels=2"),
        (["aec", "ref-channel=1"], "ref-channel=1 needs an input with more than 1 channel and one more for the microphone; the stream has 1 channel\n"),
    ])
    func oneChannelIsSingular(_ arguments: [String], _ message: String) throws {
        let mono = try CLI.shell("\"$AUPIPE\" gen silence duration=10f --out-format s16le:16000:1 -o mono.wav && touch x.wav && \"$AUPIPE\" -i mono.wav " + arguments.joined(separator: " "),
                                 cwd: try CLI.temporaryDirectory())
        CLIBehaviourTests.expectError(mono, status: 64, message)
        #expect(!mono.stderr.contains("1 channels"), "\(mono.stderr)")
    }

    @Test func infoOnRawInputSpeaksOfRawInput() throws {
        let r = try CLI.aupipe(["info", "--in-format", "s16le:16000:1"], stdin: Data(Signal.s16le(frames: 10, channels: 1)))
        #expect(r.status == 0, "\(r.stderr)")
        let info = CLIBehaviourTests.infoLines(r)
        #expect(info["header"] == "none (raw input, read as --in-format says)", "\(info)")
        #expect(info["frames"] == "unknown (raw input from a pipe: no header gives its length)", "\(info)")
    }
}
