import Foundation
import TestScratch
import Testing
import AUPipeKit

/// `mix` with exact expected sums: the bus files are written by the test.
@Suite struct MixTests: ScratchSuite {
    /// A directory of this test's own, removed with it (it used to stay behind).
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-mix") }

    /// Writes a bus file of `frames` frames of the constant `value` (or `samples`) and returns its path.
    func bus(_ name: String, _ samples: [Float], rate: Int = 8000, channels: Int = 1, token: String = "f32le") throws -> String {
        let f = StreamFormat(encoding: try SampleEncoding(token: token), sampleRate: rate, channels: channels)
        let url = dir.appendingPathComponent(name)
        try Data(TestSignals.wav(samples, f)).write(to: url)
        return url.path
    }

    func mix(_ args: [String], main: [Float], channels: Int = 1, rate: Int = 8000, block: Int? = nil) throws -> (samples: [Float], report: RunReport) {
        let f = StreamFormat(encoding: .f32le, sampleRate: rate, channels: channels)
        let r = try TestSignals.run([["mix"] + args], TestSignals.wav(main, f), block: block) { $0.stats = .text }
        return (TestSignals.decode(TestSignals.audio(r.bytes, r.report), .f32le), r.report)
    }

    func close(_ a: [Float], _ b: [Float], tolerance: Float = 1e-6) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func gainsAddInDecibels() throws {
        let b = try bus("b.wav", [Float](repeating: 0.25, count: 100))
        let out = try mix(["input=\(b),gain=-6", "main-gain=-20", "out-gain=3"], main: [Float](repeating: 0.5, count: 100)).samples
        let expected = Float(pow(10, 3.0 / 20) * (0.5 * pow(10, -20.0 / 20) + 0.25 * pow(10, -6.0 / 20)))
        #expect(close(out, [Float](repeating: expected, count: 100)), "\(out.first ?? 0) vs \(expected)")
    }

    @Test func busGainsMayBeLinearFactors() throws {
        let b = try bus("b.wav", [Float](repeating: 0.25, count: 40))
        let out = try mix(["input=\(b),gain=0.5x"], main: [Float](repeating: 0.5, count: 40)).samples
        #expect(close(out, [Float](repeating: 0.5 + 0.125, count: 40)), "\(out.first ?? 0)")
        let twice = try mix(["input=\(b),gain=2x", "input=\(b),gain=-6.0206"], main: [Float](repeating: 0, count: 40)).samples
        #expect(close(twice, [Float](repeating: 0.5 + 0.125, count: 40), tolerance: 1e-5))
        #expect(throws: AUPipeError.self) { try mix(["input=\(b),gain=0x"], main: [0]) }
    }

    @Test func mutesSilenceTheirBus() throws {
        let b = try bus("b.wav", [Float](repeating: 0.25, count: 50))
        #expect(try mix(["input=\(b),mute"], main: [Float](repeating: 0.5, count: 50)).samples == [Float](repeating: 0.5, count: 50))
        #expect(try mix(["input=\(b)", "main-mute=1"], main: [Float](repeating: 0.5, count: 50)).samples == [Float](repeating: 0.25, count: 50))
    }

    @Test func panLaws() throws {
        let mono = try bus("m.wav", [Float](repeating: 0.5, count: 10))
        let zeros = [Float](repeating: 0, count: 20)
        // Mono bus, constant power: hard left, centre (-3 dB each), three quarters right.
        #expect(close(try mix(["input=\(mono),pan=-1"], main: zeros, channels: 2).samples, [Float](repeating: 0, count: 10).enumerated().flatMap { _ in [0.5, 0] }))
        let c = Float(0.5 * cos(Double.pi / 4))
        #expect(close(try mix(["input=\(mono),pan=0"], main: zeros, channels: 2).samples, (0..<10).flatMap { _ in [c, c] }))
        let a = 1.75 * Double.pi / 4
        #expect(close(try mix(["input=\(mono),pan=0.75"], main: zeros, channels: 2).samples, (0..<10).flatMap { _ in [Float(0.5 * cos(a)), Float(0.5 * sin(a))] }))
        // Stereo bus, balance: pan 0.5 halves the left, keeps the right.
        let stereo = try bus("s.wav", (0..<10).flatMap { _ in [Float(0.4), Float(0.2)] }, channels: 2)
        #expect(close(try mix(["input=\(stereo),pan=0.5"], main: zeros, channels: 2).samples, (0..<10).flatMap { _ in [Float(0.2), Float(0.2)] }))
        // Without pan a mono bus goes to both channels at its gain.
        #expect(try mix(["input=\(mono)"], main: zeros, channels: 2).samples == (0..<10).flatMap { _ in [Float(0.5), 0.5] })
    }

    @Test func durationPoliciesWithUnequalLengths() throws {
        let short = try bus("short.wav", [Float](repeating: 0.25, count: 30))
        let main = [Float](repeating: 0.5, count: 50)
        let first = try mix(["input=\(short)"], main: main)
        #expect(first.samples == [Float](repeating: 0.75, count: 30) + [Float](repeating: 0.5, count: 20))
        let shortest = try mix(["input=\(short)", "duration=shortest"], main: main)
        #expect(shortest.samples == [Float](repeating: 0.75, count: 30))
        let long = try bus("long.wav", [Float](repeating: 0.25, count: 80))
        let longest = try mix(["input=\(long)", "duration=longest"], main: main)
        #expect(longest.samples == [Float](repeating: 0.75, count: 50) + [Float](repeating: 0.25, count: 30))
        #expect(longest.report.framesOut == 80)
    }

    @Test func offsetsAndLoops() throws {
        let b = try bus("b.wav", [0.1, 0.2, 0.3])
        let zeros = [Float](repeating: 0, count: 10)
        #expect(try mix(["input=\(b),offset=4f"], main: zeros).samples == [0, 0, 0, 0, 0.1, 0.2, 0.3, 0, 0, 0])
        #expect(try mix(["input=\(b),offset=-1f"], main: zeros).samples == [0.2, 0.3, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(try mix(["input=\(b),offset=0.5ms"], main: zeros).samples[4] == 0.1) // 0.5 ms at 8 kHz = 4 frames
        #expect(try mix(["input=\(b),loop"], main: zeros).samples == [0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1])
        #expect(try mix(["input=\(b),loop,offset=2f"], main: zeros, block: 1).samples == [0, 0, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2])
    }

    @Test func overloadClipsAndCountsOrLimits() throws {
        let b = try bus("b.wav", [Float](repeating: 0.8, count: 20))
        let main = [Float](repeating: 0.8, count: 20)
        let clipped = try mix(["input=\(b)"], main: main)
        #expect(clipped.samples == [Float](repeating: 1, count: 20))
        #expect(clipped.report.stages[0].clipped == 20)
        let limited = try mix(["input=\(b)", "overload=limit"], main: main).samples
        #expect(limited.allSatisfy { $0 < 1 && $0 > 0.89 })
        let quiet = try mix(["input=\(b),gain=-20", "overload=limit"], main: [Float](repeating: 0.1, count: 20)).samples
        #expect(close(quiet, [Float](repeating: Float(0.1 + 0.8 * pow(10, -1.0)), count: 20))) // below the knee: untouched
    }

    @Test func busesAtOtherRatesAreResampledToExactLength() throws {
        let b = try bus("b44.wav", TestSignals.tones(frames: 4410, rate: 44100, channels: 1), rate: 44100, token: "s16le")
        let r = try mix(["input=\(b)", "duration=longest"], main: [0], rate: 48000)
        #expect(r.report.framesOut == 4800) // round(4410 × 48000 / 44100)
        #expect(r.report.stages[0].note?.contains("resampled 44100 to 48000 Hz") == true)
    }

    @Test func outputIsIndependentOfBlockSize() throws {
        let b = try bus("b.wav", TestSignals.tones(frames: 3000, rate: 22050, channels: 2), rate: 22050, channels: 2)
        let main = TestSignals.tones(frames: 2500, rate: 16000, channels: 2)
        let reference = try mix(["input=\(b),gain=-3,pan=0.2,offset=37f", "duration=longest"], main: main, channels: 2, rate: 16000, block: 4096).samples
        for block in [1, 7, 480] {
            #expect(try mix(["input=\(b),gain=-3,pan=0.2,offset=37f", "duration=longest"], main: main, channels: 2, rate: 16000, block: block).samples == reference, "block \(block)")
        }
    }

    @Test func badBusesAreNamed() throws {
        let stereo = try bus("s.wav", [0, 0], channels: 2)
        let three = try bus("t.wav", [0, 0, 0], channels: 3)
        func message(_ args: [String], channels: Int = 1) -> AUPipeError? {
            do { _ = try mix(args, main: [Float](repeating: 0, count: channels), channels: channels); return nil } catch { return error as? AUPipeError }
        }
        #expect(message(["input=\(stereo),pan=0.5"])?.message.contains("pan needs stereo output") == true)
        #expect(message(["input=\(three)"], channels: 2)?.message.contains("input 1 (\(three)): has 3 channels and the stream 2") == true)
        #expect(message(["input=/nonexistent/x.wav"])?.status == .noInput)
        #expect(message(["input=\(stereo),gian=1"])?.message.contains("did you mean 'gain'") == true)
        #expect(message([])?.message.contains("needs at least one input") == true)
        #expect(message(["input=\(stereo)", "duration=forever"])?.status == .usage)
    }
}
