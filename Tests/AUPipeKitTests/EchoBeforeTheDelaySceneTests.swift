import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The call's first echo suppressed from its arrival, before `delay=auto` has found the delay
/// (issue 26): the far-end echo model (`FarEndEchoModel`) takes a frame for echo when the
/// microphone is coherent with the far end at one of the lags the search allows
/// (`FarEndLagCoherence`), which a near talker is at none. Measured on `RoomScene`s whose far end
/// talks from 0 s, at bulk delays where the delay is found 0.2–0.3 s after the echo arrives
/// (0.5–0.76 s into the call): the ERLE over the 100 ms pieces of far end alone in the first
/// 0.5 s after the echo arrives (`EchoStartSceneTests.pieces`), and a near talker who starts
/// with the echo kept as `residual=0` keeps them.
@Suite(.tags(.scenes)) final class EchoBeforeTheDelaySceneTests {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory
    var dir: URL { scratch.url }

    init() throws { scratch = try ScratchDirectory("aupipe-aecbefore") }

    /// The least ERLE (dB) over the first 0.5 s after the echo arrives (reached: 20.5, 22.1
    /// and 17.6 dB in `echoSuppressedFromItsArrival`'s three rooms; without the lag coherence,
    /// the model waiting for the delay, 2.6, 4.8 and 3.3).
    static let arrivalDB = 12.0

    @Test(arguments: [(0.4, 300), (0.6, 400), (1.0, 300)])
    func echoSuppressedFromItsArrival(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS)
        let (out, note) = try scene.cancelled([], in: dir)
        let p = EchoStartSceneTests.pieces(scene, out, from: Double(delayMS) / 1000)
        print("echo before the delay in \(scene.name): ERLE over 0-0.5 s after it arrived \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.arrivalDB, "the echo before the delay is found: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }

    /// A near talker as loud as the echo who starts when the echo arrives: over the second from
    /// then, kept within 0.5 dB of what `residual=0` (no suppressor) keeps.
    @Test(arguments: [(0.4, 300), (1.0, 300)])
    func nearTalkerWhoStartsWithTheEchoIsKept(rt60: Double, delayMS: Int) throws {
        let arrival = Double(delayMS) / 1000
        let talking = arrival..<arrival + 1
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, nearTalking: talking)
        let on = EchoFirstFrameSceneTests.nearGain(scene, try scene.cancelled([], in: dir).out, over: talking)
        let off = EchoFirstFrameSceneTests.nearGain(scene, try scene.cancelled(["residual=0"], in: dir).out, over: talking)
        print("near talker from the echo's arrival in \(scene.name): near end \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
        #expect(on >= off - 0.5, "the near end in the echo's first second: \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
    }
}
