import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `aec`'s comfort noise (`comfort=on`, issue 26 "no dead air") on a small scene: pink noise at
/// 30 dB SNR under the near end's level (−54 dBFS), a room of RT60 0.3 s at 40 ms, no near
/// talker, the far end talking but for a gap of 6–9 s (bench/aec/scenes.py's layout, shorter).
///
/// Per third-octave band (125 Hz ... 6.3 kHz, 1024-sample Hann frames), against the output's
/// background while the far end is silent (7.5–9 s, its echo's tail gone): the output in
/// far-end single talk (10–14 s) no more than 3 dB under it, the comfort noise added there
/// (comfort=on's output less comfort=off's: nothing before the comfort noise depends on it) no
/// more than 3 dB over it. (Phase inversion cannot tell the background from the residual echo
/// here: the suppressors' decisions follow the noise too.) No 1 s window of
/// far-end single talk after that silence (10–14 s) may be more than half exact zeros. (Before
/// the far end's first silence there is no background to match: nothing is added then.)
@Suite(.tags(.scenes)) final class ComfortNoiseSceneTests {
    let dir: URL
    static let rate = 16000, seconds = 14.0, gap = 6.0..<9.0, snrDB = 30.0
    static let count = Int(seconds * Double(rate))

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("aupipe-comfort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    /// The far end (silent in `gap`), the echo, the noise.
    static let parts: (far: [Int16], echo: [Double], noise: [Double]) = {
        let n = count
        var far = AECSignals.speech(count: n, seed: 0xFA2_0001, activeDBFS: -14, formant1: 300...900, formant2: 900...2600, talking: 0.0..<seconds)
        for i in Int(gap.lowerBound * Double(rate))..<Int(gap.upperBound * Double(rate)) { far[i] = 0 }
        let far16 = far.map(AECSignals.int16)
        let wet = AECSignals.convolve(far16.map { Double($0) / 32768 }, RoomScene.room(rt60: 0.3, seed: 0x3003))
        let d = 40 * rate / 1000
        let echo = (0..<n).map { $0 < d ? 0 : wet[$0 - d] }
        var random = SeededRandom(0xC0F0)
        let level = pow(10, (RoomScene.nearDBFS - snrDB) / 20)
        return (far16, echo, RoomScene.pink(count: n, random: &random).map { $0 * level })
    }()

    func write(_ name: String, _ samples: [Int16]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(TestSignals.wav(samples.map { Float($0) / 32768 }, StreamFormat(encoding: .s16le, sampleRate: Self.rate, channels: 1))).write(to: url)
        return url.path
    }

    /// `aec ref=far.wav args` over the microphone with the noise's sign `sign`: its output in
    /// full scale, and the stage's `--stats` note.
    func aec(_ args: [String], sign: Double, block: Int? = nil) throws -> (out: [Double], note: String?) {
        let p = Self.parts
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

    @Test func theBackgroundStaysWhenTheFarEndTalks() throws {
        let on = try aec([], sign: 1), off = try aec(["comfort=off"], sign: 1)
        func dB(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { 10 * log10(max($0, 1e-30) / max($1, 1e-30)) } }
        func shown(_ x: [Double]) -> String { x.map { String($0, decimals: 1) }.joined(separator: " ") }
        let quiet = Self.bands(on.out, 7.5..<9.0)
        // Never far below the background: the output in far-end single talk (background,
        // comfort noise and residual echo) within 3 dB of it or above, in every band.
        let talking = dB(Self.bands(on.out, 10.0..<14.0), quiet)
        #expect(talking.allSatisfy { $0 >= -3 }, "output in far-end single talk less far end silent, per band (dB): \(shown(talking))")
        // Never more noise than the background: what comfort=on adds is within 3 dB of it or under.
        let added = dB(Self.bands((0..<Self.count).map { on.out[$0] - off.out[$0] }, 10.0..<14.0), quiet)
        #expect(added.allSatisfy { $0 <= 3 }, "comfort noise added in far-end single talk less the background, per band (dB): \(shown(added))")
        #expect(on.note?.contains("comfort noise in ") == true, "\(on.note ?? "no note")")
        // No second of far-end single talk more than half exact zeros.
        for w in 10..<14 {
            let zeros = on.out[(w * Self.rate)..<((w + 1) * Self.rate)].filter { $0 == 0 }.count
            #expect(zeros <= Self.rate / 2, "second \(w): \(zeros) exact zeros")
        }
        let offTalking = dB(Self.bands(off.out, 10.0..<14.0), quiet)
        print("comfort=off: output in far-end single talk less far end silent, per band (dB): \(shown(offTalking)); on: \(shown(talking)); added: \(shown(added))")
    }

    /// The noise is seeded by frame index: the same bytes at any block size, and none added
    /// before the far end has first been silent (the first 6 s are comfort=off's, sample for
    /// sample: there is no background to match yet).
    @Test func theNoiseIsTheSameAtAnyBlockSize() throws {
        let whole = try aec([], sign: 1), sevens = try aec([], sign: 1, block: 7), off = try aec(["comfort=off"], sign: 1)
        #expect(whole.out == sevens.out)
        let from = Int(Self.gap.lowerBound * Double(Self.rate))
        #expect(Array(whole.out[0..<from]) == Array(off.out[0..<from]))
        #expect(whole.out != off.out)
    }
}
