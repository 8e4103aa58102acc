import Foundation
import Testing
@testable import AUPipeUnits

/// speex's DC notch, as `aec`'s linear canceller applies it, has the same response in Hz at 48
/// and 44.1 kHz as at 16 kHz (`DCNotchCorrection`): a tone through a canceller whose far end is
/// silent (the filter stays at zero, so the output is the notched microphone) keeps the level it
/// keeps at 16 kHz. Without the correction, 100 Hz loses 2.1 dB at 48 kHz against 1.0 at 16 kHz.
@Suite struct DCNotchCorrectionTests {
    /// The output's level against the input's (dB) for a tone of `hz` at −20 dBFS through an
    /// `EchoState` at `rate` with 20 ms frames and a silent far end, over the last of 2 s.
    static func toneGain(_ hz: Double, rate: Int) throws -> Double {
        let frame = rate / 50
        let state = try EchoState(frameFrames: frame, tailFrames: rate / 10, rate: rate)
        let frames = 100
        var rec = [Int16](repeating: 0, count: frame)
        let play = [Int16](repeating: 0, count: frame)
        var out = [Int16](repeating: 0, count: frame)
        var inPower = 0.0, outPower = 0.0
        for f in 0..<frames {
            for i in 0..<frame {
                let t = Double(f * frame + i) / Double(rate)
                rec[i] = Int16((0.1 * sin(2 * .pi * hz * t) * 32768).rounded())
            }
            state.cancel(rec, play, into: &out)
            if f >= frames / 2 {
                inPower += rec.reduce(0.0) { $0 + Double($1) * Double($1) }
                outPower += out.reduce(0.0) { $0 + Double($1) * Double($1) }
            }
        }
        return 10 * log10(outPower / inPower)
    }

    @Test(arguments: [50.0, 100.0, 150.0])
    func lowTonesKeepTheir16kHzLevel(hz: Double) throws {
        let at16 = try Self.toneGain(hz, rate: 16000)
        for rate in [44100, 48000] {
            let gain = try Self.toneGain(hz, rate: rate)
            #expect(abs(gain - at16) < 0.1, "\(hz) Hz at \(rate) Hz: \(gain) dB, at 16 kHz \(at16) dB")
        }
    }

    @Test func voiceBandPassesUnchanged() throws {
        for rate in [16000, 48000] {
            let gain = try Self.toneGain(1000, rate: rate)
            #expect(abs(gain) < 0.05, "1 kHz at \(rate) Hz: \(gain) dB")
        }
    }

    @Test func nothingToCorrectBelow24kHz() {
        #expect(DCNotchCorrection(rate: 16000, channels: 1) == nil)
        #expect(DCNotchCorrection(rate: 22050, channels: 1) == nil)
        #expect(DCNotchCorrection(rate: 24000, channels: 1) != nil)
    }
}
