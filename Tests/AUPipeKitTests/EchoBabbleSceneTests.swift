import Foundation
import Testing
@testable import AUPipeKit

/// Issue 26, no scene under the ERLE floor: the residual echo under loud babble (`RoomScene`, 8 s).
/// Babble makes the microphone less coherent with the echo estimate in frames of echo alone, and
/// the suppressor took many of them for a near end's (its gentle β and −30 dB floor):
/// `BackgroundCoherence` gives back, in that frame test, what a background at its noise floor
/// takes from the coherence.
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
        var e = 0.0, r = 0.0
        for range in RoomScene.converged {
            for i in RoomScene.frame(range.lowerBound)..<RoomScene.frame(range.upperBound) {
                let s = (Double(plus[i]) + Double(minus[i])) / 2 / 32768
                e += scene.echo[i] * scene.echo[i]
                r += s * s
            }
        }
        var gained = 0.0, total = 0.0
        let piece = RoomScene.rate / 10
        for start in stride(from: RoomScene.frame(RoomScene.doubleTalk.lowerBound), to: RoomScene.frame(RoomScene.doubleTalk.upperBound) - piece + 1, by: piece) {
            var ss = 0.0, ys = 0.0
            for i in start..<start + piece { ss += scene.near[i] * scene.near[i]; ys += Double(plus[i]) / 32768 * scene.near[i] }
            guard ss / Double(piece) >= pow(10, -4.5) else { continue }
            gained += ys * ys / ss
            total += ss
        }
        let m = (erle: 10 * log10(e / max(r, 1e-20)), nearGain: 10 * log10(gained / total))
        print("aec echo-only (\(scene.name)): ERLE \(Self.fmt(m.erle)) dB, near end in double talk \(Self.fmt(m.nearGain, sign: true)) dB")
        return m
    }

    /// Babble at 10 dB SNR in rooms of RT60 0.3 and 0.5 s (80 ms): the echo-only ERLE over the
    /// floor `babbleERLE`, the near end in double talk within 2 dB.
    @Test(arguments: [0.3, 0.5])
    func babbleLeavesLessResidual(rt60: Double) throws {
        let m = try echoOnly(RoomScene(rt60: rt60, delayMS: 80, noise: .babble(snrDB: 10)))
        #expect(m.erle >= Self.babbleERLE, "echo-only ERLE in babble at 10 dB SNR, RT60 \(rt60) s: \(m.erle) dB")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m.nearGain) dB")
    }

    /// Reached in `babbleLeavesLessResidual`: 27.90 and 27.87 dB (RT60 0.3 and 0.5 s), 27.36 and
    /// 27.35 with the frame's coherence as measured (before `BackgroundCoherence`); the near end
    /// −0.83 and −0.83 dB (−0.82 and −0.83 before). The floor lies halfway. These 8 s scenes leave the
    /// filter 5 s to converge: bench/aec's 42 s scenes gain 0.6–0.9 dB (bench/README.md, "The
    /// residual under babble").
    static let babbleERLE = 27.6
}

extension QuietNearTalkerTests {
    /// The quiet near talker of `aQuietNearTalkerInLongDoubleTalkIsKept` (8 dB under the echo, 5 s
    /// of double talk) with babble 15 dB under them (bench/aec's `quietnear-babble15` in small), at
    /// 16 kHz: the background's coherence given back (`BackgroundCoherence`) must not take them for
    /// echo. Reached: −1.94 dB (−1.90 before it). At 48 kHz the same scene keeps −2.16 dB (−2.10
    /// before it: under the target already, not asserted here; bench/README.md, "The residual under
    /// babble").
    @Test func aQuietNearTalkerInBabbleIsKept() throws {
        let m = try measure(Scene(rate: 16000, babbleDBFS: -43))
        print("aec quiet near talker in babble (16000 Hz, 8 dB under the echo, babble 15 dB under them): near end \(m.nearGain) dB")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m.nearGain) dB")
    }
}
