import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The seconds after an echo-path change as the shadow canceller learns the new path
/// (`ShadowEvidence`): before it takes over, and while the replaced filter runs on beside it after,
/// the bins it cancels clearly better pass its output. Measured on `RoomScene`s whose path changes
/// at 4.3 s while the far end talks (the near end from 7.6 s): the ERLE (microphone over output)
/// over the 100 ms pieces of far end alone 0.5–1.0 s after the change is heard
/// (`EchoStartSceneTests.pieces`), while the shadow learns and takes over; the near end just after
/// a change is `EchoSceneTests.nearEndJustAfterAPathChangeIsKept`'s and `PathChangeTransitionSceneTests`'.
@Suite(.tags(.scenes)) final class ShadowEvidenceSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aecevidence") }

    /// The least ERLE (dB) over 0.5–1.0 s after the change is heard, per RT60 (reached: 35.0 and
    /// 23.2 dB; 25.4 and 16.0 without the shadow's evidence).
    static let learningDB: [Double: Double] = [0.2: 31, 0.4: 20]

    @Test(arguments: [(0.2, 40), (0.4, 80)])
    func newPathCancelledWhileTheShadowLearns(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 4.3, nearTalking: 7.6..<8.0)
        let (out, note) = try scene.cancelled([], in: dir)
        let heard = 4.3 + Double(delayMS) / 1000
        let p = EchoStartSceneTests.pieces(scene, out, from: heard + 0.5)
        print("while the shadow learns in \(scene.name): ERLE over 0.5-1.0 s after the change was heard \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) }); \(note ?? "")")
        #expect(note?.contains("taking over") == true, "no shadow took over: \(note ?? "")")
        #expect(p.each.count >= 3, "too few pieces with echo: \(p.each.count)")
        #expect(p.all >= Self.learningDB[rt60]!, "the new path's echo while the shadow learns: \(EchoSceneTests.fmt(p.all)) dB, per 100 ms \(p.each.map { EchoSceneTests.fmt($0) })")
    }
}
