import Foundation
import Testing

/// `vad` through the command line: under 8 kHz (its band cut at the Nyquist frequency) one
/// warning line says so and the run goes on; at 8 kHz and over, none.
@Suite struct VoiceActivityCLITests {
    @Test(arguments: [(4000, true), (6000, true), (8000, false), (16000, false)])
    func aLowRateIsWarnedOnce(rate: Int, warned: Bool) throws {
        let samples = [Int16](repeating: 0, count: rate)
        let r = try CLI.aupipe(["--in-format", "s16le:\(rate):1", "-t", "raw", "vad"], stdin: samples.withUnsafeBytes { Data($0) })
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("vad: warning") }
        #expect(lines.count == (warned ? 1 : 0), "\(r.stderr)")
        if warned { #expect(lines.first?.contains("at \(rate) Hz the analysis band ends") == true) }
        #expect(r.stdout.count == samples.count * 2, "the audio passes, all of it")
    }
}
