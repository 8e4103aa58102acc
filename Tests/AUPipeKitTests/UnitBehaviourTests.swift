import Testing
import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct UnitBehaviourTests {
    static let f32mono = StreamFormat(encoding: .f32le, sampleRate: 1000, channels: 1)

    /// What one unit (`["gain", "-6"]`) makes of `input`, run alone in the harness.
    func samples(_ unit: [String], _ input: [Float], _ format: StreamFormat) throws -> [Float] {
        try UnitHarness(unit, format: format).run(input)
    }

    @Test func convertMapsMixesAndSpreadsChannels() throws {
        let stereo = StreamFormat(encoding: .f32le, sampleRate: 8000, channels: 2)
        let lr: [Float] = [0.1, 0.5, -0.2, 0.3]
        #expect(try samples(["convert", "map=1,0"], lr, stereo) == [0.5, 0.1, 0.3, -0.2])
        #expect(try samples(["convert", "map=1"], lr, stereo) == [0.5, 0.3])
        #expect(try samples(["convert", "channels=1"], lr, stereo) == [(0.1 + 0.5) / 2, (-0.2 + 0.3) / 2])
        let mono = StreamFormat(encoding: .f32le, sampleRate: 8000, channels: 1)
        #expect(try samples(["convert", "channels=3"], [0.25, -0.5], mono) == [0.25, 0.25, 0.25, -0.5, -0.5, -0.5])
        #expect(try samples(["convert", "map=0,0"], [0.25], mono) == [0.25, 0.25])
    }

    @Test func convertRefusesWhatItCannotDecide() throws {
        let six = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 6)
        let input = TestSignals.wav([Float](repeating: 0, count: 12), six)
        #expect { try TestSignals.run([["convert", "channels=2"]], input) } throws: { ($0 as! AUPipeError).message.contains("map=") }
        #expect { try TestSignals.run([["convert", "map=0,6"]], input) } throws: { ($0 as! AUPipeError).message.contains("channel 6") }
        #expect { try TestSignals.run([["convert"]], input) } throws: { ($0 as! AUPipeError).message.contains("nothing to do") }
        #expect { try TestSignals.run([["convert", "channels=2", "map=0"]], input) } throws: { ($0 as! AUPipeError).status == .usage }
    }

    @Test func convertQuantizesMidChainAndSetsTheOutputEncoding() throws {
        // 0.3 LSB of s16 survives f32 but not a convert to s16 followed by a gain (rounded
        // plainly here: with --dither, TPDF noise comes first; EdgeDitherTests).
        let tiny: [Float] = [0.3 / 32768, 0.7 / 32768, 1.2]
        let r = try TestSignals.run([["convert", "format=s16le"], ["gain", "0.0001"]], TestSignals.wav(tiny, Self.f32mono)) { $0.dither = .off }
        #expect(r.report.output.format.encoding == .s16le)
        #expect(r.report.stages[0].clipped == 1)
        let out = TestSignals.decode(TestSignals.audio(r.bytes, r.report), .s16le)
        #expect(out == [0, 1.0 / 32768, 32767.0 / 32768])
    }

    @Test func gainIsTenToTheDbOverTwenty() throws {
        let out = try samples(["gain", "-6"], [0.5, -1], Self.f32mono)
        let factor = Float(0.5011872336272722)
        #expect(out == [0.5 * factor, -1 * factor])
        let zero = try TestSignals.run([["gain", "0"]], TestSignals.wav([0.5], Self.f32mono))
        #expect(zero.report.stages[0].bypassed)
    }

    @Test func muteWholeStreamAndOff() throws {
        #expect(try samples(["mute"], [0.5, 0.5, 0.5], Self.f32mono) == [0, 0, 0])
        #expect(try samples(["mute", "on=0"], [0.5, 0.5], Self.f32mono) == [0.5, 0.5])
    }

    @Test func scheduledMuteIsSampleExactWithItsRamp() throws {
        // 1 kHz stream of ones; mute frames 10..<20 with a 4-frame ramp.
        let out = try samples(["mute", "at=10f-20f", "ramp=4f"], [Float](repeating: 1, count: 30), Self.f32mono)
        let expected: [Float] = [Float](repeating: 1, count: 10) + [0.75, 0.5, 0.25, 0, 0, 0, 0, 0, 0, 0] + [0.25, 0.5, 0.75, 1] + [Float](repeating: 1, count: 6)
        #expect(out == expected)
        // In seconds: 0.01-0.02 s at 1000 Hz is the same interval.
        #expect(try samples(["mute", "at=0.01-0.02", "ramp=4ms"], [Float](repeating: 1, count: 30), Self.f32mono) == expected)
    }

    @Test func muteTurnsAroundAShortInterval() throws {
        // Interval of 2 frames with a 4-frame ramp: fades to 0.5, then back up.
        let out = try samples(["mute", "at=5f-7f", "ramp=4f"], [Float](repeating: 1, count: 12), Self.f32mono)
        #expect(out == [1, 1, 1, 1, 1, 0.75, 0.5, 0.75, 1, 1, 1, 1])
    }

    @Test func statsCountFramesAndPeaks() throws {
        let r = try TestSignals.run([["gain", "6"], ["resample", "2000"]], TestSignals.wav([0.5, -0.25, 0.1, 0], Self.f32mono)) { $0.stats = .text }
        #expect(r.report.stages.count == 2)
        #expect(r.report.stages[0].framesIn == 4 && r.report.stages[0].framesOut == 4)
        #expect(abs(r.report.stages[0].peakDBFS - (20 * log10(0.5) + 6)) < 0.01)
        #expect(r.report.stages[1].framesOut == 8)
        #expect(r.report.framesOut == 8)
    }
}
