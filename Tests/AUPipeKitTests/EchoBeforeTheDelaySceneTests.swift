import Foundation
import TestScratch
import Testing
@testable import AUPipeKit

/// The call's first echo suppressed from its arrival, before `delay=auto` has found the delay
/// (issue 26): the far-end echo model (`FarEndEchoModel`) takes a frame for echo when the
/// microphone is coherent with the far end at one of the lags the search allows
/// (`FarEndLagCoherence`), which a near talker is at none. Measured on `RoomScene`s whose far end
/// talks from 0 s, at bulk delays where the delay is found 0.2–0.3 s after the echo arrives
/// (0.5–0.76 s into the call): the ERLE over the 100 ms pieces of far end alone in the first
/// 0.5 s after the echo arrives (`EchoStartSceneTests.pieces`), and a near talker who starts
/// with the echo kept as `residual=0` keeps them.
@Suite(.tags(.scenes)) final class EchoBeforeTheDelaySceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aecbefore") }

    /// The least ERLE (dB) over the first 0.5 s after the echo arrives (reached: 11.2 and 11.4
    /// dB in `echoSuppressedFromItsArrival`'s two rooms; without the lag coherence, the model
    /// waiting for the delay, 4.2 and 4.3). At 400 ms (RT60 0.6 s) 5.4 dB (0.1 without): the
    /// reverberant decay after the first words is explained less at one lag, and the run of
    /// frames the model waits for (`FarEndEchoModel.echoRunSeconds`) starts again there.
    static let arrivalDB = 8.0

    @Test(arguments: [(0.4, 300), (1.0, 300)])
    func echoSuppressedFromItsArrival(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS)
        let (out, note) = try scene.cancelled([], in: dir)
        let p = EchoStartSceneTests.pieces(scene, out, from: Double(delayMS) / 1000)
        print("echo before the delay in \(scene.name): ERLE over 0-0.5 s after it arrived \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.arrivalDB, "the echo before the delay is found: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }

    /// A near talker as loud as the echo who starts when the echo arrives: over the second from
    /// then, kept within 0.5 dB of what `residual=0` (no suppressor) keeps (reached: −0.9 and
    /// −0.7 dB against −0.4 and −0.5; without the lag coherence −0.6 and −0.7; the frames taken
    /// for echo from their first frame instead of after `echoRunSeconds`, −1.8 and −1.8).
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
