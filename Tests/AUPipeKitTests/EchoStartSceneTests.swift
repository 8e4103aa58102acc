import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The first seconds of a call (issue 26): with the defaults (`delay=auto`) the echo is
/// cancelled from half a second after it reaches the microphone, and again after an
/// echo-path change. Measured on `RoomScene`s (the far end talks from 0 s, so its echo
/// arrives after the bulk delay): the ERLE (microphone over output) over the 100 ms pieces of
/// far end alone in 0.5–1.0 s after the echo arrived (or after the change was heard), pieces
/// whose echo is under 10 dB above the noise left out, is `startDB` (`reconvergeDB`) or more
/// (reached: 14.6–52.2 dB; 10.7 and 33.7 after the change). Before the fast start
/// (`EchoPathChange.delayFound`) the delay was found 1.5 s in and bench/aec/'s rooms cancelled
/// 1–5 dB there. Not yet reached: the issue's target, bench/aec/'s 10 dB in every piece from
/// 0.5 s on (here the first one or two pieces of 0.5–1.0 s still cancel 3–11 dB).
@Suite(.tags(.scenes)) final class EchoStartSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aecstart") }

    /// The least ERLE (dB) over 0.5–1.0 s after the echo arrived, and after the change was heard.
    static let startDB = 10.0, reconvergeDB = 6.0

    /// Runs the defaults over `scene`; the output and the `--stats` note.
    func cancel(_ scene: RoomScene) throws -> (out: [Int16], note: String?) {
        let format = StreamFormat(encoding: .s16le, sampleRate: RoomScene.rate, channels: 1)
        let ref = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav(EchoSceneTests.floats(scene.far), format)).write(to: ref)
        let r = try TestSignals.run([["aec", "ref=\(ref.path)"]], TestSignals.wav(EchoSceneTests.floats(scene.mic), format)) { $0.stats = .text }
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        #expect(out.count == scene.mic.count)
        return (out, r.report.stages.first?.note)
    }

    /// The ERLE (dB) of each 100 ms piece over `from..<from + 0.5` s whose echo is 10 dB or
    /// more above the noise (and the near end silent), and over those pieces together.
    static func pieces(_ scene: RoomScene, _ out: [Int16], from: Double) -> (each: [Double], all: Double) {
        var pieces: [Double] = [], mic = 0.0, res = 0.0
        for start in stride(from: RoomScene.frame(from), to: RoomScene.frame(from + 0.5), by: RoomScene.rate / 10) {
            var m = 0.0, o = 0.0, e = 0.0, z = 0.0, n = 0.0
            for i in start..<start + RoomScene.rate / 10 {
                m += Double(scene.mic[i]) * Double(scene.mic[i])
                o += Double(out[i]) * Double(out[i])
                e += scene.echo[i] * scene.echo[i]
                z += scene.noise[i] * scene.noise[i]
                n += scene.near[i] * scene.near[i]
            }
            if e >= 10 * z, n == 0 {
                pieces.append(10 * log10(m / max(o, 1)))
                mic += m
                res += o
            }
        }
        return (pieces, 10 * log10(mic / max(res, 1)))
    }

    /// The call's first echo, at bulk delays a fresh filter at delay 0 covers (40 ms) and does
    /// not (300 ms), in rooms of RT60 0.2–0.6 s.
    @Test(arguments: [(0.2, 40), (0.4, 120), (0.6, 300)])
    func firstEchoCancelledWithinHalfASecond(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS)
        let (out, note) = try cancel(scene)
        let arrived = Double(delayMS) / 1000
        let p = Self.pieces(scene, out, from: arrived + 0.5)
        print("call start in \(scene.name): ERLE over 0.5-1.0 s after the echo arrived \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.startDB, "not converged 0.5 s after the echo arrived: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }

    /// An echo-path change at 3 s: cancelled again from half a second after it is heard (the
    /// shadow canceller's doing, `ShadowCanceller`; the fast start does not take part).
    @Test(arguments: [(0.2, 40), (0.4, 80)])
    func pathChangeReconvergesWithinHalfASecond(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 3.0)
        let (out, note) = try cancel(scene)
        let heard = 3.0 + Double(delayMS) / 1000
        let p = Self.pieces(scene, out, from: heard + 0.5)
        print("path change in \(scene.name): ERLE over 0.5-1.0 s after it \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.reconvergeDB, "not reconverged 0.5 s after the change: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }
}
