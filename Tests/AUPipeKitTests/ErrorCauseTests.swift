import Testing
import AUPipeKit

/// Errors carry a typed cause besides their one-line message, so that code (and these tests)
/// tells them apart without matching text.
@Suite struct ErrorCauseTests {
    func error(_ body: () throws -> Void) -> AUPipeError? {
        do { try body(); return nil } catch { return error as? AUPipeError }
    }

    @Test func unknownUnitsAndParameters() {
        #expect(error { _ = try UnitRegistry.descriptor(named: "gian") }?.cause == .unknownUnit("gian", suggestion: "gain"))
        #expect(error { _ = try ResampleUnit.descriptor.instantiate(["qualty=3", "16000"]) }?.cause
                == .parameter(owner: "resample", name: "qualty", .unknown(suggestion: "quality")))
        #expect(error { _ = try GainUnit.descriptor.instantiate(["-6", "db=3"]) }?.cause == .parameter(owner: "gain", name: "db", .repeated))
        #expect(error { _ = try GainUnit.descriptor.instantiate(["db="]) }?.cause == .parameter(owner: "gain", name: "db", .missing))
    }

    @Test func malformedAndOutOfRangeValues() {
        #expect(error { _ = try ResampleUnit.descriptor.instantiate(["16000", "quality=11"]) }?.cause == .parameter(owner: "resample", name: "quality", .outOfRange))
        #expect(error { _ = try GainUnit.descriptor.instantiate(["100"]) }?.cause == .parameter(owner: "gain", name: "db", .outOfRange))
        #expect(error { _ = try GainUnit.descriptor.instantiate(["loud"]) }?.cause == .parameter(owner: "gain", name: "db", .malformed))
        #expect(error { _ = try MuteUnit.descriptor.instantiate(["ramp=2s"]) }?.cause == .parameter(owner: "mute", name: "ramp", .outOfRange))
        #expect(error { _ = try MuteUnit.descriptor.instantiate(["maybe"]) }?.cause == .parameter(owner: "mute", name: "on", .malformed))
    }

    @Test func aChannelChangeNoRuleCovers() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 2)
        let input = TestSignals.wav([Float](repeating: 0, count: 20), f)
        let inChain = error { _ = try TestSignals.run([["convert", "channels=6"]], input) }
        #expect(inChain?.cause == .channelChoice(from: 2, to: 6))
        #expect(inChain?.message.hasPrefix("convert: ") == true)
        var options = PipelineOptions()
        options.outFormat = try FormatSpec.components("::6", option: "--out-format")
        let fromOption = error { _ = try Pipeline(chain: [], options: options).run(source: MemorySource(input), sink: MemorySink()) }
        #expect(fromOption?.cause == .channelChoice(from: 2, to: 6))
        #expect(fromOption?.message.hasPrefix("--out-format: ") == true)
    }

    @Test func inputsThatEndWrongly() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 2)
        let torn = try TestSignals.run([["gain", "0.5"]], [UInt8](0..<41)) { $0.inFormat = f }
        #expect(torn.report.dataError?.cause == .inputEnd(.midFrame(bytes: 1)))
        let mono = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let short = try TestSignals.run([], WAVFile.header(mono, dataBytes: 100, channelMask: nil) + [UInt8](repeating: 1, count: 60))
        #expect(short.report.dataError?.cause == .inputEnd(.truncated(missing: 40, declared: 100)))
        let odd = try TestSignals.run([], WAVFile.header(mono, dataBytes: 7, channelMask: nil) + [UInt8](repeating: 1, count: 7))
        #expect(odd.report.dataError?.cause == .inputEnd(.declaredSizeNotWholeFrames(bytes: 1)))
    }
}
