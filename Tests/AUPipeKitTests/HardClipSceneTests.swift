import Foundation
import Testing
@testable import AUPipeKit

extension EchoSceneTests {
    /// A loudspeaker clipping hard (bench/aec's `sat-clip-*` curve, `RoomScene`'s `clip`): the
    /// nonlinear canceller's first probe (0–3 s) ends before it and the linear filter have
    /// converged, and fails; it then probes again at once (`NonlinearEchoCanceller.firstPauseSeconds`
    /// 0) instead of pausing for 3 s, so that the clip's distortion is cancelled, and its frames
    /// are `DistortedEcho`'s, from the 3rd second on. The defaults cancel `clipERLE` at least over
    /// the scene's 3–5 and 6.5–8 s, with the near end in double talk within `clipNearDB` of
    /// `nonlinear=0`'s (35.4 dB, the near end −0.7 dB; `nonlinear=0` 28.4, −0.8; figures in bench/README.md,
    /// "The distorting loudspeaker's first probe").
    @Test func aHardClipIsCancelledFromTheSecondProbe() throws {
        let scene = RoomScene(rt60: 0.3, delayMS: 80, drive: 3, clip: true)
        let with = try cancel(scene), without = try cancel(scene, ["nonlinear=0"])
        #expect(with.erle >= Self.clipERLE, "defaults \(with); nonlinear=0 \(without)")
        #expect(with.nearGain >= without.nearGain - Self.clipNearDB, "the near end in double talk: defaults \(with); nonlinear=0 \(without)")
    }

    static let clipERLE = 33.5, clipNearDB = 0.1
}
