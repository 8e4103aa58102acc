import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// An echo-path change before and just after the shadow takes over, as the residual echo
/// suppressor sees it with `PathChangeLagEcho`: frames whose microphone is coherent with the far
/// end at the bulk delay's lags are the new path's echo (each bin's coherent share of C's power
/// its residual), where the old filter's incoherent Ŷ made them look like double talk. Measured
/// on `RoomScene`s whose path changes while the far end talks: the ERLE (microphone over output)
/// of the 100 ms pieces of far end alone 0.5–1 s after the change is heard
/// (`EchoStartSceneTests.pieces`), and a near talker who starts just after the change.
@Suite(.tags(.scenes)) final class PathChangeLagEchoSceneTests {
    let scratch: ScratchDirectory
    var dir: URL { scratch.url }

    init() throws { scratch = try ScratchDirectory("aupipe-aecchangelag") }

    /// The least ERLE (dB) over 0.5–1 s after the change is heard.
    static let afterChangeDB = 0.0

    func cancel(_ scene: RoomScene, _ args: [String] = []) throws -> (out: [Int16], note: String?) { try scene.cancelled(args, in: dir) }

    /// The path changing at 4.3 s (the near end from 7.6 s): the echo of the new path is
    /// suppressed in the half second after the first, before the new filter cancels it.
    @Test(arguments: [(0.4, 80), (0.6, 200)])
    func newPathEchoSuppressedBeforeTheNewFilter(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 4.3, nearTalking: 7.6..<8.0)
        let (out, note) = try cancel(scene)
        let heard = 4.3 + Double(delayMS) / 1000
        let p = EchoStartSceneTests.pieces(scene, out, from: heard + 0.5)
        print("just after the change in \(scene.name): ERLE over 0.5-1 s after it was heard \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.afterChangeDB, "the new path's echo is not suppressed: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }

    /// A near talker as loud as the echo who starts 0.2 s after the path changes (before any
    /// shadow takes over: the double-talk detector's fall starts the watch): kept as
    /// `residual=0` keeps it, within 1 dB, and at −2 dB or better.
    @Test(arguments: [(0.4, 80), (0.6, 200)])
    func nearTalkerJustAfterTheChangeIsKept(rt60: Double, delayMS: Int) throws {
        let talking = 4.5..<6.0
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 4.3, nearTalking: talking)
        let on = EchoFirstFrameSceneTests.nearGain(scene, try cancel(scene).out, over: talking)
        let off = EchoFirstFrameSceneTests.nearGain(scene, try cancel(scene, ["residual=0"]).out, over: talking)
        print("near end just after the change in \(scene.name): \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
        #expect(on >= -2, "the near end just after the change: \(EchoSceneTests.fmt(on, sign: true)) dB")
        #expect(on >= off - 1, "the near end just after the change: \(EchoSceneTests.fmt(on, sign: true)) dB, residual=0 \(EchoSceneTests.fmt(off, sign: true)) dB")
    }
}
