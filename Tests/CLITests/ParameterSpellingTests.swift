import Foundation
import Testing

/// Spellings users reach for: an open-ended mute interval (`at=30-`), frequencies in kHz (`1k`).
@Suite struct ParameterSpellingTests {
    /// s16le samples of raw bytes.
    static func samples(_ data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// 1 s of noise at 8 kHz, raw s16le: no sample is 0 by chance in the frames the tests look at.
    static let noise: Data = {
        (try? CLI.shell("\"$AUPIPE\" gen noise level=-6 duration=1 --out-format s16le:8000:1 -t raw").stdout) ?? Data()
    }()

    @Test(arguments: ["0.25-", "250ms-", "2000f-", "0.1-0.2,0.25-", "0.25-,0.5-0.6"])
    func anOpenIntervalMutesToTheEndSampleExactly(_ at: String) throws {
        let input = Self.samples(Self.noise)
        try #require(input.count == 8000 && !input.contains(0))
        let r = try CLI.shell("\"$AUPIPE\" --in-format s16le:8000:1 mute at=\(at) ramp=0 -t raw", stdin: Self.noise)
        #expect(r.status == 0, "at=\(at): \(r.stderr)")
        let out = Self.samples(r.stdout)
        #expect(out.count == 8000)
        // Frame 2000 (0.25 s) is the first silent one, and every frame after it is silent.
        #expect(out[1999] == input[1999], "at=\(at): frame 1999 was touched")
        #expect(out[2000...].allSatisfy { $0 == 0 }, "at=\(at): not silent from frame 2000 to the end")
        if !at.hasPrefix("0.1") { #expect(out[..<2000] == input[..<2000], "at=\(at): frames before 2000 changed") }
    }

    @Test func anOpenIntervalFadesOverItsRamp() throws {
        // ramp=10f: gain 1 - k/10 at frame 2000 + k - 1, silent from frame 2009.
        let input = Self.samples(Self.noise)
        let r = try CLI.shell("\"$AUPIPE\" --in-format s16le:8000:1 mute at=2000f- ramp=10f -t raw", stdin: Self.noise)
        #expect(r.status == 0, "\(r.stderr)")
        let out = Self.samples(r.stdout)
        #expect(out[1999] == input[1999])
        #expect(abs(Int(out[2000]) - Int((Float(input[2000]) * 0.9).rounded())) <= 1)
        #expect(out[2008] != 0 && out[2009...].allSatisfy { $0 == 0 })
    }

    @Test(arguments: ["-", "30-x", "x-", "30--", "3-1"])
    func malformedIntervalsAreStillRefused(_ at: String) throws {
        let r = try CLI.aupipe(["--check", "mute", "at=\(at)"])
        #expect(r.status == 64 && r.stderr.hasPrefix("aupipe: mute: at=\(at) "), "\(r.stderr)")
    }

    @Test func helpSaysAnIntervalMayBeOpen() throws {
        let r = try CLI.aupipe(["help", "mute"])
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("START- runs to the end"))
    }

    @Test(arguments: [("sine freq=1k", "sine freq=1000"), ("sine 2.5kHz", "sine 2500"), ("sine 1K", "sine 1000"),
                      ("tones 1k,2.5k", "tones 1000,2500"), ("sweep from=1k to=4k", "sweep from=1000 to=4000")])
    func frequenciesTakeAKSuffixAsRatesDo(_ pair: (String, String)) throws {
        let a = try CLI.shell("\"$AUPIPE\" gen \(pair.0) duration=0.05")
        let b = try CLI.shell("\"$AUPIPE\" gen \(pair.1) duration=0.05")
        #expect(a.status == 0, "gen \(pair.0): \(a.stderr)")
        #expect(a.stdout == b.stdout && b.stdout.count > 44, "gen \(pair.0) differs from gen \(pair.1)")
    }

    @Test(arguments: ["1kk", "k", "1e3kHz3", "400k"])
    func badFrequenciesAreRefused(_ text: String) throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine freq=\(text) duration=0.01")
        #expect(r.status == 64 && r.stderr.hasPrefix("aupipe: gen sine: freq=\(text) is"), "\(r.stderr)")
    }
}
