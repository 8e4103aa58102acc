import Foundation
import Testing

/// Numbers in unit parameters and options are decimal (issue 24, item 13): hexadecimal, `nan`
/// and `inf` (which Swift's `Double(String)` reads) are refused with one line; a plugin's float
/// control port refuses a value beyond a 32-bit float's range instead of taking infinity.
@Suite struct DecimalNumberTests {
    static let clip = CLIBehaviourTests.clip

    @Test(arguments: [
        (["gain", "0x10"], "gain: db=0x10 is not a decimal number (hexadecimal is not read; write 16)"),
        (["gain", "-0x1p4dB"], "gain: db=-0x1p4dB is not a decimal number (hexadecimal is not read; write -16)"),
        (["gain", "nan"], "gain: db=nan is not a finite number"),
        (["gain", "infinity"], "gain: db=infinity is not a finite number"),
        (["gain", "1e400"], "gain: db=1e400 is beyond the range of numbers"),
        (["mute", "ramp=0x10"], "mute: ramp=0x10 is not a duration"),
        (["mute", "at=0x1-2"], "mute: at=0x1-2 is not a list of START-END intervals"),
        (["resample", "0x10"], "resample: rate=0x10 is not a rate"),
        (["--block", "0x10", "gain", "-3"], "--block 0x10 is not a duration"),
        (["mix", "input=x.wav,gain=0x10"], "gain=0x10"),
    ])
    func nonDecimalNumbersAreRefused(_ arguments: [String], _ message: String) throws {
        let r = try CLI.aupipe(arguments, stdin: Self.clip)
        CLIBehaviourTests.expectError(r, status: 64, message)
    }

    @Test(arguments: [["gain", "16"], ["gain", "-6.5dB"], ["gain", ".5"], ["gain", "5."], ["gain", "+1e1"], ["mute", "ramp=2.5E1"]])
    func decimalNumbersAreRead(_ arguments: [String]) throws {
        let r = try CLI.aupipe(arguments + ["-o", "/dev/null"], stdin: Self.clip)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
    }

    @Test(.needsFile("/usr/lib/ladspa/amp.so"))
    func aFloatPortRefusesValuesBeyondAFloat() throws {
        let r = try CLI.aupipe(["ladspa", "amp_mono", "gain=1e40"], stdin: Self.clip)
        CLIBehaviourTests.expectError(r, status: 64, "gain=1e40 is beyond the range of a plugin's control port (a 32-bit float")
        let hex = try CLI.aupipe(["ladspa", "amp_mono", "gain=0x2"], stdin: Self.clip)
        CLIBehaviourTests.expectError(hex, status: 64, "gain=0x2 is not a decimal number")
        let big = try CLI.aupipe(["ladspa", "amp_mono", "gain=1e38", "-o", "/dev/null"], stdin: Self.clip)
        #expect(big.status == 0, "\(big.stderr)")
    }
}
