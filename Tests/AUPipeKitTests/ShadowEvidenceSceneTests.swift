import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The seconds after an echo-path change as the shadow canceller learns the new path
/// (`ShadowEvidence`): before it takes over, and while the replaced filter runs on beside it after,
/// the bins it cancels clearly better pass its output. Measured on `RoomScene`s whose path changes
/// at 4.3 s while the far end talks (the near end from 7.6 s): the ERLE (microphone over output)
/// over the 100 ms pieces of far end alone 0.3–0.8 s after the change is heard
/// (`EchoStartSceneTests.pieces`); the near end just after a change is `EchoSceneTests.
/// nearEndJustAfterAPathChangeIsKept`'s.
@Suite(.tags(.scenes)) final class ShadowEvidenceSceneTests {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory
    var dir: URL { scratch.url }

    init() throws { scratch = try ScratchDirectory("aupipe-aecevidence") }

    /// The least ERLE (dB) over 0.3–0.8 s after the change is heard.
    static let learningDB = 0.0

    @Test(arguments: [(0.2, 40), (0.4, 80)])
    func newPathCancelledWhileTheShadowLearns(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 4.3, nearTalking: 7.6..<8.0)
        let (out, note) = try scene.cancelled([], in: dir)
        let heard = 4.3 + Double(delayMS) / 1000
        for from in [0.0, 0.3, 0.5, 1.0] {
            let p = EchoStartSceneTests.pieces(scene, out, from: heard + from)
            print("EVIDENCE \(scene.name) from \(from): \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
        }
        let p = EchoStartSceneTests.pieces(scene, out, from: heard + 0.3)
        #expect(note?.contains("taking over") == true, "no shadow took over: \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.learningDB, "the new path's echo while the shadow learns: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }
}
