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
/// with a silent far end the output was 0.1–1 dB under `residual=0`'s at 50–8000 Hz (a
/// difference 29 dB under the signal on bench/aec's `room-rt04-d80`, 16 dB on this test's near talker with a 40 Hz hum).
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

    /// With a silent far end the residual echo suppressor changes nothing: `aec`'s defaults give
    /// what `residual=0` gives, to 60 dB under the signal, on a near talker with a hum and noise.
    @Test func aSilentFarEndPassesTheSuppressorUntouched() throws {
        let rate = 16000, n = 6 * rate
        let near = AECSignals.speech(count: n, seed: 0x5EA_0001, activeDBFS: -24, formant1: 300...900, formant2: 900...2600,
                                     talking: 0.5..<6.0, rate: rate)
        var random = SeededRandom(0x5EA_0002)
        let mic = (0..<n).map { i in
            Float(near[i] + 0.03 * sin(2 * .pi * 40 * Double(i) / Double(rate)) + 0.003 * random.gaussian())
        }
        let format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: 1)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("aupipe-silentfar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ref = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav([Float](repeating: 0, count: n), format)).write(to: ref)
        func output(_ args: [String]) throws -> [Double] {
            let r = try TestSignals.run([["aec", "ref=\(ref.path)"] + args], TestSignals.wav(mic, format))
            let bytes = TestSignals.audio(r.bytes, r.report)
            return (0..<bytes.count / 2).map { Double(Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8)) / 32768 }
        }
        let withSuppressor = try output([]), without = try output(["residual=0"])
        #expect(withSuppressor.count == n && without.count == n)
        let signal = without.reduce(0) { $0 + $1 * $1 }
        let difference = zip(withSuppressor, without).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let db = 10 * log10(max(difference, 1e-30) / signal)
        #expect(db < -60, "the suppressor changed a near end alone by \(db) dB of it")
    }
}
