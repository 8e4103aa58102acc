import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeFormats

/// Issue 26, the double talk's exit: a near talker at the echo's level speaking in syllables
/// with pauses of 50–600 ms over a far end that talks throughout (16 kHz, 15 s; the far end
/// `AECSignals.speech` at −14 dBFS active RMS; the room `QuietNearTalkerTests.Scene`'s, echo about
/// −20 dBFS after 40 ms; the near end from 8 to 13 s at −20 dBFS active RMS, about the echo's
/// level, once the suppressor's model has settled; white noise at −70 dBFS). In the first 100 ms after each syllable
/// the suppressor used to stay in near-end mode (its double-talk detector holds 0.2 s, its
/// coherence test reads smoothed spectra) and let the residual echo through; with
/// `NearEndRelease` the bins the model explains in those frames get the echo-alone gain.
@Suite(.tags(.scenes)) final class DoubleTalkExitSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-dtexit") }

    struct Scene {
        static let rate = 16000, seconds = 15.0
        static let talking = 8.0..<13.0
        /// The far end alone, the canceller converged.
        static let farAlone: [Range<Double>] = [5.0..<8.0, 13.0..<15.0]
        let far: [Int16], mic: [Int16]
        let near: [Double]

        init() {
            let rate = Self.rate, n = Int(Self.seconds * Double(rate))
            let far = AECSignals.speech(count: n, seed: 0xFA2_0E61, activeDBFS: -14, formant1: 300...900, formant2: 900...2600,
                                        talking: 0.0..<Self.seconds, rate: rate).map(AECSignals.int16)
            self.far = far
            // The room of `QuietNearTalkerTests.Scene`: a direct path, then Gaussian noise under a
            // 60 dB decay in 0.3 s from 2.5 ms on with as much energy, all at −6 dB.
            var random = SeededRandom(0x51_0E61)
            let length = Int(0.3 * Double(rate)), start = rate / 400
            let decay = log(1000.0) / Double(length)
            var h = (0..<length).map { k in k < start ? 0 : random.gaussian() * exp(-decay * Double(k)) }
            let e = h.reduce(0) { $0 + $1 * $1 }.squareRoot()
            for k in h.indices { h[k] /= e }
            h[0] = 1
            let gain = pow(10, -6.0 / 20) / 2.0.squareRoot()
            let wet = AECSignals.convolve(far.map { Double($0) / 32768 }, h.map { $0 * gain })
            let d = 40 * rate / 1000
            near = AECSignals.speech(count: n, seed: 0x4EA2_0E61, activeDBFS: -20, formant1: 250...800, formant2: 1100...2900,
                                     talking: Self.talking, rate: rate)
            let sigma = pow(10, -70.0 / 20)
            var sum = [Int16](repeating: 0, count: n)
            for i in 0..<n { sum[i] = AECSignals.int16((i >= d ? wet[i - d] : 0) + near[i] + sigma * random.gaussian()) }
            mic = sum
        }
    }

    /// The scene's figures (dB): the ERLE over the 0–100 ms after each syllable that a pause of at
    /// least 100 ms follows (microphone over output: the near end is silent there), the ERLE with
    /// the far end alone (`Scene.farAlone`), and the near end's gain in the
    /// output (least squares per 100 ms piece where it is above −45 dBFS, as bench/aec's metrics).
    func measure(_ scene: Scene) throws -> (exit: Double, farAlone: Double, nearGain: Double) {
        let format = StreamFormat(encoding: .s16le, sampleRate: Scene.rate, channels: 1)
        func floats(_ x: [Int16]) -> [Float] { x.map { Float($0) / 32768 } }
        let ref = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav(floats(scene.far), format)).write(to: ref)
        let r = try TestSignals.run([["aec", "ref=\(ref.path)"]], TestSignals.wav(floats(scene.mic), format))
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Double(Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8)) / 32768 }
        #expect(out.count == scene.mic.count)
        let mic = scene.mic.map { Double($0) / 32768 }
        let window = Scene.rate / 10
        var m = 0.0, o = 0.0, windows = 0
        var i = 1
        while i + window < out.count {
            // A syllable's end: the near end stops here and stays silent for the next 100 ms.
            if scene.near[i - 1] != 0, scene.near[i..<i + window].allSatisfy({ $0 == 0 }) {
                for j in i..<i + window { m += mic[j] * mic[j]; o += out[j] * out[j] }
                windows += 1
                i += window
            } else {
                i += 1
            }
        }
        #expect(windows >= 10, "syllable ends followed by a pause: \(windows)")
        var fm = 0.0, fo = 0.0
        for range in Scene.farAlone {
            for j in Int(range.lowerBound * Double(Scene.rate))..<Int(range.upperBound * Double(Scene.rate)) {
                fm += mic[j] * mic[j]
                fo += out[j] * out[j]
            }
        }
        let piece = Scene.rate / 10
        var gained = 0.0, total = 0.0
        for start in stride(from: 0, to: out.count - piece + 1, by: piece) {
            var ss = 0.0, ys = 0.0
            for j in start..<start + piece { ss += scene.near[j] * scene.near[j]; ys += out[j] * scene.near[j] }
            guard ss / Double(piece) >= pow(10, -4.5) else { continue }
            let g = ys / ss
            gained += g * g * ss
            total += ss
        }
        return (10 * log10(m / max(o, 1e-20)), 10 * log10(fm / max(fo, 1e-20)), 10 * log10(gained / total))
    }

    @Test func theEchoAfterANearWordIsSuppressedAsWithTheFarEndAlone() throws {
        let m = try measure(Scene())
        print("aec double talk's exit (16 kHz, near end at the echo's level): ERLE after each syllable \(m.exit) dB, far end alone \(m.farAlone) dB, near end \(m.nearGain) dB")
        #expect(m.exit >= Self.exitERLE, "ERLE in the 100 ms after each syllable: \(m.exit) dB")
        #expect(m.farAlone >= QuietNearTalkerTests.erle[16000]!, "ERLE with the far end alone: \(m.farAlone) dB")
        #expect(m.nearGain >= Self.nearGain, "the near end in double talk: \(m.nearGain) dB")
    }

    /// The exit's ERLE bound (dB), halfway: 33.1 dB with `NearEndRelease`, 29.7 without (the far
    /// end alone 50.0 dB and the near end −0.63 / −0.62 dB either way).
    static let exitERLE = 31.4
    /// The near end's bound (dB): −0.63 with the release, −0.62 without; a release that took a
    /// tenth of a dB more of the talker fails.
    static let nearGain = -0.75
}
