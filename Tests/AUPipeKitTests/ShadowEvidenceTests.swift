import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits

/// The residual echo suppressor's use of the shadow canceller's output after a fall of the
/// cancellation (`ShadowEvidence`): its spectrum passed in bins where it is `quieterDB` under
/// C's, and nowhere else.
@Suite final class ShadowEvidenceTests {
    /// 20 ms frames at 16 kHz: C white noise; the other filter's output C scaled by `scale`
    /// (nil: none runs). Returns the bins taken in the last of `frames` frames and whether its
    /// spectrum replaced C's there.
    func run(scale: Float?, frames: Int = 6) -> (taken: Int, replaced: Bool) {
        let n = 320, windows = LowDelayWindows.suppressor(frameFrames: n, rate: 16000)
        var size = 1
        while size < windows.length { size <<= 1 }
        let bins = size / 2 + 1
        let evidence = ShadowEvidence(bins: bins, fftSize: size, windowLength: windows.length, frameFrames: n)
        var random = SeededRandom(0x5EED)
        var c = [Float](repeating: 0, count: n), shadow = [Int16](repeating: 0, count: n)
        var history = [Float](repeating: 0, count: windows.length)
        var eRe = [Float](repeating: 0, count: bins), eIm = [Float](repeating: 0, count: bins)
        var cPower = [Float](repeating: 0, count: bins), shadowRe = [Float](repeating: 0, count: bins)
        let fft = RealFFT(size: size)
        var work = [Float](repeating: 0, count: size), im = [Float](repeating: 0, count: bins)
        var taken = 0, replaced = true
        for frame in 0..<frames {
            for i in 0..<n { c[i] = Float(random.uniform(-3000...3000)) / 32768 }
            if let scale { for i in 0..<n { shadow[i] = Int16((c[i] * scale * 32768).rounded()) } }
            shadow.withUnsafeBufferPointer { s in c.withUnsafeBufferPointer { evidence.capture(shadow: scale == nil ? nil : s.baseAddress!, c: $0.baseAddress!) } }
            // C's spectrum and power (smoothed as the suppressor's), and the other filter's for the check.
            history.removeFirst(n); history += c
            for i in 0..<windows.length { work[i] = windows.analysis[i] * history[i] }
            fft.forward(work, re: &eRe, im: &eIm)
            let g = ResidualEchoSuppressor.gainPowerSmoothing
            for k in 0..<bins { let p = eRe[k] * eRe[k] + eIm[k] * eIm[k]; cPower[k] = frame == 0 ? p : g * cPower[k] + (1 - g) * p }
            for i in 0..<windows.length { work[i] *= scale ?? 1 }
            fft.forward(work, re: &shadowRe, im: &im)
            evidence.apply(window: windows.analysis, cPower: cPower, smoothing: ResidualEchoSuppressor.gainPowerSmoothing, eRe: &eRe, eIm: &eIm)
            if frame == frames - 1 {
                taken = (0..<bins).filter { evidence.taken[$0] == 1 }.count
                // Where taken, the other filter's spectrum (to its 16-bit rounding).
                replaced = (0..<bins).allSatisfy { k in evidence.taken[k] == 0 || abs(eRe[k] - shadowRe[k]) <= 1e-3 * (abs(shadowRe[k]) + 1) }
            }
        }
        return (taken, replaced)
    }

    /// 12 dB quieter: every bin (but the band edges' few, where the windowed noise is weak) passes
    /// the other filter's spectrum; 3 dB quieter, as loud, or none running: none does.
    @Test func passedOnlyWhereClearlyQuieter() {
        let bins = 513
        let quiet = run(scale: 0.25)
        #expect(quiet.taken >= bins * 9 / 10, "12 dB quieter: \(quiet.taken) bins of \(bins)")
        #expect(quiet.replaced, "the taken bins hold the other filter's spectrum")
        #expect(run(scale: 0.7).taken == 0)
        #expect(run(scale: 1).taken == 0)
        #expect(run(scale: nil).taken == 0)
    }
}
