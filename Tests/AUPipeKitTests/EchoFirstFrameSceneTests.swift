import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The call's first echo suppressed while the first filter learns (issue 26): from the delay's
/// finding on, the residual echo suppressor also suppresses from the far end's echo model
/// (`FarEndEchoModel`), not only from the linear filter's estimate, which is not yet good.
/// Measured on `RoomScene`s whose far end talks from 0 s: the ERLE over the 100 ms pieces of
/// far end alone 0.3–0.8 s after the echo reaches the microphone
/// (`EchoStartSceneTests.pieces`), and the near end kept in a double talk that starts with the
/// call, where the model must not take the near talker for echo.
@Suite(.tags(.scenes)) final class EchoFirstFrameSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aecfirst") }

    /// The least ERLE (dB) over 0.3–0.8 s after the echo arrives (reached: 53.6, 45.8 and 50.7
    /// dB in `echoSuppressedWhileTheFirstFilterLearns`' three rooms since the lag coherence
    /// (`FarEndLagCoherence`) takes the first echo; 25.4, 33.0 and 20.9 with the far end's model
    /// from the delay's finding only; without the model 13.8, 11.5 and 9.8), less about 6 dB.
    static let firstDB = 40.0

    /// Runs `aec ref=far.wav ARGS` over `scene`: the output and the `--stats` note.
    func cancel(_ scene: RoomScene, _ args: [String] = []) throws -> (out: [Int16], note: String?) { try scene.cancelled(args, in: dir) }

    /// The near end's gain (dB) in the output over `range` (s), as `EchoSceneTests`' rooms
    /// measure it: least squares per 100 ms piece where it is above −45 dBFS.
    static func nearGain(_ scene: RoomScene, _ out: [Int16], over range: Range<Double>) -> Double {
        var gained = 0.0, total = 0.0
        let piece = RoomScene.rate / 10
        for start in stride(from: RoomScene.frame(range.lowerBound), to: RoomScene.frame(range.upperBound) - piece + 1, by: piece) {
            var ss = 0.0, ys = 0.0
            for i in start..<start + piece { ss += scene.near[i] * scene.near[i]; ys += Double(out[i]) / 32768 * scene.near[i] }
            guard ss / Double(piece) >= pow(10, -4.5) else { continue }
            let g = ys / ss
            gained += g * g * ss
            total += ss
        }
        return 10 * log10(gained / total)
    }

    /// The call's first echo at bulk delays a fresh filter at delay 0 covers (120 ms) and does
    /// not (300 ms), in rooms of RT60 0.4–1 s: suppressed from 0.3 s after it arrives.
    @Test(arguments: [(0.4, 120), (0.6, 300), (1.0, 120)])
    func echoSuppressedWhileTheFirstFilterLearns(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS)
        let (out, note) = try cancel(scene)
        let p = EchoStartSceneTests.pieces(scene, out, from: Double(delayMS) / 1000 + 0.3)
        print("first echo in \(scene.name): ERLE over 0.3-0.8 s after it arrived \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.firstDB, "the first echo is not suppressed: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }

    /// A near talker who starts with the call, as loud as the echo, while the far end talks (the
    /// model's coupling starts at 0 dB and learns from the microphone): kept within 0.5 dB of
    /// what `residual=0` (no suppressor) keeps over the double talk (reached: 0.3 dB less; with
    /// the model also before the delay is found, 10–12 dB less).
    @Test(arguments: [(0.4, 120), (0.6, 300)])
    func nearEndKeptInADoubleTalkThatStartsWithTheCall(rt60: Double, delayMS: Int) throws {
        let talking = 0.0..<2.5
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, nearTalking: talking)
        let on = Self.nearGain(scene, try cancel(scene).out, over: talking)
        let off = Self.nearGain(scene, try cancel(scene, ["residual=0"]).out, over: talking)
        print("double talk from the call's start in \(scene.name): near end \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
        #expect(on >= off - 0.5, "the near end at the call's start: \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
    }
}
