import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `fir` alone (`UnitHarness`): impulses keep samples in place, a response at another rate keeps
/// its gain, extend=1 adds the tail, normalize= scales, the partition plan's shape.
@Suite struct FIRUnitTests {
    static let mono = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 1)
    static let stereo = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)

    /// Writes `taps` (interleaved, `format`) as a float WAV file in a fresh directory.
    static func responseFile(_ taps: [Float], _ format: StreamFormat) throws -> (path: String, dir: URL) {
        let dir = TestScratch.root.appendingPathComponent("aupipe-fir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("ir.wav")
        try Data(TestSignals.wav(taps, format)).write(to: url)
        return (url.path, dir)
    }

    static func noise(_ count: Int, seed: UInt32 = 99) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: s)) / Float(Int32.max) * 0.5
        }
    }

    /// A unit impulse at tap `at` of `length` taps moves every sample by `at` frames: exactly
    /// in the direct part (the FFT levels' products with zeros are exact zeros), within
    /// −120 dB where an FFT level carries it.
    @Test(arguments: [(1, 0), (20000, 0), (20000, 300), (20000, 9000)])
    func anImpulseKeepsEverySampleInPlace(length: Int, at: Int) throws {
        var taps = [Float](repeating: 0, count: length)
        taps[at] = 1
        let (path, dir) = try Self.responseFile(taps, Self.mono)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Self.noise(30000)
        let harness = try UnitHarness(["fir", path], format: Self.mono, block: 480)
        try harness.push(input)
        try harness.drain()
        let expected = [Float](repeating: 0, count: at) + input.prefix(input.count - at)
        #expect(harness.output.count == input.count)
        if at < ConvolutionPlan.defaultDirectLength {
            #expect(zip(harness.output, expected).allSatisfy { $0.bitPattern == $1.bitPattern || ($0 == 0 && $1 == 0) },
                    "an impulse at tap \(at) of \(length) does not shift the stream by \(at) frames exactly")
        } else {
            let error = zip(harness.output, expected).reduce(0.0) { $0 + Double($1.0 - $1.1) * Double($1.0 - $1.1) }
            let energy = expected.reduce(0.0) { $0 + Double($1) * Double($1) }
            let dB = 10 * log10(error / energy)
            #expect(dB < -120, "an impulse at tap \(at) of \(length): the shifted stream within \(dB) dB")
        }
    }

    /// A low-pass response with a DC gain of 1 made at 96 kHz, used on a 48 kHz stream: resampled
    /// and scaled by 2, a 1 kHz sine keeps its level (within 0.05 dB), as with the same filter
    /// designed at 48 kHz.
    @Test func aResponseAtAnotherRateKeepsItsGain() throws {
        let rate96 = StreamFormat(encoding: .f32le, sampleRate: 96000, channels: 1)
        // A Hann-windowed sinc, cut-off 8 kHz, 255 taps, scaled to sum to 1.
        let n = 255, cutoff = 8000.0 / 96000
        var taps = (0..<n).map { i -> Double in
            let t = Double(i - n / 2)
            let sinc = t == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)
            return sinc * (0.5 - 0.5 * cos(2 * .pi * Double(i) / Double(n - 1)))
        }
        let sum = taps.reduce(0, +)
        taps = taps.map { $0 / sum }
        let (path, dir) = try Self.responseFile(taps.map(Float.init), rate96)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sine = (0..<48000).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 48000)) }
        let harness = try UnitHarness(["fir", path], format: Self.mono)
        let out = try harness.push(sine)
        func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
        let gain = 20 * log10(rms(out[4800...]) / rms(sine[4800...]))
        #expect(abs(gain) < 0.05, "1 kHz through a 96 kHz response at 48 kHz: \(gain) dB, not 0")
    }

    /// extend=1: N + taps − 1 frames, the last ones the response's tail.
    @Test func extendAddsTheTail() throws {
        let (path, dir) = try Self.responseFile([1, 0.5, 0.25], Self.mono)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try UnitHarness(["fir", path], format: Self.mono)
        try plain.push([Float](repeating: 1, count: 10))
        try plain.drain()
        #expect(plain.output.count == 10)
        let extended = try UnitHarness(["fir", path, "extend=1"], format: Self.mono, block: 4)
        try extended.push([Float](repeating: 1, count: 10))
        try extended.drain()
        #expect(extended.output == [1, 1.5] + [Float](repeating: 1.75, count: 8) + [0.75, 0.25])
    }

    /// extend=1 with a long response: the same samples for blocks of 1, 7 and 4096 frames, and
    /// N + taps − 1 of them.
    @Test func extendIsTheSameForEveryBlockSize() throws {
        let taps = Self.noise(2 * 9000, seed: 5).enumerated().map { $0.element * Float(exp(-Double($0.offset) / 3000)) }
        let (path, dir) = try Self.responseFile(taps, Self.stereo)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = Self.noise(2 * 5000)
        var outputs: [[UInt32]] = []
        for block in [1, 7, 4096] {
            let harness = try UnitHarness(["fir", path, "extend=1"], format: Self.stereo, block: block)
            try harness.push(input)
            try harness.drain()
            #expect(harness.framesOut == 5000 + 9000 - 1, "block \(block): \(harness.framesOut) frames")
            outputs.append(harness.output.map(\.bitPattern))
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2], "extend=1 differs between block sizes")
    }

    /// normalize=peak makes the largest |tap| 1; gain= applies after it.
    @Test func normalizeAndGainScaleTheResponse() throws {
        let (path, dir) = try Self.responseFile([0.5, -2], Self.mono)
        defer { try? FileManager.default.removeItem(at: dir) }
        let peak = try UnitHarness(["fir", path, "normalize=peak"], format: Self.mono)
        #expect(try peak.push([1, 0, 0]) == [0.25, -1, 0])
        let energy = try UnitHarness(["fir", path, "normalize=energy", "gain=-6.0206"], format: Self.mono)
        let out = try energy.push([1, 0])
        let norm = Float((0.25 + 4.0).squareRoot())
        #expect(abs(out[0] - 0.5 / norm * 0.5) < 1e-6 && abs(out[1] + 2 / norm * 0.5) < 1e-6, "\(out)")
    }

    /// 2 s at 48 kHz: 64 direct taps, then 7 partitions of 64, 15 of 512 and 11 of 8192 (the
    /// cost model's choice); every level starts at its own size (no latency) where the one before
    /// it ends, for every length.
    @Test func thePlanOfATwoSecondResponse() {
        let plan = ConvolutionPlan(length: 96000)
        #expect(plan.directLength == 64)
        #expect(plan.levels.map(\.size) == [64, 512, 8192])
        #expect(plan.levels.map(\.count) == [7, 15, 11])
        #expect(plan.levels.last!.endTap >= 96000 && plan.levels.last!.endTap - 8192 < 96000)
        for length in [65, 100, 1000, 4097, 20000, 48000, 131072, 1 << 22] {
            let p = ConvolutionPlan(length: length)
            #expect(p.levels.first?.firstTap == 64, "\(length) taps: the first level does not start after the direct taps")
            #expect(zip(p.levels, p.levels.dropFirst()).allSatisfy { $0.endTap == $1.firstTap && $1.size > $0.size },
                    "\(length) taps: levels \(p.levels) leave a gap or do not grow")
            #expect(p.levels.last!.endTap >= length && p.levels.last!.endTap - p.levels.last!.size < length,
                    "\(length) taps: the last level does not end with the response")
        }
        #expect(ConvolutionPlan(length: 50).levels.isEmpty)
        #expect(ConvolutionPlan(length: 65).levels.map(\.count) == [1])
    }
}
