import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

// MARK: ERLE in babble, by phase inversion

/// ERLE in noise (babble at 15 dB SNR) measured as bench/aec/metrics.py measures it: the
/// residual echo is told from the noise by phase inversion (Hagerman and Olofsson): `aec` runs
/// on the microphone and on the microphone with its noise inverted; half the sum of the two
/// outputs keeps what does not follow the noise's sign (in the far-end-only stretches, the
/// residual echo) and drops the processed noise. The noise also moves the adaptive filter's
/// weights, and that misadjustment follows the noise's sign and drops out of the sum with it:
/// at the linear stage (`preprocess=0`), where the residual echo is known exactly (the stage's
/// output less its output for near ± noise with a silent far end: what is left of the echo),
/// the difference between the two is measured and taken off the whole chain's figure (`erle_c`).
extension EchoSceneTests {
    /// The figures of `phaseInversion(_:)`, dB.
    struct PhaseInversion: CustomStringConvertible {
        /// The linear stage's ERLE: exact, and by phase inversion.
        var linearExact, linearSplit: Double
        /// The whole chain's (the defaults) by phase inversion, and less what phase inversion
        /// missed at the linear stage (when it missed any).
        var split: Double
        var corrected: Double { split - max(0, linearSplit - linearExact) }
        var description: String {
            "linear stage: exact \(EchoSceneTests.fmt(linearExact)) dB, by phase inversion \(EchoSceneTests.fmt(linearSplit)) dB; "
                + "the defaults: by phase inversion \(EchoSceneTests.fmt(split)) dB, less what it misses \(EchoSceneTests.fmt(corrected)) dB"
        }
    }

    /// ERLE (dB) of `residual` (samples at full scale 1) against the scene's echo over
    /// `RoomScene.converged` (the far end alone, after 3 s).
    static func residualERLE(_ scene: RoomScene, _ residual: (Int) -> Double) -> Double {
        var e = 0.0, r = 0.0
        for range in RoomScene.converged {
            for i in RoomScene.frame(range.lowerBound)..<RoomScene.frame(range.upperBound) {
                e += scene.echo[i] * scene.echo[i]
                r += residual(i) * residual(i)
            }
        }
        return 10 * log10(e / r)
    }

    func phaseInversion(_ scene: RoomScene) throws -> PhaseInversion {
        let ref = try write("babble-far.wav", scene.far)
        let silent = try write("babble-silent.wav", [Int16](repeating: 0, count: RoomScene.count))
        let plus = scene.mic(noiseSign: 1), minus = scene.mic(noiseSign: -1)
        #expect(plus == scene.mic)
        func run(_ args: [String], _ mic: [Int16]) throws -> [Double] {
            let out = try aec(args, mic: mic).out
            #expect(out.count == RoomScene.count)
            return out.map { Double($0) / 32768 }
        }
        let linear = ["ref=\(ref)", "preprocess=0"], quiet = ["ref=\(silent)", "preprocess=0"]
        let lp = try run(linear, plus), lm = try run(linear, minus)
        let sp = try run(quiet, scene.mic(noiseSign: 1, echo: false)), sm = try run(quiet, scene.mic(noiseSign: -1, echo: false))
        let dp = try run(["ref=\(ref)"], plus), dm = try run(["ref=\(ref)"], minus)
        let r = PhaseInversion(linearExact: Self.residualERLE(scene) { lp[$0] - sp[$0] },
                               linearSplit: Self.residualERLE(scene) { (lp[$0] + lm[$0]) / 2 - (sp[$0] + sm[$0]) / 2 },
                               split: Self.residualERLE(scene) { (dp[$0] + dm[$0]) / 2 })
        print("aec room scene (\(scene.name)), phase inversion: \(r)")
        return r
    }

    /// The babble target, ERLE ≥ 30 dB at 15 dB SNR, with the defaults on the small room
    /// scene (RT60 0.4 s, 80 ms). Reached: 33.4 dB (36.2 by phase inversion alone; the linear
    /// stage 15.6 dB exactly, 18.4 by phase inversion), asserted less 1.4 dB: without the residual
    /// echo suppressor's allowance for the background's incoherence (`backgroundMargin`) it was 31.7.
    /// With speex's preprocessor's work inside the suppressor (`preprocess=1`, the default since)
    /// 31.3 dB (34.1 by phase inversion alone), asserted less 0.8 dB: its noise estimate no longer
    /// rises with the residual echo, which speex's suppressed as noise.
    @Test func babbleAt15dBSNRWithTheDefaults() throws {
        let m = try phaseInversion(RoomScene(rt60: 0.4, delayMS: 80, noise: .babble(snrDB: 15)))
        #expect(m.corrected >= 30.5, "reached 31.3 dB (the issue's target: 30): \(m)")
        #expect(m.linearSplit > m.linearExact, "phase inversion misses the misadjustment the babble drives into the filter: \(m)")
    }

    /// Phase inversion on a scene without noise to speak of (white noise at −75 dBFS): the linear
    /// stage's exact ERLE and phase inversion's agree within 0.3 dB, and the whole chain's figure
    /// is within 0.5 dB of the residual taken as the output less the microphone's noise (there
    /// is nothing to tell apart) — the method measures what it should where it can be checked.
    @Test func phaseInversionAgreesWhereThereIsNoNoise() throws {
        let scene = RoomScene(rt60: 0.4, delayMS: 80, noise: .white(dBFS: -75))
        let m = try phaseInversion(scene)
        #expect(abs(m.linearSplit - m.linearExact) <= 0.3, "\(m)")
        let ref = try write("quiet-far.wav", scene.far)
        let out = try aec(["ref=\(ref)"], mic: scene.mic).out
        let plain = Self.residualERLE(scene) { Double(out[$0]) / 32768 - scene.noise[$0] }
        #expect(abs(m.split - plain) <= 0.5, "plain (output less the microphone's noise) \(Self.fmt(plain)) dB: \(m)")
    }
}
