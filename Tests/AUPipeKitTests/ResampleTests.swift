import Testing
import AUPipeKit
import CSpeexDSP

@Suite struct ResampleTests {
    /// The reference: a direct speexdsp call over the whole input, with the input latency skipped
    /// at the start and the tail flushed with zeros, trimmed to round(N·out/in).
    static func direct(_ input: [Float], channels: Int, from: Int, to: Int, quality: Int) -> [Float] {
        var err: Int32 = 0
        let st = speex_resampler_init(UInt32(channels), UInt32(from), UInt32(to), Int32(quality), &err)!
        defer { speex_resampler_destroy(st) }
        speex_resampler_skip_zeros(st)
        let frames = input.count / channels
        let expected = Int(ResampleUnit.expectedOutputFrames(Int64(frames), from: from, to: to))
        var out = [Float](repeating: 0, count: (expected + 64) * channels)
        var inLen = UInt32(frames), outLen = UInt32(expected + 64)
        speex_resampler_process_interleaved_float(st, input, &inLen, &out, &outLen)
        var produced = Int(outLen)
        let zeros = [Float](repeating: 0, count: 1024 * channels)
        while produced < expected {
            var zl = UInt32(1024), ol = UInt32(expected - produced)
            _ = out.withUnsafeMutableBufferPointer { o in
                speex_resampler_process_interleaved_float(st, zeros, &zl, o.baseAddress! + produced * channels, &ol)
            }
            produced += Int(ol)
        }
        return Array(out[0..<(expected * channels)])
    }

    @Test(arguments: [(48000, 16000, 3), (44100, 48000, 3), (16000, 48000, 10), (48000, 44100, 5), (8000, 11025, 0)])
    func matchesADirectSpeexCall(from: Int, to: Int, quality: Int) throws {
        let channels = 2
        let samples = TestSignals.tones(frames: 12345, rate: from, channels: channels)
        let format = StreamFormat(encoding: .f32le, sampleRate: from, channels: channels)
        let r = try TestSignals.run([["resample", "\(to)", "quality=\(quality)"]], TestSignals.wav(samples, format))
        let ours = TestSignals.decode(TestSignals.audio(r.bytes, r.report), .f32le)
        let reference = Self.direct(samples, channels: channels, from: from, to: to, quality: quality)
        #expect(ours.count == reference.count)
        let worst = zip(ours, reference).map { abs($0 - $1) }.max() ?? 0
        // Within 1 LSB at s16 (the bound); in practice bit-identical.
        #expect(worst <= 1.0 / 32768, "largest difference \(worst)")
        #expect(worst == 0, "not bit-identical to speexdsp: \(worst)")
    }

    @Test func exactLengthForAnAwkwardLength() throws {
        let frames = 1_000_001
        let format = StreamFormat(encoding: .s16le, sampleRate: 44100, channels: 1)
        let data = [UInt8](repeating: 0, count: frames * 2)
        let input = WAVFile.header(format, dataBytes: UInt64(data.count), channelMask: nil) + data
        let r = try TestSignals.run([["resample", "48000", "quality=0"]], input, block: 4096)
        #expect(r.report.framesOut == 1_088_436) // round(1000001 × 48000 / 44100) = round(1088436.37)
        #expect(TestSignals.audio(r.bytes, r.report).count == 1_088_436 * 2)
    }

    @Test(arguments: [(1, 44100, 48000), (2, 48000, 16000), (3, 16000, 48000), (10, 8000, 44100), (7, 96000, 44100)])
    func lengthIsRoundOfNTimesRatio(frames: Int, from: Int, to: Int) throws {
        for n in [frames, frames * 101, frames * 997 + 1] {
            let format = StreamFormat(encoding: .s16le, sampleRate: from, channels: 1)
            let input = WAVFile.header(format, dataBytes: UInt64(n * 2), channelMask: nil) + [UInt8](repeating: 0, count: n * 2)
            let r = try TestSignals.run([["resample", "\(to)"]], input)
            let expected = (Double(n) * Double(to) / Double(from)).rounded(.toNearestOrAwayFromZero)
            #expect(r.report.framesOut == Int64(expected), "\(n) frames \(from)->\(to)")
        }
    }

    @Test(arguments: [(16000, 48000, 1000, 3000), (48000, 16000, 3000, 1000), (44100, 48000, 441, 480), (48000, 44100, 4800, 4410)])
    func anImpulseLandsOnItsIdealSample(from: Int, to: Int, at: Int, expected: Int) throws {
        var samples = [Float](repeating: 0, count: 8000)
        samples[at] = 0.9
        let format = StreamFormat(encoding: .f32le, sampleRate: from, channels: 1)
        let r = try TestSignals.run([["resample", "\(to)", "quality=10"]], TestSignals.wav(samples, format))
        let out = TestSignals.decode(TestSignals.audio(r.bytes, r.report), .f32le)
        let peak = out.indices.max { abs(out[$0]) < abs(out[$1]) }!
        #expect(peak == expected)
    }

    @Test func equalRatesBypass() throws {
        let format = StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1)
        let input = TestSignals.wav(TestSignals.tones(frames: 1000, rate: 16000, channels: 1), format)
        let r = try TestSignals.run([["resample", "16k"]], input)
        #expect(r.report.stages.first?.bypassed == true)
        #expect(TestSignals.audio(r.bytes, r.report) == Array(input.dropFirst(44)))
    }
}
