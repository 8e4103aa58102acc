import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `silence` on speech-like sound (EchoScene.speech: syllables with natural pauses of
/// 50–300 ms) with long silences inserted: no speech frame is cut, long pauses come out as
/// keep=, the events say exactly what was cut, and the bytes do not depend on the block size.
@Suite struct SilenceTests {
    static let rate = 16000
    static let format = StreamFormat(encoding: .f32le, sampleRate: rate, channels: 1)
    static func frames(_ seconds: Double) -> Int { Int((seconds * Double(rate)).rounded()) }

    /// The inserted silences, seconds: before, between and after three stretches of speech.
    static let silences = [1.0, 2.5, 1.7, 2.0]
    /// Speech, silence inserted, and where each inserted silence starts and ends (frames).
    static let scene: (samples: [Float], inserted: [Range<Int>]) = {
        var out: [Float] = [], inserted: [Range<Int>] = []
        for (i, gap) in silences.enumerated() {
            let start = out.count
            out += [Float](repeating: 0, count: frames(gap))
            inserted.append(start..<out.count)
            if i < silences.count - 1 { out += EchoScene.speech(seconds: 3, seed: UInt64(100 + i)) }
        }
        return (out, inserted)
    }()

    /// Speech labels from the clean signal's energy: a 10 ms frame whose RMS is above −60 dBFS
    /// is speech, and so are the 20 ms after it (a hangover).
    static func labels(_ x: [Float]) -> [Bool] {
        let window = frames(0.01), hangover = frames(0.02), floor = Float(0.001)
        var speech = [Bool](repeating: false, count: x.count)
        var last = -Int.max / 2
        var start = 0
        while start < x.count {
            let end = min(x.count, start + window)
            let rms = (x[start..<end].reduce(Float(0)) { $0 + $1 * $1 } / Float(end - start)).squareRoot()
            if rms > floor { last = end }
            for n in start..<end where rms > floor || n < last + hangover { speech[n] = true }
            start = end
        }
        return speech
    }

    static func run(_ arguments: [String], block: Int = 480, samples: [Float] = scene.samples) throws -> (output: [Float], unit: SilenceUnit) {
        let descriptor = try UnitRegistry.standard.descriptor(named: "silence")
        let unit = try #require(try descriptor.instantiate(arguments) as? SilenceUnit)
        let harness = try UnitHarness(unit, format: format, block: block)
        return (try harness.run(samples), unit)
    }

    static let settings = ["pause=0.5", "keep=200ms", "pad=100ms", "hold=20ms"]

    @Test func noSpeechFrameIsCutAndTheOutputIsTheInputLessTheCuts() throws {
        let (output, unit) = try Self.run(["threshold=-50dB"] + Self.settings)
        let speech = Self.labels(Self.scene.samples)
        #expect(!unit.cuts.isEmpty)
        var rebuilt: [Float] = [], from = 0
        for cut in unit.cuts {
            let cutSpeech = (Int(cut.start)..<Int(cut.end)).filter { speech[$0] }
            #expect(cutSpeech.isEmpty, "cut \(cut.start)-\(cut.end) takes \(cutSpeech.count) speech frames, the first at \(cutSpeech.first ?? -1)")
            rebuilt += Self.scene.samples[from..<Int(cut.start)]
            from = Int(cut.end)
        }
        rebuilt += Self.scene.samples[from...]
        #expect(output == rebuilt, "the output is not the input without the cuts (\(output.count) frames against \(rebuilt.count))")
    }

    @Test func longPausesComeOutAsKeepAndTheEndsAsPad() throws {
        let (output, unit) = try Self.run(["threshold=-50dB"] + Self.settings)
        let speech = Self.labels(output)
        // The quiet runs between labelled speech in the output, and at its ends.
        var gaps: [Int] = [], run = 0
        for s in speech { if s { gaps.append(run); run = 0 } else { run += 1 } }
        gaps.append(run)
        let leading = gaps.first!, trailing = gaps.last!
        let interior = gaps.dropFirst().dropLast().filter { $0 > 0 }
        // The inserted silences (2.5 s and 1.7 s) now last keep=200ms, within 10 ms; the
        // natural pauses (50–300 ms, under pause=) are as they were.
        let tolerance = Self.frames(0.01), keep = Self.frames(0.2)
        let shortened = interior.filter { abs($0 - keep) <= tolerance }
        #expect(interior.allSatisfy { $0 < Self.frames(0.5) }, "a pause longer than pause= is left: \(interior.max() ?? 0) frames")
        #expect(shortened.count >= 2 && interior.count > 20, "the two inserted pauses do not come out as keep=200ms ± 10 ms: gaps \(interior)")
        // And it is those two that came out so: each inserted pause holds a cut; where that cut
        // lands in the output, the pause around it (by the labels) is keep= within 10 ms.
        for inserted in Self.scene.inserted.dropFirst().dropLast() {
            let cut = try #require(unit.cuts.first { inserted.contains(Int($0.start)) }, "no cut in the pause at \(inserted)")
            let removedBefore = unit.cuts.filter { $0.end <= cut.start }.reduce(0) { $0 + Int($1.end - $1.start) }
            let at = Int(cut.start) - removedBefore
            var lo = at, hi = at
            while lo > 0, !speech[lo - 1] { lo -= 1 }
            while hi < speech.count, !speech[hi] { hi += 1 }
            #expect(abs(hi - lo - keep) <= tolerance, "the pause at \(inserted) came out \(hi - lo) frames, keep= is \(keep)")
        }
        let pad = Self.frames(0.1)
        #expect(abs(leading - pad) <= tolerance, "leading silence \(leading) frames, pad= is \(pad)")
        #expect(abs(trailing - pad) <= tolerance, "trailing silence \(trailing) frames, pad= is \(pad)")
    }

    @Test func eventsListEachCutAsItWasMade() throws {
        let dir = TestScratch.root.appendingPathComponent("aupipe-silence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cuts.jsonl").path
        let (_, unit) = try Self.run(["threshold=-50dB"] + Self.settings + ["events=\(path)"])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == unit.cuts.count)
        var removed: Int64 = 0
        for (line, cut) in zip(lines, unit.cuts) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            let c = try #require(object["cut"] as? [String: Int64])
            #expect(c["start"] == cut.start && c["end"] == cut.end, "\(line) against \(cut)")
            let seconds = try #require(object["seconds"] as? [Double])
            #expect(abs(seconds[0] - Double(cut.start) / Double(Self.rate)) < 1e-6 && abs(seconds[1] - Double(cut.end) / Double(Self.rate)) < 1e-6, "\(line)")
            // Where the cut falls in the output: its start less what was cut before it.
            #expect((object["output"] as? Int64) == cut.start - removed, "\(line)")
            removed += cut.end - cut.start
        }
    }

    @Test func theBytesDoNotDependOnTheBlockSize() throws {
        let reference = try Self.run(Self.settings + ["threshold=-30rel"], block: 4096)
        for block in [1, 7, 480] {
            let other = try Self.run(Self.settings + ["threshold=-30rel"], block: block)
            #expect(other.output.map(\.bitPattern) == reference.output.map(\.bitPattern), "block \(block) differs from 4096")
            #expect(other.unit.cuts.map { [$0.start, $0.end] } == reference.unit.cuts.map { [$0.start, $0.end] })
        }
        #expect(reference.output.count < Self.scene.samples.count - Self.frames(5))
    }

    /// Speech frames (by the labels) inside the cuts.
    static func speechCut(_ cuts: [(start: Int64, end: Int64)], _ speech: [Bool]) -> Int {
        cuts.reduce(0) { n, cut in n + (Int(cut.start)..<Int(cut.end)).filter { speech[$0] }.count }
    }

    @Test func aRelativeThresholdFollowsTheLoudness() throws {
        // The scene 30 dB quieter (its speech labelled before): -50dB loses speech in it,
        // -30rel (30 dB under the running loudness) none.
        let quiet = Self.scene.samples.map { $0 * 0.0316 }
        let speech = Self.labels(Self.scene.samples)
        let relative = try Self.run(Self.settings + ["threshold=-30rel"], samples: quiet)
        let absolute = try Self.run(["threshold=-50dB"] + Self.settings, samples: quiet)
        #expect(Self.speechCut(relative.unit.cuts, speech) == 0)
        #expect(relative.output.count < quiet.count - Self.frames(5), "-30rel cut only \(quiet.count - relative.output.count) frames")
        #expect(Self.speechCut(absolute.unit.cuts, speech) > 0, "-50dB on speech 30 dB quieter cut no speech: the comparison shows nothing")
    }

    /// One infinite (or 1e20) sample does not hold the running loudness up: the relative
    /// threshold cuts what it cuts without it (it once cut the whole stream after one).
    @Test(arguments: [Float.infinity, 1e20])
    func aRelativeThresholdSurvivesOneBadSample(bad: Float) throws {
        var samples = Self.scene.samples
        let at = Self.frames(1)
        samples[at] = bad
        let plain = try Self.run(Self.settings + ["threshold=-30rel"])
        let spiked = try Self.run(Self.settings + ["threshold=-30rel"], samples: samples)
        #expect(spiked.output.count == plain.output.count, "\(spiked.output.count) frames out against \(plain.output.count)")
    }

    /// threshold= changed halfway: the first half is cut as the old threshold cuts it, the
    /// second as the new one does; get reads the cuts; keep= beyond what the run's memory
    /// holds is one line.
    @Test func thresholdHoldAndKeepAreLive() throws {
        let samples = Self.scene.samples
        let half = Self.scene.inserted[2].lowerBound   // inside the long pause before the last speech
        func live(_ change: (SilenceUnit) throws -> Void) throws -> (output: [Float], unit: SilenceUnit) {
            let unit = try #require(try UnitRegistry.standard.descriptor(named: "silence").instantiate(["threshold=-50dB"] + Self.settings) as? SilenceUnit)
            let harness = try UnitHarness(unit, format: Self.format, block: 480)
            var output = try harness.push(Array(samples[..<half]))
            try change(unit)
            output += try harness.push(Array(samples[half...]))
            output += try harness.drain()
            #expect(harness.get("cuts") == String(unit.cuts.count))
            #expect(harness.get("removed") == String(Double(unit.framesCut) / Double(Self.rate), decimals: 3))
            return (output, unit)
        }
        let fixed = try Self.run(["threshold=-50dB"] + Self.settings)
        // -6 dBFS: the speech after the change is mostly quiet, so far more is cut there.
        let raised = try live { try $0.setParameter("threshold", to: .text("-6dB")) }
        #expect(raised.unit.threshold == .absolute(-6))
        let before = fixed.unit.cuts.filter { $0.end <= Int64(half) }.map { [$0.start, $0.end] }
        #expect(raised.unit.cuts.filter { $0.end <= Int64(half) }.map { [$0.start, $0.end] } == before, "the cuts before the change moved")
        #expect(raised.unit.framesCut > fixed.unit.framesCut + Int64(Self.frames(1)),
                "raising the threshold halfway cut \(raised.unit.framesCut) frames against \(fixed.unit.framesCut)")
        // keep=100ms from the middle on: the last long pause comes out 100 ms long, not 200.
        let shorter = try live { try $0.setParameter("keep", to: .duration(.milliseconds(100))) }
        #expect(shorter.output.count == fixed.output.count - Self.frames(0.1), "\(shorter.output.count) against \(fixed.output.count)")
        // hold=0 from the middle on changes nothing before it.
        let unheld = try live { try $0.setParameter("hold", to: .duration(.seconds(0))) }
        #expect(unheld.unit.cuts.filter { $0.end <= Int64(half) }.map { [$0.start, $0.end] } == before)
        #expect(throws: AUPipeError.self) { _ = try live { try $0.setParameter("keep", to: .duration(.seconds(5))) } }
        do {
            _ = try live { try $0.setParameter("pause", to: .duration(.seconds(2))) }
            Issue.record("pause= was changed live")
        } catch let error as AUPipeError {
            #expect(error.message == "silence: pause is not live")
        }
    }

    @Test(arguments: [
        (["keep=2", "pause=1"], "keep=2s is longer than pause=1s"),
        (["threshold=-30foo"], "threshold=-30foo is not a level"),
        (["threshold=-70rel"], "threshold=-70rel is out of range"),
        (["trim=middle"], "trim=middle"),
    ])
    func badSettingsAreOneLine(arguments: [String], message: String) throws {
        do {
            _ = try Self.run(arguments)
            Issue.record("silence \(arguments) was accepted")
        } catch let error as AUPipeError {
            let text = error.message
            #expect(text.hasPrefix("silence:") && text.contains(message) && !text.contains("\n"), "\(text)")
            #expect(error.status == .usage)
        }
    }
}
