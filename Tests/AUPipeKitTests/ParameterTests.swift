import Testing
import AUPipeKit

@Suite struct ParameterTests {
    func error(_ body: () throws -> Void) -> AUPipeError? {
        do { try body(); return nil } catch { return error as? AUPipeError }
    }

    @Test func unknownUnitsAndParametersGetADidYouMean() {
        #expect(error { _ = try UnitRegistry.descriptor(named: "gian") }?.message.contains("did you mean 'gain'") == true)
        #expect(error { _ = try UnitRegistry.descriptor(named: "resampel") }?.message.contains("'resample'") == true)
        #expect(error { _ = try ResampleUnit.descriptor.instantiate(["qualty=3", "16000"]) }?.message.contains("did you mean 'quality'") == true)
    }

    @Test func valuesOutOfRangeNameTheRange() {
        let e = error { _ = try ResampleUnit.descriptor.instantiate(["16000", "quality=11"]) }
        #expect(e?.status == .usage)
        #expect(e?.message == "resample: quality=11 is out of range 0...10")
        #expect(error { _ = try GainUnit.descriptor.instantiate(["100"]) }?.message.contains("-120...60 dB") == true)
        #expect(error { _ = try GainUnit.descriptor.instantiate(["loud"]) }?.message.contains("not a number") == true)
        #expect(error { _ = try ResampleUnit.descriptor.instantiate(["0"]) }?.message.contains("1...768000") == true)
        #expect(error { _ = try MuteUnit.descriptor.instantiate(["ramp=2s"]) }?.message.contains("0...1000 ms") == true)
        #expect(error { _ = try MuteUnit.descriptor.instantiate(["at=3-1"]) }?.message.contains("ends before it starts") == true)
        #expect(error { _ = try MuteUnit.descriptor.instantiate(["maybe"]) }?.message.contains("boolean") == true)
    }

    @Test func repeatedOrEmptyOrKeylessArgumentsAreRefused() {
        #expect(error { _ = try GainUnit.descriptor.instantiate(["-6", "db=3"]) }?.message.contains("twice") == true)
        #expect(error { _ = try GainUnit.descriptor.instantiate(["db="]) }?.message.contains("no value") == true)
        #expect(error { _ = try ResampleUnit.descriptor.instantiate([]) }?.message.contains("needs an output rate") == true)
    }

    @Test func unitsAcceptTheirDocumentedSpellings() throws {
        _ = try GainUnit.descriptor.instantiate(["-6dB"])
        _ = try ResampleUnit.descriptor.instantiate(["rate=44.1k", "quality=10"])
        _ = try MuteUnit.descriptor.instantiate(["off", "ramp=480f"])
        _ = try ConvertUnit.descriptor.instantiate(["S16_LE", "channels=2"])
        #expect(StreamDuration("20ms", bareUnit: .seconds) == .seconds(0.02))
        #expect(StreamDuration("480f", bareUnit: .seconds)?.frames(atRate: 1) == 480)
        #expect(StreamDuration("1.5", bareUnit: .seconds)?.frames(atRate: 48000) == 72000)
        #expect(StreamDuration("10", bareUnit: .milliseconds)?.frames(atRate: 48000) == 480)
    }

    @Test func everyParameterDefaultParses() throws {
        for unit in UnitRegistry.all {
            for p in unit.parameters where p.defaultValue != nil {
                _ = try unit.parseArguments(["\(p.name)=\(p.defaultValue!)"])
            }
        }
    }
}
