import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits
@testable import AUPipeGraph

/// `vad` against labels in babble: a generated near talker (voiced syllables with pauses between
/// utterances) over a babble of six other generated talkers, 10 dB under it; frame F1 against
/// labels from the clean talker (the bench's definition: energy within 30 dB of the active
/// level, 50 ms hangover). Deterministic: seeded generators, no peer tool.
extension VoiceActivityTests {
    /// A seeded generator (numerical recipes' LCG), uniform in 0..<1.
    struct Seeded {
        var state: UInt32
        mutating func next() -> Double {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Double(state >> 8) / Double(1 << 24)
        }
        mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
    }

    /// A talker at `rate`: utterances of 3–9 voiced syllables (120–260 ms, harmonics of a pitch
    /// near `pitch` Hz to 4 kHz under two formant peaks that move per syllable, raised-cosine
    /// envelopes, 30–90 ms between syllables), `pause` seconds between utterances.
    static func talker(rate: Int, seconds: Double, pitch: Double, pause: ClosedRange<Double>, seed: UInt32) -> [Float] {
        var g = Seeded(state: seed)
        let n = Int(seconds * Double(rate))
        var x = [Float](repeating: 0, count: n)
        var pos = Int(g.uniform(0, 0.5) * Double(rate))
        while pos < n {
            for _ in 0..<Int(g.uniform(3, 10)) {
                let length = Int(g.uniform(0.12, 0.26) * Double(rate))
                let f0 = pitch * g.uniform(0.85, 1.2), glide = g.uniform(-0.2, 0.2)
                let f1 = g.uniform(300, 900), f2 = g.uniform(900, 2500)
                let harmonics = Int(4000 / f0)
                for i in 0..<length where pos + i < n {
                    let t = Double(i) / Double(rate), u = Double(i) / Double(length)
                    let envelope = 0.5 - 0.5 * cos(2 * Double.pi * u)
                    let phase = 2 * Double.pi * f0 * (t + glide * t * u / 2)
                    var v = 0.0
                    for h in 1...harmonics {
                        let f = f0 * Double(h)
                        let shape = 1 / (1 + pow((f - f1) / 150, 2)) + 0.5 / (1 + pow((f - f2) / 250, 2)) + 0.02
                        v += shape * sin(Double(h) * phase)
                    }
                    x[pos + i] += Float(envelope * v)
                }
                pos += length + Int(g.uniform(0.03, 0.09) * Double(rate))
            }
            pos += Int(g.uniform(pause.lowerBound, pause.upperBound) * Double(rate))
        }
        return x
    }

    /// Mean power of the 20 ms frames within 30 dB of the loudest (the active level).
    static func activePower(_ x: [Float], rate: Int) -> Double {
        let f = rate / 50
        let powers = stride(from: 0, to: x.count - f + 1, by: f).map { s in x[s..<(s + f)].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(f) }
        let loud = powers.max() ?? 0
        let active = powers.filter { $0 > loud * 1e-3 }
        return active.reduce(0, +) / Double(max(1, active.count))
    }

    /// Per 10 ms frame: speech when the frame's power is within 30 dB of the active level, held 5 frames.
    static func labels(_ clean: [Float], rate: Int) -> [Bool] {
        let f = rate / 100, level = activePower(clean, rate: rate)
        var left = 0
        return stride(from: 0, to: clean.count - f + 1, by: f).map { s in
            let p = clean[s..<(s + f)].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(f)
            left = p > level * 1e-3 ? 6 : max(0, left - 1)
            return left > 0
        }
    }

    static func f1(_ ref: [Bool], _ hyp: [Bool]) -> Double {
        var tp = 0, fp = 0, fn = 0
        for (r, h) in zip(ref, hyp) { if r && h { tp += 1 } else if h { fp += 1 } else if r { fn += 1 } }
        return 2 * Double(tp) / Double(max(1, 2 * tp + fp + fn))
    }

    @Test func framesF1InBabbleBeatsCallingEverythingSpeech() throws {
        let rate = 16000, seconds = 20.0
        let clean = Self.talker(rate: rate, seconds: seconds, pitch: 140, pause: 0.6...2.5, seed: 1)
        var babble = [Float](repeating: 0, count: clean.count)
        for (k, pitch) in [105.0, 120, 180, 210, 95, 230].enumerated() {
            let other = Self.talker(rate: rate, seconds: seconds, pitch: pitch, pause: 0.05...0.3, seed: UInt32(100 + k))
            let scale = Float(1 / sqrt(Self.activePower(other, rate: rate)))
            for i in babble.indices { babble[i] += other[i] * scale }
        }
        // The talker at −26 dBFS active, the babble 10 dB under it (RMS against the active level).
        let speechScale = Float(0.05 / sqrt(Self.activePower(clean, rate: rate)))
        let babblePower = babble.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(babble.count)
        let babbleScale = Float(0.05 * pow(10, -10.0 / 20) / sqrt(babblePower))
        let input = zip(clean, babble).map { $0 * speechScale + $1 * babbleScale }
        let ref = Self.labels(clean, rate: rate)
        let share = Double(ref.filter { $0 }.count) / Double(ref.count)
        #expect(share > 0.35 && share < 0.75, "the talker speaks in \(share) of the frames")

        let path = Self.temporary("babble")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vad = try UnitHarness(["vad", "events=\(path)"], format: Self.mono(rate), registry: .standard)
        _ = try vad.run(input)
        var hyp = [Bool](repeating: false, count: ref.count)
        for e in try Self.events(path) where e["event"] as? String == "end" {
            let start = try #require(e["start"] as? Int) / (rate / 100), end = try #require(e["frame"] as? Int) / (rate / 100)
            for k in start..<min(end, hyp.count) { hyp[k] = true }
        }
        let score = Self.f1(ref, hyp), everything = Self.f1(ref, ref.map { _ in true })
        // Calling every frame speech (what a noise floor settled in babble's dips gives; 0.663
        // here) scores `everything`; the detector must separate the talker from the babble above
        // that (0.766 when this test was written; the bounds leave room for small changes, not for a
        // detector that takes babble for speech).
        #expect(score >= 0.73, "F1 \(score), every frame speech \(everything)")
        #expect(score >= everything + 0.06, "F1 \(score), every frame speech \(everything)")
    }
}
