import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The residual echo suppressor's echo estimate Ŷ = D − C is the linear filter's alone: the
/// microphone D goes through speex's DC notch first (`SpeexDCNotch`), as the canceller's output
/// C has. Without it Ŷ held the microphone's own content below about 50 Hz, which the
/// suppressor took for echo (spread over neighbouring bins and the whole band by its model):
/// with a silent far end the chain's output was 0.1–1 dB under `residual=0`'s at 50–8000 Hz (a
/// difference 29 dB under the signal on bench/aec's `room-rt04-d80`, before speex's preprocessor's
/// work moved into the suppressor).
@Suite struct SuppressorEchoEstimateTests {
    /// With a silent far end the canceller's output is the notched microphone; the replica gives
    /// it within speex's rounding (half a unit) at 8 and 16 kHz, and within 3 units at 48 kHz (where
    /// speex's notch follows `DCNotchCorrection`'s rounded output).
    @Test(arguments: [(8000, Float(0.51)), (16000, Float(0.51)), (48000, Float(3))])
    func theNotchIsSpeexs(rate: Int, tolerance: Float) throws {
        let frame = rate / 50
        let state = try EchoState(frameFrames: frame, tailFrames: rate / 10, rate: rate)
        var notch = SpeexDCNotch(rate: rate)
        var random = SeededRandom(0xDC_0001)
        var rec = [Int16](repeating: 0, count: frame), out = [Int16](repeating: 0, count: frame)
        let play = [Int16](repeating: 0, count: frame)
        var worst: Float = 0, hum = 0.0
        for f in 0..<100 {
            for i in 0..<frame {
                // A 30 Hz hum with an offset, and white noise: what the notch takes and what it keeps.
                hum = 0.2 * sin(2 * .pi * 30 * Double(f * frame + i) / Double(rate)) + 0.05
                rec[i] = AECSignals.int16(hum + 0.05 * random.gaussian())
            }
            state.cancel(rec, play, into: &out)
            for i in 0..<frame { worst = max(worst, abs(notch(Float(rec[i]) / 32768) * 32768 - Float(out[i]))) }
        }
        #expect(worst <= tolerance, "\(rate) Hz: the replica is \(worst) units from speex's output")
    }

    /// With a silent far end the residual echo suppressor changes nothing: fed the canceller's
    /// output as its input, it gives it back a frame later to within a unit of rounding, on a near
    /// talker with a 40 Hz hum and noise (without the notch its Ŷ held the hum, which the
    /// suppressor took out of E, whose hum speex's notch had already taken: samples up to 6391
    /// units off).
    @Test func aSilentFarEndPassesTheSuppressorUntouched() throws {
        let rate = 16000, frame = 320, frames = 250
        let state = try EchoState(frameFrames: frame, tailFrames: rate / 10, rate: rate)
        let suppressor = ResidualEchoSuppressor(frameFrames: frame, rate: rate, suppressDB: -80, activeDB: -30)
        let near = AECSignals.speech(count: frames * frame, seed: 0x5EA_0001, activeDBFS: -24, formant1: 300...900, formant2: 900...2600,
                                     talking: 0.5..<5.0, rate: rate)
        var random = SeededRandom(0x5EA_0002)
        var rec = [Int16](repeating: 0, count: frame), out = [Int16](repeating: 0, count: frame), previous = out
        let play = [Int16](repeating: 0, count: frame)
        var worst = 0
        for f in 0..<frames {
            for i in 0..<frame {
                let n = f * frame + i
                rec[i] = AECSignals.int16(near[n] + 0.03 * sin(2 * .pi * 40 * Double(n) / Double(rate)) + 0.003 * random.gaussian())
            }
            state.cancel(rec, play, into: &out)
            suppressor.capture(mic: rec, cancelled: out)
            var e = out
            suppressor.run(&e, doubleTalk: false)
            if f >= 2 { for i in 0..<frame { worst = max(worst, abs(Int(e[i]) - Int(previous[i]))) } }
            previous = out
        }
        #expect(worst <= 1, "the suppressor moved a near end alone by up to \(worst) units")
    }
}
