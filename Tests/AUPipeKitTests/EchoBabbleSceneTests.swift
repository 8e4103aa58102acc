import Foundation
import Testing
@testable import AUPipeKit

/// Issue 26, no scene under the ERLE floor: the residual echo under babble (`RoomScene`, 8 s), by
/// the echo-only measure bench/aec's targets use (the scenes' own babble test,
/// `babbleAt15dBSNRWithTheDefaults`, asserts `erle_c` at 15 dB SNR).
///
/// The echo's residual alone by phase inversion (bench/aec's echo-only ERLE): the output with the
/// noise's sign flipped is added to the output, `comfort=off` (comfort noise does not follow
/// the sign); ERLE = 10·log10(Σ echo² / Σ residual²) over `RoomScene.converged` (the far end
/// alone). The near end's gain in double talk (5–6.5 s, −20 dBFS, at the echo's level) as
/// `EchoSceneTests.cancel` measures it.
extension EchoSceneTests {
    /// The echo-only ERLE and the near end's gain (dB) of the defaults on `scene`.
    func echoOnly(_ scene: RoomScene) throws -> (erle: Double, nearGain: Double) {
        let ref = try write("babble-far.wav", scene.far)
        let plus = try aec(["ref=\(ref)", "comfort=off"], mic: scene.mic).out
        let minus = try aec(["ref=\(ref)", "comfort=off"], mic: scene.mic(noiseSign: -1)).out
        #expect(plus.count == scene.mic.count && minus.count == scene.mic.count)
        let m = (erle: Self.residualERLE(scene) { (Double(plus[$0]) + Double(minus[$0])) / 2 / 32768 },
                 nearGain: EchoFirstFrameSceneTests.nearGain(scene, plus, over: RoomScene.doubleTalk))
        print("aec echo-only (\(scene.name)): ERLE \(Self.fmt(m.erle)) dB, near end in double talk \(Self.fmt(m.nearGain, sign: true)) dB")
        return m
    }

    /// Babble at 10 dB SNR in rooms of RT60 0.3 and 0.5 s (80 ms): the echo-only ERLE over the
    /// floor `babbleERLE`, the near end in double talk at `babbleNearDB` or better.
    @Test(arguments: [0.3, 0.5])
    func babbleResidualHoldsItsFloor(rt60: Double) throws {
        let m = try echoOnly(RoomScene(rt60: rt60, delayMS: 80, noise: .babble(snrDB: 10)))
        #expect(m.erle >= Self.babbleERLE, "echo-only ERLE in babble at 10 dB SNR, RT60 \(rt60) s: \(m.erle) dB")
        #expect(m.nearGain >= Self.babbleNearDB, "the near end in double talk: \(m.nearGain) dB")
    }

    /// What the defaults reach in `babbleResidualHoldsItsFloor` (27.36 and 27.35 dB, RT60 0.3 and 0.5 s;
    /// the near end −0.82 and −0.83 dB), less 0.5 dB each. The frame's coherence test with the background
    /// at its noise floor given back (measured, not kept: bench/README.md, "The residual under
    /// babble") reached 27.90 and 27.87.
    static let babbleERLE = 26.85, babbleNearDB = -1.3
}

extension QuietNearTalkerTests {
    /// The quiet near talker of `aQuietNearTalkerInLongDoubleTalkIsKept` (8 dB under the echo, 5 s
    /// of double talk) with babble 15 dB under them (bench/aec's `quietnear-babble15` in small), at
    /// 16 kHz: kept within 2 dB. Reached: −1.90 dB (−1.94 with the background's coherence given
    /// back, measured and not kept). At 48 kHz the same scene keeps −2.10 dB: under the target, not
    /// asserted here (bench/README.md, "The residual under babble").
    @Test func aQuietNearTalkerInBabbleIsKept() throws {
        let m = try measure(Scene(rate: 16000, babbleDBFS: -43))
        print("aec quiet near talker in babble (16000 Hz, 8 dB under the echo, babble 15 dB under them): near end \(m.nearGain) dB")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m.nearGain) dB")
    }
}
