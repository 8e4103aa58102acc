import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `vad` alone (`UnitHarness`): a steady tone in noise is not speech, speech-like bursts (a
/// 150 Hz voice with harmonics to 4 kHz, syllable-rate modulation) are, at 16 and 44.1 kHz; the
/// event lines' format and times; the gate's ramp and silence; the same bytes at every block
/// size; `get vad.active` while running; audio untouched without the gate; frame F1 in generated
/// babble (VoiceActivityBabbleTests.swift).
@Suite struct VoiceActivityTests {
    /// Seeded white noise at about −50 dBFS RMS.
    static func noise(_ count: Int, seed: UInt32 = 28) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return (Float(s >> 8) / Float(1 << 24) - 0.5) * 0.011
        }
    }

    /// Noise, a steady 1 kHz tone at −30 dBFS throughout, and speech-like bursts at −20 dBFS in `bursts` (seconds).
    static func signal(rate: Int, seconds: Double, bursts: [(Double, Double)], tone: Bool = false) -> [Float] {
        let n = Int(seconds * Double(rate))
        var x = noise(n)
        for i in 0..<n {
            let t = Double(i) / Double(rate)
            if tone { x[i] += Float(0.0316 * sin(2 * Double.pi * 1000 * t)) }
            guard bursts.contains(where: { t >= $0.0 && t < $0.1 }) else { continue }
            var v = 0.0
            for h in 1...26 { v += sin(2 * Double.pi * 150 * Double(h) * t) / Double(h) }
            let syllables = 0.6 + 0.4 * sin(2 * Double.pi * 4 * t)
            x[i] += Float(0.05 * syllables * v)
        }
        return x
    }

    static func mono(_ rate: Int) -> StreamFormat { StreamFormat(encoding: .f32le, sampleRate: rate, channels: 1) }

    static func temporary(_ name: String) -> String {
        TestScratch.root.appendingPathComponent("aupipe-vad-\(getpid())-\(name).jsonl").path
    }

    static func events(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func steadyToneInNoiseIsNotSpeech() throws {
        let path = Self.temporary("tone")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vad = try UnitHarness(["vad", "events=\(path)"], format: Self.mono(16000), registry: .standard)
        let input = Self.signal(rate: 16000, seconds: 4, bursts: [], tone: true)
        let out = try vad.run(input)
        #expect(out == input, "without gate= the audio passes untouched")
        #expect(try Self.events(path).isEmpty)
        #expect(vad.get("segments") == "0")
    }

    /// Digital silence, then noise: the noise is seeded and tracked from its own frames, not
    /// found as a rise over the silence (which took the old seed a second or more to climb out of).
    @Test func noiseAfterDigitalSilenceIsNotSpeech() throws {
        let vad = try UnitHarness(["vad"], format: Self.mono(16000), registry: .standard)
        let input = [Float](repeating: 0, count: 16000) + Self.noise(3 * 16000)
        _ = try vad.run(input)
        #expect(vad.get("segments") == "0")
    }

    /// One NaN, infinity or 1e20 sample in the middle of a burst: the segments are those of the
    /// clean input (the bad frames keep the last decision and move no tracker; a NaN once
    /// left no speech for the rest of the stream, a 1e20 all speech).
    @Test(arguments: [Float.nan, .infinity, 1e20])
    func oneBadSampleChangesNothing(bad: Float) throws {
        let clean = Self.signal(rate: 16000, seconds: 6, bursts: [(1.0, 2.0), (3.0, 4.0), (5.0, 5.6)])
        var input = clean
        input[Int(3.5 * 16000)] = bad
        let a = try UnitHarness(["vad"], format: Self.mono(16000), registry: .standard)
        let b = try UnitHarness(["vad"], format: Self.mono(16000), registry: .standard)
        _ = try a.run(clean)
        _ = try b.run(input)
        #expect(a.get("segments") == "3")
        #expect(b.get("segments") == a.get("segments") && b.get("speech-seconds") == a.get("speech-seconds"),
                "segments \(b.get("segments") ?? "-") speech \(b.get("speech-seconds") ?? "-") s against \(a.get("speech-seconds") ?? "-")")
    }

    @Test(arguments: [16000, 44100])
    func speechLikeBurstsAreFoundWithTheirTimes(rate: Int) throws {
        let path = Self.temporary("bursts\(rate)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vad = try UnitHarness(["vad", "events=\(path)", "hangover=100ms"], format: Self.mono(rate), registry: .standard)
        _ = try vad.run(Self.signal(rate: rate, seconds: 5, bursts: [(1, 2), (3, 4)], tone: true))
        let e = try Self.events(path)
        #expect(e.map { $0["event"] as? String } == ["start", "end", "start", "end"], "\(e)")
        guard e.count == 4 else { return }
        for (i, edge) in [(0, 1.0), (2, 3.0)] {
            let start = try #require(e[i]["t"] as? Double), end = try #require(e[i + 1]["t"] as? Double)
            #expect(abs(start - edge) <= 0.03, "start \(start) s, the burst's \(edge) s")
            // The end comes after the hangover (100 ms) and the 20 ms window's tail.
            #expect(end >= edge + 1.0 && end <= edge + 1.2, "end \(end) s, the burst's \(edge + 1) s")
            let frames = try #require(e[i + 1]["frames"] as? Int), first = try #require(e[i + 1]["start"] as? Int)
            #expect(first == e[i]["frame"] as? Int)
            #expect(frames == (e[i + 1]["frame"] as? Int ?? 0) - first)
            #expect(abs((e[i + 1]["seconds"] as? Double ?? 0) - Double(frames) / Double(rate)) < 0.0006)
        }
        #expect(vad.get("segments") == "2")
    }

    @Test func eventLineFormat() {
        var line = VoiceActivityEventLine()
        defer { line.deallocate() }
        line.end(frame: 120_000, start: 48_000, rate: 48000)
        #expect(String(decoding: UnsafeBufferPointer(start: line.bytes, count: line.count), as: UTF8.self)
                == "{\"event\":\"end\",\"frame\":120000,\"t\":2.500,\"start\":48000,\"frames\":72000,\"seconds\":1.500}\n")
        line.start(frame: 0, rate: 44100)
        #expect(String(decoding: UnsafeBufferPointer(start: line.bytes, count: line.count), as: UTF8.self)
                == "{\"event\":\"start\",\"frame\":0,\"t\":0.000}\n")
    }

    @Test func gateMutesWithAShortRamp() throws {
        let rate = 16000
        let path = Self.temporary("gate")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vad = try UnitHarness(["vad", "gate=1", "events=\(path)"], format: Self.mono(rate), registry: .standard)
        let input = Self.signal(rate: rate, seconds: 3, bursts: [(1, 2)])
        let out = try vad.run(input)
        #expect(out.count == input.count, "exact length")
        #expect(out[0..<rate].allSatisfy { $0 == 0 }, "noise before the burst is muted")
        #expect(out[(Int(1.5 * Double(rate)))..<(Int(1.6 * Double(rate)))] == input[(Int(1.5 * Double(rate)))..<(Int(1.6 * Double(rate)))])
        #expect(out[(Int(2.5 * Double(rate)))...].allSatisfy { $0 == 0 }, "noise after the hangover is muted")
        // The opening ramp: from the first non-zero sample, the gain out/in rises by 1/80 per sample (5 ms at 16 kHz).
        let first = try #require(out.firstIndex { $0 != 0 })
        let ramp = Int(VoiceActivityUnit.rampSeconds * Double(rate))
        for i in first..<(first + ramp) where abs(input[i]) > 1e-3 {
            let gain = out[i] / input[i]
            #expect(abs(gain - Float(i - first + 1) / Float(ramp)) < 1e-4, "gain \(gain) at \(i - first)")
        }
        #expect(out[first + ramp] == input[first + ramp])
    }

    @Test func sameBytesAtEveryBlockSize() throws {
        let input = Self.signal(rate: 16000, seconds: 3, bursts: [(0.7, 1.4), (2, 2.6)])
        var results: [([Float], String)] = []
        for block in [1, 7, 480, 4096] {
            let path = Self.temporary("block\(block)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let vad = try UnitHarness(["vad", "gate=1", "events=\(path)"], format: Self.mono(16000), block: block, registry: .standard)
            let out = try vad.run(input)
            results.append((out, try String(contentsOfFile: path, encoding: .utf8)))
        }
        #expect(results[0].1.split(separator: "\n").count == 4)
        for r in results.dropFirst() {
            #expect(r.0 == results[0].0)
            #expect(r.1 == results[0].1)
        }
    }

    @Test func activeReadsWhileRunning() throws {
        let rate = 16000
        let path = Self.temporary("live")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vad = try UnitHarness(["vad", "events=\(path)"], format: Self.mono(rate), registry: .standard)
        let x = Self.signal(rate: rate, seconds: 3, bursts: [(1, 2)])
        try vad.push(Array(x[0..<(rate / 2)]))
        #expect(vad.get("active") == "0")
        try vad.push(Array(x[(rate / 2)..<(3 * rate / 2)]))
        #expect(vad.get("active") == "1")
        try vad.push(Array(x[(3 * rate / 2)...]))
        #expect(vad.get("active") == "0")
        #expect(vad.get("threshold") == "0.5")
    }
}
