import Foundation
import Testing

/// `meter` and `loudnorm` weight every channel as ITU-R BS.1770-4 says for where it plays, from
/// the stream's channel layout (issue 24, item 1): 1.41 for side speakers (60°...120°), 1.0 for
/// front, centre and back (beyond 120°) ones, the LFE left out. Checked against ffmpeg's
/// `ebur128` where the two agree, and against a mono reference where ffmpeg weights the back
/// speakers 1.41 (the difference the manual states).
@Suite struct LoudnessWeightingTests {
    /// A shell command writing a 997 Hz sine (ffmpeg's `sine`, amplitude 1/8) of `seconds` as
    /// WAV, mixed to `pan` (`7.1|SL=c0|SR=c0`), or mono when nil.
    static func sine(_ pan: String?, seconds: Int = 4) -> String {
        let filter = pan.map { " -af \"pan=\($0)\"" } ?? ""
        return "ffmpeg -nostdin -v error -f lavfi -i sine=f=997:r=48000:d=\(seconds)\(filter) -f wav -"
    }

    /// ffmpeg's integrated loudness of a WAV stream the command writes.
    static func ffmpegIntegrated(_ command: String, cwd: URL? = nil) throws -> Double {
        try MeterTests.ffmpegFigures("\(command) | ffmpeg -nostdin -v error -f wav -i - -f caf -", cwd: cwd).i
    }

    /// The same sine as `sine(nil)`, as a WAVE_FORMAT_EXTENSIBLE f32 file of `gains.count`
    /// channels (channel k scaled by gains[k]) with dwChannelMask `mask`.
    static func extensibleWAV(mask: UInt32, gains: [Float], seconds: Int = 4) -> Data {
        let rate = 48000, channels = gains.count, frames = rate * seconds
        var d = Data()
        func u16(_ v: Int) { d.append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]) }
        func u32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { d.append(UInt8(v >> UInt32(s) & 0xFF)) } }
        let dataBytes = UInt32(frames * channels * 4)
        d.append(contentsOf: Array("RIFF".utf8)); u32(4 + 8 + 40 + 8 + dataBytes)
        d.append(contentsOf: Array("WAVEfmt ".utf8)); u32(40)
        u16(0xFFFE); u16(channels); u32(UInt32(rate)); u32(UInt32(rate * channels * 4)); u16(channels * 4); u16(32)
        u16(22); u16(32); u32(mask)
        // KSDATAFORMAT_SUBTYPE_IEEE_FLOAT
        d.append(contentsOf: [0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        d.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        var samples = [Float](repeating: 0, count: frames * channels)
        for f in 0..<frames {
            let v = Float(0.125 * sin(2 * Double.pi * 997 * Double(f) / Double(rate)))
            for c in 0..<channels { samples[f * channels + c] = v * gains[c] }
        }
        samples.withUnsafeBytes { d.append(contentsOf: $0) }
        return d
    }

    /// The issue's case: 7.1 with the sine in the side pair only (channels 7 and 8) reads as
    /// ffmpeg reads it (−16.6 LUFS), from WAV and from the CAF ffmpeg writes; not as silence.
    @Test(.needs("ffmpeg"), arguments: ["wav", "caf"])
    func sidePairOf71ReadsAsFFmpegReadsIt(container: String) throws {
        let wav = Self.sine("7.1|SL=c0|SR=c0")
        let theirs = try Self.ffmpegIntegrated(wav)
        let ours = try MeterTests.meterFigures("\(wav) | ffmpeg -nostdin -v error -f wav -i - -f \(container) -")
        let i = try #require(ours["integratedLUFS"], "the side pair read as silence")
        #expect(abs(theirs - -16.6) <= 0.05, "ffmpeg reads \(theirs)")
        #expect(abs(i - theirs) <= 0.1, "\(container): integrated \(i) LUFS, ffmpeg \(theirs)")
    }

    /// Eight equal channels of 7.1: front three and back two at 1.0, the side pair at 1.41, the
    /// LFE out: 10·log10(7.82) LU above the mono sine. ffmpeg weights the back pair 1.41 too
    /// (10·log10(8.64)), as the manual says.
    @Test(.needs("ffmpeg"))
    func eightEqualChannelsAreWeightedByAzimuth() throws {
        let mono = try Self.ffmpegIntegrated(Self.sine(nil))
        let all = Self.sine("7.1|FL=c0|FR=c0|FC=c0|LFE=c0|BL=c0|BR=c0|SL=c0|SR=c0")
        let i = try #require(try MeterTests.meterFigures(all)["integratedLUFS"])
        #expect(abs(i - (mono + 10 * log10(7.82))) <= 0.1, "8 channels read \(i) LUFS; mono \(mono)")
        let theirs = try Self.ffmpegIntegrated(all)
        #expect(abs(theirs - (mono + 10 * log10(8.64))) <= 0.1, "ffmpeg reads \(theirs) LUFS")
    }

    /// 5.1 as the WAV mask FL FR FC LFE BL BR (ffmpeg's, and aupipe's default for six channels):
    /// BL and BR are its 110° surrounds and weigh 1.41, so it reads as ffmpeg reads it.
    @Test(.needs("ffmpeg"))
    func fivePointOneReadsAsFFmpegReadsIt() throws {
        let surrounds = Self.sine("5.1|BL=c0|BR=c0")
        let ours = try #require(try MeterTests.meterFigures(surrounds)["integratedLUFS"])
        let theirs = try Self.ffmpegIntegrated(surrounds)
        #expect(abs(ours - theirs) <= 0.1, "5.1's surround pair reads \(ours) LUFS; ffmpeg \(theirs)")
    }

    /// A 5-channel WAV whose mask is FL FR FC LFE BL: the LFE is left out (libebur128's own map
    /// would count it as a 1.41 surround); the back left, with no side pair beside it, is the
    /// left surround of 5.1 and counts 1.41.
    @Test(.needs("ffmpeg"))
    func fiveChannelMaskLeavesOutTheLFE() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.extensibleWAV(mask: 0x1F, gains: [1, 1, 1, 1, 1]).write(to: dir.appendingPathComponent("all.wav"))
        try Self.extensibleWAV(mask: 0x1F, gains: [0, 0, 0, 1, 0]).write(to: dir.appendingPathComponent("lfe.wav"))
        try Self.extensibleWAV(mask: 0x1F, gains: [0, 0, 0, 0, 1]).write(to: dir.appendingPathComponent("back.wav"))
        let mono = try Self.ffmpegIntegrated(Self.sine(nil))
        let all = try #require(try MeterTests.meterFigures("cat all.wav", cwd: dir)["integratedLUFS"])
        #expect(abs(all - (mono + 10 * log10(4.41))) <= 0.1, "FL FR FC LFE BL read \(all) LUFS; mono \(mono)")
        #expect(try MeterTests.meterFigures("cat lfe.wav", cwd: dir)["integratedLUFS"] == nil, "the LFE alone is not silence")
        // Without a side pair, BL is the left surround of 5.1 (110°): 1.41, as ffmpeg weighs it.
        let back = try #require(try MeterTests.meterFigures("cat back.wav", cwd: dir)["integratedLUFS"])
        #expect(abs(back - (mono + 10 * log10(1.41))) <= 0.1, "the back left alone reads \(back) LUFS; mono \(mono)")
        #expect(abs(back - (try Self.ffmpegIntegrated("cat back.wav", cwd: dir))) <= 0.1, "ffmpeg reads BL of 5.1 as aupipe does")
    }

    /// `loudnorm -23` on 7.1 with signal in the front and side pairs: ffmpeg reads −23 ± 0.1
    /// LUFS in the output (with channels 7 and 8 left out of the measure, it came out loud).
    @Test(.needs("ffmpeg"))
    func loudnormBrings71ToTheTarget() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\(Self.sine("7.1|FL=c0|FR=c0|SL=c0|SR=c0", seconds: 60)) | \"$AUPIPE\" loudnorm -23 -o out.wav", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let theirs = try Self.ffmpegIntegrated("cat out.wav", cwd: dir)
        #expect(abs(theirs - -23) <= 0.1, "ffmpeg reads \(theirs) LUFS after loudnorm -23")
    }
}
