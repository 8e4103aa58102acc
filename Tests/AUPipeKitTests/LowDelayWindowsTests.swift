import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The residual echo suppressor's analysis–synthesis (`LowDelayWindows`): for frames under 20 ms
/// the gain is computed on a 40 ms analysis window and resynthesised with a short synthesis
/// window, so that the suppressor adds its overlap (2.5 ms) instead of a frame.
@Suite struct LowDelayWindowsTests {
    /// White noise in −0.5...0.5, seeded (`EchoBandSplitTests.noise`).
    static func noise(_ count: Int, seed: UInt64) -> [Float] { EchoBandSplitTests.noise(count, seed: seed) }

    /// `x` through the windows' STFT at their hop: analysis window, transform, `gain(k)` per bin
    /// (real: zero phase), inverse transform, synthesis and overlap-add; as the suppressor runs it.
    static func run(_ windows: LowDelayWindows, _ x: [Float], gain: (Int) -> Float = { _ in 1 }) -> [Float] {
        let n = windows.hop, l = windows.length
        var size = 1
        while size < l { size <<= 1 }
        let fft = RealFFT(size: size), bins = size / 2 + 1
        var history = [Float](repeating: 0, count: l), work = [Float](repeating: 0, count: size)
        var re = [Float](repeating: 0, count: bins), im = re, frame = [Float](repeating: 0, count: n), out: [Float] = []
        for start in stride(from: 0, to: x.count - n + 1, by: n) {
            history.removeFirst(n)
            history += x[start..<(start + n)]
            for i in 0..<size { work[i] = i < l ? windows.analysis[i] * history[i] : 0 }
            fft.forward(work, re: &re, im: &im)
            for k in 0..<bins { re[k] *= gain(k); im[k] *= gain(k) }
            fft.inverse(re: re, im: im, into: &work)
            windows.synthesise(work, into: &frame)
            out += frame
        }
        return out
    }

    /// A flat gain gives the input back, `overlap` samples late, to rounding: the analysis window
    /// times the synthesis window overlap-adds to 1 at the hop. The suppressor's windows at 16 kHz
    /// for 10 and 5 ms frames (40 ms analysis, 2.5 ms overlap: 40 samples late), the standard
    /// ones for a 20 ms frame (a frame late), and others.
    @Test(arguments: [(16000, 160, 640, 40), (16000, 80, 640, 40), (16000, 320, 640, 320), (8000, 80, 320, 20), (16000, 160, 200, 40)])
    func aFlatGainGivesTheInputBackLate(rate: Int, hop: Int, length: Int, overlap: Int) {
        let windows = length == 2 * hop && overlap == hop ? LowDelayWindows(standard: hop) : LowDelayWindows(length: length, hop: hop, overlap: overlap)
        if length == 640 || length == 320 && rate == 8000 {
            let chosen = LowDelayWindows.suppressor(frameFrames: hop, rate: rate)
            #expect(chosen.length == length && chosen.overlap == overlap && chosen.hop == hop)
        }
        let x = Self.noise(60 * hop, seed: UInt64(hop * 7 + length))
        let y = Self.run(windows, x)
        var worst: Float = 0, peak: Float = 0
        // From the first sample whose window was whole.
        for i in length..<y.count {
            worst = max(worst, abs(y[i] - x[i - overlap]))
            peak = max(peak, abs(y[i]))
        }
        #expect(peak > 0.4)
        #expect(worst < 2e-6, "hop \(hop), L \(length), M \(overlap): \(worst) off the input \(overlap) samples back")
    }

    /// The gain is applied per bin, zero phase: two tones, one in bins given a gain of 0 and one
    /// in bins given 1, through the low-delay windows of a 10 ms frame at 16 kHz. The first is
    /// more than 30 dB down (36 measured: the analysis window's short fall, 2.5 ms, spreads a tone
    /// over more bins than a symmetric window), the second within 0.1 dB and in phase (the output
    /// is the input 40 samples late).
    @Test func aGainInABinTakesThatBinOnly() {
        let windows = LowDelayWindows.suppressor(frameFrames: 160, rate: 16000)
        let rate = 16000.0, cut = 500.0, kept = 2000.0, size = 1024.0
        let count = 200 * 160
        let x = (0..<count).map { i -> Float in
            let t = Double(i) / rate
            return Float(0.3 * sin(2 * Double.pi * cut * t) + 0.3 * sin(2 * Double.pi * kept * t))
        }
        let cutBin = Int((cut * size / rate).rounded())
        let y = Self.run(windows, x) { abs($0 - cutBin) <= 8 ? 0 : 1 }
        // Projections onto each tone, 40 samples late, past the start.
        func amplitude(_ hz: Double) -> (Double, Double) {
            var c = 0.0, s = 0.0, m = 0
            for i in 2000..<y.count {
                let t = Double(i - windows.overlap) / rate
                c += Double(y[i]) * cos(2 * .pi * hz * t); s += Double(y[i]) * sin(2 * .pi * hz * t); m += 1
            }
            return (2 * (c * c + s * s).squareRoot() / Double(m), atan2(c, s))
        }
        let (a1, _) = amplitude(cut), (a2, phase2) = amplitude(kept)
        #expect(20 * log10(a1 / 0.3) < -30, "the cut tone is \(20 * log10(a1 / 0.3)) dB")
        #expect(abs(20 * log10(a2 / 0.3)) < 0.1, "the kept tone is \(20 * log10(a2 / 0.3)) dB")
        #expect(abs(phase2) < 0.01, "the kept tone's phase moved by \(phase2) rad")
    }

    /// The whole suppressor, with a silent far end, gives the canceller's output back
    /// `latencySamples` late to within a unit: a frame with 20 ms frames, 40 samples (2.5 ms) with
    /// 10 ms frames (the low-delay windows), on a near talker with noise.
    @Test(arguments: [(320, 320), (160, 40)])
    func theSuppressorsCountedDelay(frame: Int, delay: Int) throws {
        let rate = 16000, frames = 500 * 160 / frame
        let state = try EchoState(frameFrames: frame, tailFrames: rate / 10, rate: rate)
        let suppressor = ResidualEchoSuppressor(frameFrames: frame, rate: rate, suppressDB: -80, activeDB: -30)
        #expect(suppressor.latencySamples == delay)
        let near = AECSignals.speech(count: frames * frame, seed: 0x10D_0001, activeDBFS: -24, formant1: 300...900, formant2: 900...2600,
                                     talking: 0.5..<4.0, rate: rate)
        var random = SeededRandom(0x10D_0002)
        var rec = [Int16](repeating: 0, count: frame), out = rec
        let play = [Int16](repeating: 0, count: frame)
        var input: [Int16] = [], output: [Int16] = []
        for f in 0..<frames {
            for i in 0..<frame { rec[i] = AECSignals.int16(near[f * frame + i] + 0.003 * random.gaussian()) }
            state.cancel(rec, play, into: &out)
            suppressor.capture(mic: rec, cancelled: out)
            input += out
            suppressor.run(&out, doubleTalk: false)
            output += out
        }
        var worst = 0, peak = 0
        for i in (4 * frame)..<output.count {
            worst = max(worst, abs(Int(output[i]) - Int(input[i - delay])))
            peak = max(peak, abs(Int(output[i])))
        }
        #expect(peak > 3000)
        #expect(worst <= 1, "frame \(frame): the output is up to \(worst) units off the input \(delay) samples back")
    }

    /// The band split holds the upper band back by the canceller's latency when it is not whole
    /// frames (the low-delay windows' 40 low-band samples at 48 kHz, 10 ms frames): with the low
    /// band passed through that late and the upper band's gain at 1, the output is the input
    /// delayed by the split's round trip and 3 × 40 samples, to float precision.
    /// A core latency under a frame (the low-delay windows' 40 samples) and over one (`preprocess=speex`
    /// with them: a frame through speex's preprocessor and the 40 held samples).
    @Test(arguments: [40, 200])
    func theBandSplitHoldsTheUpperBandBackBySamples(core: Int) {
        let factor = 3, frame = 480, low = frame / factor, channels = 1
        let split = EchoBandSplit(factor: factor, frameFrames: frame, channels: channels, micChannels: [0], speakers: 0,
                                  coreLatency: core, frameSeconds: 0.01, comfort: false)
        #expect(split.latencyFrames == 2 * BandSplitFilter.halfPhases * factor + core * factor)
        let frames = 30
        let x = Self.noise(frames * frame, seed: 0x10D_48)
        var lowIn = [Float](repeating: 0, count: core), out: [Float] = []
        var y = [Float](repeating: 0, count: frame)
        for k in 0..<frames {
            x.withUnsafeBufferPointer { split.analyse($0.baseAddress! + k * frame) }
            lowIn += (0..<low).map { split.low[$0] }
            for i in 0..<low { split.lowOut[i] = lowIn[k * low + i] }
            split.synthesise(into: &y)
            out += y
        }
        let delay = split.latencyFrames
        var worst: Float = 0
        for i in delay..<out.count { worst = max(worst, abs(out[i] - x[i - delay])) }
        #expect(worst < 2e-6, "the split and its sum differ from the input by \(worst)")
    }
}
