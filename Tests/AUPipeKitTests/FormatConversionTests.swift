import Foundation
import TestScratch
import Testing
import AUPipeKit

/// `FormatConversion`: the stages that turn one format into another for `--out-format`, a
/// `mix` bus and `aec`'s reference, and each one's refusal.
@Suite struct FormatConversionTests: ScratchSuite {
    static let mono48k = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1)
    static let stereo16k = StreamFormat(encoding: .f32le, sampleRate: 16000, channels: 2)

    /// A directory of this test's own, removed with it (it used to stay behind).
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-conversion") }

    func file(_ name: String, _ format: StreamFormat, frames: Int = 480) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(TestSignals.wav(TestSignals.tones(frames: frames, rate: format.sampleRate, channels: format.channels), format)).write(to: url)
        return url.path
    }

    @Test func oneToTwoChannelsThen48kTo16k() throws {
        let stages = try FormatConversion(from: Self.mono48k, to: Self.stereo16k, for: .mixBus("mix: input 2 (b.wav)", path: "b.wav")).stages()
        #expect(stages.map(\.name) == ["convert", "resample"])
        #expect(stages.allSatisfy { $0.origin == .chain })
        let convert = try #require(stages[0].unit as? ConvertUnit)
        #expect(convert.channels == 2 && convert.format == nil && convert.map == nil)
        let resample = try #require(stages[1].unit as? ResampleUnit)
        #expect(resample.rate == 16000)
        #expect(resample.settings == .default)
        #expect(ResamplerSettings.default == .soxr(.high))
        // Prepared, they give the target's channels and rate, at exact length.
        let chain = try Chain(stages: stages, input: Self.mono48k, maxFrames: 480, measurePeaks: false)
        #expect(chain.outputFormat.channels == 2 && chain.outputFormat.sampleRate == 16000)
        let x = [Float](repeating: 0.25, count: 4801)
        var frames = 0
        try x.withUnsafeBufferPointer { p in
            var done = 0
            while done < x.count {
                let n = min(480, x.count - done)
                frames += try chain.process(p.baseAddress! + done, frames: n).1
                done += n
            }
        }
        try chain.drain { _, n in frames += n }
        #expect(frames == 1600) // round(4801 / 3)
    }

    @Test func anOptionNamesItsStagesAndListsThemEvenWithNothingToDo() throws {
        let stages = try FormatConversion(from: Self.mono48k, to: Self.stereo16k, for: .option("--out-format")).stages()
        #expect(stages.map(\.name) == ["convert (--out-format)", "resample (--out-format)"])
        #expect(stages.allSatisfy { $0.origin == .option("--out-format") })
        // The same format: the option's stages are there, and bypassed; a side input has none.
        let same = try FormatConversion(from: Self.mono48k, to: Self.mono48k, for: .option("--out-format")).stages()
        #expect(same.map(\.name) == ["convert (--out-format)", "resample (--out-format)"])
        let chain = try Chain(stages: same, input: Self.mono48k, maxFrames: 480, measurePeaks: false)
        #expect(chain.isEmpty && chain.stats.allSatisfy(\.bypassed))
        #expect(try FormatConversion(from: Self.mono48k, to: Self.mono48k, for: .mixBus("m", path: "p")).stages().isEmpty)
        // Only what the option names.
        let rateOnly = try FormatConversion(from: Self.mono48k, channels: nil, sampleRate: 16000, for: .option("--out-format")).stages()
        #expect(rateOnly.map(\.name) == ["resample (--out-format)"])
        #expect(FormatConversion(from: Self.mono48k, channels: nil, sampleRate: 16000, for: .option("--out-format")).to.channels == 1)
    }

    @Test(arguments: [(2, 1), (6, 1), (1, 6)])
    func oneToNAndNToOneAreAutomatic(from: Int, to: Int) throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: from)
        var t = f
        t.channels = to
        for requester in [FormatConversion.Requester.option("--out-format"), .mixBus("m", path: "p"), .sideInput { _, _ in "no" }] {
            #expect(try FormatConversion(from: f, to: t, for: requester).stages().count == (requester.listsEveryStage ? 2 : 1))
        }
    }

    // MARK: 2 to 6 channels, refused by each requester in its words

    @Test func twoToSixIsRefusedInEachRequestersWords() throws {
        let two = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        var six = two
        six.channels = 6
        func refusal(_ r: FormatConversion.Requester) -> String? {
            do { _ = try FormatConversion(from: two, to: six, for: r).stages(); return nil } catch { return (error as? AUPipeError)?.message }
        }
        #expect(refusal(.option("--out-format"))
            == "--out-format: cannot choose how to turn 2 channels into 6 (only 1 to N and N to 1 are automatic); put 'convert map=...' in the chain instead")
        #expect(refusal(.mixBus("mix: input 2 (bed.wav)", path: "bed.wav"))
            == "mix: input 2 (bed.wav): has 2 channels and the stream 6; mix converts 1 to N and N to 1 only: convert the input first (e.g. <(aupipe -i bed.wav convert map=...))")
        #expect(refusal(.sideInput { from, to in "aec: ref far.wav has \(from) channels, not \(to)" }) == "aec: ref far.wav has 2 channels, not 6")
    }

    @Test func theOutputOptionRefusesTwoToSix() throws {
        let input = TestSignals.wav(TestSignals.tones(frames: 480, rate: 48000, channels: 2), StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2))
        let e = #expect(throws: AUPipeError.self) { try TestSignals.run([["gain", "-1"]], input) { $0.outFormat = FormatSpec.Parts(channels: 6) } }
        #expect(e?.message == "--out-format: cannot choose how to turn 2 channels into 6 (only 1 to N and N to 1 are automatic); put 'convert map=...' in the chain instead")
        #expect(e?.status == .usage)
    }

    @Test func aMixBusRefusesTwoToSix() throws {
        let bus = try file("two.wav", StreamFormat(encoding: .s16le, sampleRate: 44100, channels: 2))
        let input = TestSignals.wav(TestSignals.tones(frames: 480, rate: 48000, channels: 6), StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 6))
        let e = #expect(throws: AUPipeError.self) { try TestSignals.run([["mix", "input=\(bus)", "input=\(bus)"]], input) }
        #expect(e?.message == "mix: input 1 (\(bus)): has 2 channels and the stream 6; mix converts 1 to N and N to 1 only: convert the input first (e.g. <(aupipe -i \(bus) convert map=...))")
    }

    @Test func aecsReferenceRefusesTwoToSix() throws {
        let ref = try file("two.wav", StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 2))
        let input = TestSignals.wav([Float](repeating: 0, count: 480), StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1))
        let e = #expect(throws: AUPipeError.self) { try TestSignals.run([["aec", "ref=\(ref)", "speakers=6"]], input) }
        #expect(e?.message.hasPrefix("aec: ref \(ref) has 2 channels; speakers=6 needs a reference of 1 channel (played on every loudspeaker) or 6") == true, "\(e?.message ?? "")")
    }

    /// A bus at another rate and channel count comes out as `convert` then `resample` would
    /// make it in the chain: the same samples.
    @Test func aBusIsConvertedAsTheChainsUnitsWould() throws {
        let busFormat = StreamFormat(encoding: .f32le, sampleRate: 44100, channels: 1)
        let samples = TestSignals.tones(frames: 4410, rate: 44100, channels: 1)
        let bus = try file("bus.wav", busFormat, frames: 4410)
        let silence = TestSignals.wav([Float](repeating: 0, count: 2 * 4800), StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2))
        let mixed = try TestSignals.run([["mix", "input=\(bus)", "main-gain=-120"]], silence)
        let direct = try TestSignals.run([["convert", "channels=2"], ["resample", "48000"]], TestSignals.wav(samples, busFormat))
        let a = TestSignals.decode(TestSignals.audio(mixed.bytes, mixed.report), .f32le)
        let b = TestSignals.decode(TestSignals.audio(direct.bytes, direct.report), .f32le)
        #expect(a.count == b.count)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 })
    }
}
