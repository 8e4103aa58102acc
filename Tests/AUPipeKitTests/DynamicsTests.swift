import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `compressor` and `gate` alone (`UnitHarness`): the static curve on stepped 1 kHz tones
/// within 0.1 dB of the formula (hard and soft knee, rms and peak detectors, the expander), the
/// attack and release time constants within 10 % of the setting, a look-ahead that keeps an
/// impulse on its sample, a side chain that ducks a tone under a voice by the curve's amount,
/// and `makeup=auto`.
@Suite struct DynamicsTests {
    static let rate = 48000
    static let mono = StreamFormat(encoding: .f32le, sampleRate: rate, channels: 1)

    /// A 1 kHz sine of peak level `dB` dBFS (0 dBFS: a full-scale sine), `frames` long, from `phase` frames.
    static func tone(_ dB: Double, frames: Int, from start: Int = 0, frequency: Double = 1000) -> [Float] {
        let a = pow(10, dB / 20)
        return (0..<frames).map { Float(a * sin(2 * Double.pi * frequency * Double(start + $0) / Double(rate))) }
    }

    /// The level of `x[range]` in dBFS as AES17 reads it: 10·log10(2 · mean x²).
    static func level(_ x: [Float], _ range: Range<Int>) -> Double {
        var s = 0.0
        for i in range { s += Double(x[i]) * Double(x[i]) }
        return 10 * log10(2 * s / Double(range.count))
    }

    /// The soft-knee curve of the help text, computed here from its formula.
    static func compressed(_ x: Double, threshold t: Double, ratio r: Double, knee w: Double) -> Double {
        if w > 0 && 2 * abs(x - t) <= w { return x + (1 / r - 1) * pow(x - t + w / 2, 2) / (2 * w) }
        return x > t ? t + (x - t) / r : x
    }

    /// Steps of 0.3 s of a 1 kHz tone from −50 to 0 dBFS by 2 dB; each step's level out is read
    /// over its last 100 ms (whole periods) and compared with `expected`.
    static func checkStatic(_ words: [String], expected: (Double) -> Double) throws {
        let step = rate * 3 / 10, read = rate / 10
        let levels = stride(from: -50.0, through: 0, by: 2).map { $0 }
        var input: [Float] = []
        for (i, l) in levels.enumerated() { input += tone(l, frames: step, from: i * step) }
        let out = try UnitHarness(words, format: mono).run(input)
        #expect(out.count == input.count)
        for (i, l) in levels.enumerated() {
            let got = level(out, (i + 1) * step - read..<(i + 1) * step)
            #expect(abs(got - expected(l)) <= 0.1, "\(words.joined(separator: " ")): \(l) dBFS in, \(got) out, \(expected(l)) by the formula")
        }
    }

    @Test(arguments: ["rms", "peak"], [0.0, 10.0])
    func staticCurveIsTheFormula(detector: String, knee: Double) throws {
        try Self.checkStatic(["compressor", "threshold=-20", "ratio=4", "knee=\(formatNumber(knee))", "detector=\(detector)", "attack=5ms", "release=20ms"]) {
            Self.compressed($0, threshold: -20, ratio: 4, knee: knee)
        }
    }

    @Test func expanderCurveIsTheFormula() throws {
        // ratio 2, range -30: 1 dB under -30 gives 2 dB under, never deeper than -30 dB of gain.
        try Self.checkStatic(["gate", "threshold=-30", "ratio=2", "range=-30", "hysteresis=0", "hold=0", "attack=2ms", "release=10ms"]) {
            $0 >= -30 ? $0 : $0 + max(-30, ($0 + 30))
        }
    }

    @Test func automaticMakeupBringsFullScaleBackToFullScale() throws {
        let out = try UnitHarness(["compressor", "threshold=-30", "ratio=3", "knee=6", "makeup=auto"], format: Self.mono)
            .run(Self.tone(0, frames: Self.rate / 2))
        #expect(abs(Self.level(out, Self.rate / 4..<Self.rate / 2)) <= 0.05)
    }

    /// The time from `from` until the gain (dB, out/in of a square wave) has covered 63.2 % of
    /// its way from `before` to `after`.
    static func timeConstant(_ gainDB: [Double], from: Int, before: Double, after: Double) -> Double? {
        let mark = before + (after - before) * (1 - exp(-1))
        for i in from..<gainDB.count where (after < before) ? gainDB[i] <= mark : gainDB[i] >= mark {
            return Double(i - from) / Double(rate)
        }
        return nil
    }

    /// A 1 kHz square wave (|x| constant, so a peak detector reads it at once) at `low`, then
    /// `high` from 0.5 s, then `low` from 1.5 s; the gain out/in per frame in dB.
    static func squareSteps(_ words: [String], low: Double, high: Double) throws -> [Double] {
        let a = pow(10, low / 20), b = pow(10, high / 20)
        let input: [Float] = (0..<2 * rate).map { i in
            let level = i >= rate / 2 && i < 3 * rate / 2 ? b : a
            return Float((i / 24) % 2 == 0 ? level : -level)
        }
        let out = try UnitHarness(words, format: mono).run(input)
        return zip(out, input).map { 20 * log10(Double(abs($0)) / Double(abs($1))) }
    }

    @Test(arguments: [(20.0, 100.0), (5.0, 300.0)])
    func compressorTimeConstantsAreTheSettings(attackMS: Double, releaseMS: Double) throws {
        // threshold -30, ratio 4, hard knee: -26 dBFS gives -3 dB, -6 dBFS gives -18 dB.
        let g = try Self.squareSteps(["compressor", "threshold=-30", "ratio=4", "knee=0", "detector=peak",
                                      "attack=\(formatNumber(attackMS))ms", "release=\(formatNumber(releaseMS))ms"], low: -26, high: -6)
        let attack = try #require(Self.timeConstant(g, from: Self.rate / 2, before: -3, after: -18))
        // The release starts when the last loud peak leaves the detector's 10 ms window.
        let window = Int(LevelDetector.windowSeconds * Double(Self.rate))
        let release = try #require(Self.timeConstant(g, from: 3 * Self.rate / 2 + window - 1, before: -18, after: -3))
        #expect(abs(attack * 1000 - attackMS) <= 0.1 * attackMS, "attack \(attack * 1000) ms for \(attackMS)")
        #expect(abs(release * 1000 - releaseMS) <= 0.1 * releaseMS, "release \(release * 1000) ms for \(releaseMS)")
    }

    @Test func gateTimeConstantsAreTheSettings() throws {
        // Opens at -30 (from -60, gain -40 dB), closes after hold 0 once below -30 - 6.
        let g = try Self.squareSteps(["gate", "threshold=-30", "range=-40", "hysteresis=6", "hold=0", "detector=peak",
                                      "attack=10ms", "release=50ms"], low: -60, high: -20)
        let attack = try #require(Self.timeConstant(g, from: Self.rate / 2, before: -40, after: 0))
        let window = Int(LevelDetector.windowSeconds * Double(Self.rate))
        let release = try #require(Self.timeConstant(g, from: 3 * Self.rate / 2 + window, before: 0, after: -40))
        #expect(abs(attack * 1000 - 10) <= 1, "attack \(attack * 1000) ms")
        #expect(abs(release * 1000 - 50) <= 5, "release \(release * 1000) ms")
    }

    @Test func gateHoldsOpenForHold() throws {
        let g = try Self.squareSteps(["gate", "threshold=-30", "range=-40", "hysteresis=0", "hold=100ms", "detector=peak",
                                      "attack=0", "release=0"], low: -60, high: -20)
        let window = Int(LevelDetector.windowSeconds * Double(Self.rate))
        let fall = 3 * Self.rate / 2 + window
        // Open (0 dB) through the hold, closed (-40 dB) right after it.
        #expect(abs(g[fall + Self.rate / 10 - 2]) < 0.01)
        #expect(abs(g[fall + Self.rate / 10 + 2] + 40) < 0.01)
    }

    @Test(arguments: [1, 7, 480, 4096])
    func lookaheadKeepsAnImpulseOnItsSample(block: Int) throws {
        var input = [Float](repeating: 0, count: 8000)
        input[3000] = 0.9
        let h = try UnitHarness(["compressor", "threshold=-30", "ratio=10", "attack=0", "lookahead=5ms", "detector=peak"], format: Self.mono, block: block)
        let out = try h.run(input)
        #expect(out.count == input.count)
        let peak = out.indices.max { abs(out[$0]) < abs(out[$1]) }
        #expect(peak == 3000)
        // The gain was down when the impulse came out: 0.9 (-0.9 dBFS) comes out near -27 dBFS.
        #expect(abs(20 * log10(Double(out[3000])) - Self.compressed(20 * log10(0.9), threshold: -30, ratio: 10, knee: 6)) < 0.1)
        #expect(out.enumerated().allSatisfy { $0.offset == 3000 || $0.element == 0 })
    }

    /// A voice-like side chain: a 200 Hz fundamental and four harmonics (whole periods in the
    /// 10 ms window, so its level is exact), talking from 1 s to 2 s of a 3 s stream.
    static func voice(frames: Int) -> (samples: [Float], levelDB: Double) {
        let amplitudes = [0.2, 0.15, 0.1, 0.06, 0.04]
        let samples: [Float] = (0..<frames).map { i in
            guard i >= rate && i < 2 * rate else { return 0 }
            let t = Double(i) / Double(rate)
            return Float(amplitudes.enumerated().reduce(0) { $0 + $1.element * sin(2 * Double.pi * 200 * Double($1.offset + 1) * t) })
        }
        return (samples, 10 * log10(amplitudes.reduce(0) { $0 + $1 * $1 }))
    }

    @Test func sidechainDucksAToneUnderAVoice() throws {
        let dir = TestScratch.root.appendingPathComponent("aupipe-dynamics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 3 * Self.rate
        let (v, voiceDB) = Self.voice(frames: frames)
        let path = dir.appendingPathComponent("voice.wav").path
        try Data(TestSignals.wav(v, Self.mono)).write(to: URL(fileURLWithPath: path))
        let music = Self.tone(-20, frames: frames)
        let out = try UnitHarness(["compressor", "sidechain=\(path)", "threshold=-40", "ratio=4", "knee=0", "attack=10ms", "release=50ms"],
                                  format: Self.mono).run(music)
        let duck = Self.compressed(voiceDB, threshold: -40, ratio: 4, knee: 0) - voiceDB
        let under = Self.level(out, Self.rate * 3 / 2..<2 * Self.rate)
        let before = Self.level(out, Self.rate / 2..<Self.rate)
        let after = Self.level(out, Self.rate * 5 / 2 + Self.rate / 4..<3 * Self.rate)
        #expect(abs(under - (-20 + duck)) <= 0.1, "ducked to \(under) dBFS, \(-20 + duck) expected (voice at \(voiceDB) dBFS)")
        #expect(abs(before + 20) <= 0.01 && abs(after + 20) <= 0.1, "\(before), \(after)")
    }

    @Test func sidechainOfStdinIsRefused() throws {
        #expect(throws: AUPipeError.self) { try UnitHarness(["compressor", "sidechain=-"], format: Self.mono) }
    }

    @Test func reductionIsReadable() throws {
        let h = try UnitHarness(["compressor", "threshold=-20", "ratio=4", "knee=0"], format: Self.mono)
        _ = try h.run(Self.tone(0, frames: Self.rate / 2))
        // 0 dBFS at -20, 4:1: 15 dB down.
        #expect(h.get("reduction").flatMap(Double.init).map { abs($0 - 15) < 0.01 } == true)
        #expect(h.statsFigures.first { $0.name == "maxReductionDB" }?.value == 15)
    }

    @Test(arguments: ["compressor", "gate"])
    func nonFiniteSamplesDoNotStickInTheGain(unit: String) throws {
        var input = Self.tone(-10, frames: Self.rate)
        input[1000] = .nan
        input[2000] = .infinity
        let out = try UnitHarness([unit, "threshold=-30", "detector=peak", "release=5ms"], format: Self.mono).run(input)
        #expect(out[1000].isNaN && out[2000].isInfinite, "they pass through as they are")
        // Half a second later the gain is the curve's again, a finite number.
        let clean = try UnitHarness([unit, "threshold=-30", "detector=peak", "release=5ms"], format: Self.mono).run(Self.tone(-10, frames: Self.rate))
        #expect(abs(Self.level(out, Self.rate / 2..<Self.rate) - Self.level(clean, Self.rate / 2..<Self.rate)) < 0.01)
    }

    /// A NaN, an infinity and a sample of 1e20 into the limiter: the run and its report finish
    /// (the report once crashed on an infinite reduction), the infinity and the 1e20 come out at
    /// the ceiling, the NaN as it is, every other sample within the ceiling, the deepest reduction
    /// at the gain's floor (120 dB), and half a second later the output is the clean run's.
    @Test func limiterTakesNonFiniteAndHugeSamples() throws {
        var input = Self.tone(-3, frames: Self.rate)
        input[1000] = .nan
        input[2000] = .infinity
        input[3000] = 1e20
        let h = try UnitHarness(["limiter", "-6"], format: Self.mono)
        let out = try h.run(input)
        let ceiling = Float(pow(10, -6.0 / 20))
        #expect(out.count == input.count)
        #expect(out[1000].isNaN && abs(out[2000]) == ceiling && abs(out[3000]) == ceiling)
        #expect(out.allSatisfy { $0.isNaN || abs($0) <= ceiling }, "a sample over the ceiling")
        #expect(h.statsNote?.contains("deepest 120.0 dB") == true, "\(h.statsNote ?? "no note")")
        #expect(h.get("deepest-reduction") == "120.00")
        let clean = try UnitHarness(["limiter", "-6"], format: Self.mono).run(Self.tone(-3, frames: Self.rate))
        #expect(Array(out[(Self.rate / 2)...]) == Array(clean[(Self.rate / 2)...]))
    }

    @Test func gateOpensOnItsSidechain() throws {
        let dir = TestScratch.root.appendingPathComponent("aupipe-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 3 * Self.rate
        let path = dir.appendingPathComponent("voice.wav").path
        try Data(TestSignals.wav(Self.voice(frames: frames).samples, Self.mono)).write(to: URL(fileURLWithPath: path))
        let out = try UnitHarness(["gate", "sidechain=\(path)", "threshold=-30", "range=-40", "hold=0", "attack=1ms", "release=10ms"],
                                  format: Self.mono).run(Self.tone(-20, frames: frames))
        // Closed (-40 dB) before the voice, open while it talks, closed again after it.
        #expect(abs(Self.level(out, Self.rate / 2..<Self.rate) + 60) <= 0.01)
        #expect(abs(Self.level(out, Self.rate * 3 / 2..<2 * Self.rate) + 20) <= 0.01)
        #expect(abs(Self.level(out, Self.rate * 5 / 2..<3 * Self.rate) + 60) <= 0.01)
    }

    @Test func linkMaxSharesTheGainAndNoneDoesNot() throws {
        let stereo = StreamFormat(encoding: .f32le, sampleRate: Self.rate, channels: 2)
        let loud = Self.tone(0, frames: Self.rate / 2), quiet = Self.tone(-40, frames: Self.rate / 2)
        var input: [Float] = []
        for i in 0..<loud.count { input += [loud[i], quiet[i]] }
        func right(_ link: String) throws -> Double {
            let out = try UnitHarness(["compressor", "threshold=-20", "ratio=4", "knee=0", "link=\(link)"], format: stereo).run(input)
            let r = stride(from: 1, to: out.count, by: 2).map { out[$0] }
            return Self.level(r, Self.rate / 4..<Self.rate / 2)
        }
        // 0 dBFS on the left takes 15 dB off both with link=max; the right alone is below the threshold.
        #expect(abs(try right("max") + 55) <= 0.01)
        #expect(abs(try right("none") + 40) <= 0.01)
    }
}
