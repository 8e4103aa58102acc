import Foundation
import Testing
@testable import AUPipeKit

extension EchoSceneTests {
    /// A loudspeaker clipping hard (bench/aec's `sat-clip-*` curve, `RoomScene`'s `clip`): the
    /// nonlinear canceller takes its distortion and not the near end. The defaults cancel
    /// `clipERLE` at least over the scene's 3–5 and 6.5–8 s, with the near end in double talk
    /// within `clipNearDB` of `nonlinear=0`'s (35.4 dB, the near end −0.7 dB; `nonlinear=0` 28.4,
    /// −0.8). In this 8 s scene the canceller's first probe already succeeds, so it does not show
    /// the second probe at once (`NonlinearEchoCanceller.firstPauseSeconds`): the same figures with
    /// the 3 s pause; bench/aec's `sat-clip-d80` does (bench/README.md, "The distorting
    /// loudspeaker's first probe").
    @Test func aHardClipsDistortionIsCancelled() throws {
        let scene = RoomScene(rt60: 0.3, delayMS: 80, drive: 3, clip: true)
        let with = try cancel(scene), without = try cancel(scene, ["nonlinear=0"])
        #expect(with.erle >= Self.clipERLE, "defaults \(with); nonlinear=0 \(without)")
        #expect(with.nearGain >= without.nearGain - Self.clipNearDB, "the near end in double talk: defaults \(with); nonlinear=0 \(without)")
    }

    static let clipERLE = 33.5, clipNearDB = 0.1
}
