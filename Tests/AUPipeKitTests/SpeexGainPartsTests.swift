import Foundation
import Testing
@testable import AUPipeUnits

/// The parts of speex's preprocessor that `aec preprocess=1` runs inside the residual echo
/// suppressor, each against speexdsp's own numbers or its documented behaviour:
/// `BarkBands` (filterbank.c), `NoiseSuppressionGain` (preprocess.c's gain) and `LeakResidual`
/// (mdf.c's leak estimate). The end-to-end depth is `PreprocessInsideSuppressorTests`'.
@Suite struct SpeexGainPartsTests {
    /// `filterbank_new(24, rate, len, 1)` of libspeexdsp (git HEAD of xiph/speexdsp, built with
    /// FLOATING_POINT): per bin, the band on its left and its weight there (`bank_left`,
    /// `filter_left`).
    static let speexBanks: [(rate: Int, len: Int, bin: Int, band: Int, weight: Float)] = [
        (16000, 320, 0, 0, 1.000000), (16000, 320, 1, 0, 0.733519), (16000, 320, 4, 1, 0.935536),
        (16000, 320, 11, 2, 0.104358), (16000, 320, 20, 5, 0.881763), (16000, 320, 40, 9, 0.763087),
        (16000, 320, 100, 15, 0.117057), (16000, 320, 160, 18, 0.112618), (16000, 320, 240, 21, 0.677539),
        (16000, 320, 319, 22, 0.017587),
        (8000, 160, 3, 0, 0.027153), (8000, 160, 13, 4, 0.853411), (8000, 160, 60, 14, 0.137392),
        (8000, 160, 140, 22, 0.999798), (8000, 160, 159, 22, 0.046480),
    ]

    @Test func barkBandsAreSpeexsFilterbank() {
        for row in Self.speexBanks {
            // speex's preprocessor: N bins of a 2N-point transform; the suppressor adds the Nyquist bin.
            let bands = BarkBands(bins: row.len + 1, fftSize: 2 * row.len, rate: row.rate)
            #expect(bands.count == 24)
            var impulse = [Float](repeating: 0, count: row.len + 1)
            impulse[row.bin] = 1
            var out = [Float](repeating: 0, count: 24)
            impulse.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { bands.sum(i.baseAddress!, into: $0.baseAddress!) } }
            #expect(abs(out[row.band] - row.weight) < 1e-4, "\(row.rate) Hz bin \(row.bin): band \(row.band) weight \(out[row.band]), speex \(row.weight)")
            #expect(abs(out[row.band + 1] - (1 - row.weight)) < 1e-4)
            #expect(abs(out.reduce(0, +) - 1) < 1e-6)
        }
    }

    @Test func barkBandsSpreadBandsBackToTheirBins() {
        let bins = 321, bands = BarkBands(bins: bins, fftSize: 640, rate: 16000)
        // Equal band values spread to the same value in every bin (weights sum to 1); the whole
        // spectrum's sum is kept by `sum`.
        var flat = [Float](repeating: 0, count: bins)
        let ones = [Float](repeating: 2, count: 24)
        ones.withUnsafeBufferPointer { b in flat.withUnsafeMutableBufferPointer { bands.spread(b.baseAddress!, into: $0.baseAddress!) } }
        #expect(flat.allSatisfy { abs($0 - 2) < 1e-6 })
        let spectrum = (0..<bins).map { Float(1 + $0 % 7) }
        var summed = [Float](repeating: 0, count: 24)
        spectrum.withUnsafeBufferPointer { s in summed.withUnsafeMutableBufferPointer { bands.sum(s.baseAddress!, into: $0.baseAddress!) } }
        #expect(abs(summed.reduce(0, +) - spectrum.reduce(0, +)) < 1e-2)
    }

    /// preprocess.c's table ends at x = 10, where its asymptote 1 + 0.1296/x takes over: the two meet.
    @Test func hypergeometricGainIsContinuousAtItsTablesEnd() {
        let below = NoiseSuppressionGain.hypergeometricGain(9.999), above = NoiseSuppressionGain.hypergeometricGain(10.001)
        #expect(abs(below - above) < 2e-3, "\(below) vs \(above)")
        #expect(abs(NoiseSuppressionGain.hypergeometricGain(1000) - (1 + 0.1296 / 1000)) < 1e-6)
        // Rising SNR, falling correction: at x = 0.5 the table's second entry over √0.5.
        #expect(abs(NoiseSuppressionGain.hypergeometricGain(0.5) - Float(1.02017 / 0.5.squareRoot())) < 1e-3)
        #expect(NoiseSuppressionGain.qcurve(0) == 0 && abs(NoiseSuppressionGain.qcurve(0.15) - 0.5) < 1e-6)
    }

    /// Reproducible draws of |X|² for a Gaussian spectrum: exponential, mean 1.
    struct Exponential {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let u = Float((state >> 40) + 1) / Float(1 << 24)
            return -log(u)
        }
    }

    static let bins = 321, fftSize = 640, frameFrames = 320, rate = 16000

    /// Runs `frames` frames of noise of power `level` per bin (plus `echo` of residual echo in
    /// every bin, added to the power) through a gain; returns the median gain in dB.
    static func run(_ gain: NoiseSuppressionGain, frames: Int, level: Float, echo: Float, tone: Int? = nil,
                    draws: inout Exponential) -> Double {
        var power = [Float](repeating: 0, count: bins), residual = [Float](repeating: echo, count: bins)
        for _ in 0..<frames {
            for k in 0..<bins { power[k] = level * draws.next() + echo * draws.next() }
            if let tone { power[tone] = 1000 * level }
            power.withUnsafeBufferPointer { p in residual.withUnsafeBufferPointer { gain.update(power: p.baseAddress!, echo: $0.baseAddress!) } }
        }
        let db = (1..<bins - 1).map { 20 * log10(Double(gain.gain[$0])) }.sorted()
        return db[db.count / 2]
    }

    @Test func noiseIsTakenToTheDenoiseDepthAndAToneIsKept() {
        var draws = Exponential(state: 7)
        let gain = NoiseSuppressionGain(bins: Self.bins, fftSize: Self.fftSize, frameFrames: Self.frameFrames, rate: Self.rate,
                                        denoiseDB: -15, suppressDB: -40, activeDB: -15)
        let level: Float = 1e-3
        let median = Self.run(gain, frames: 400, level: level, echo: 0, draws: &draws)
        // speex's floor is the depth; speech presence in noise lifts some bins a little.
        #expect(median < -12 && median > -16, "median gain on noise \(median) dB")
        // A tone 30 dB over the noise that starts now (a steady one is noise to speex, as any
        // stationary sound) passes.
        _ = Self.run(gain, frames: 3, level: level, echo: 0, tone: 100, draws: &draws)
        #expect(20 * log10(Double(gain.gain[100])) > -1, "a tone 30 dB over the noise: \(20 * log10(Double(gain.gain[100]))) dB")
        // The noise estimate is the noise's level (mean of the draws 1).
        let noise = (1..<Self.bins - 1).filter { $0 != 100 }.map { Double(gain.noise[$0]) }.reduce(0, +) / Double(Self.bins - 3)
        // (The tone's three frames leave the estimate where it was.)
        #expect(abs(10 * log10(noise / Double(level))) < 2, "noise estimate \(10 * log10(noise / Double(level))) dB off")
    }

    @Test func residualEchoIsTakenToItsFloorAndTheNoiseEstimateDoesNotFollowIt() {
        var draws = Exponential(state: 11)
        let gain = NoiseSuppressionGain(bins: Self.bins, fftSize: Self.fftSize, frameFrames: Self.frameFrames, rate: Self.rate,
                                        denoiseDB: -15, suppressDB: -40, activeDB: -15)
        let level: Float = 1e-3
        _ = Self.run(gain, frames: 300, level: level, echo: 0, draws: &draws)
        let median = Self.run(gain, frames: 300, level: level, echo: 100 * level, draws: &draws)
        #expect(median < -25, "median gain on residual echo 20 dB over the noise: \(median) dB")
        let noise = (1..<Self.bins - 1).map { Double(gain.noise[$0]) }.reduce(0, +) / Double(Self.bins - 2)
        #expect(10 * log10(noise / Double(level)) < 3, "the noise estimate rose \(10 * log10(noise / Double(level))) dB with the echo")
    }

    /// Feeds `frames` frames of an echo estimate whose power per bin varies from frame to frame,
    /// and an output C that is `share` of it plus `other` (uncorrelated); returns the leak.
    static func leak(share: Float, other: Float, frames: Int) -> (LeakResidual, [Float]) {
        let leak = LeakResidual(bins: bins, frameFrames: frameFrames, rate: rate)
        var draws = Exponential(state: 3)
        var y = [Float](repeating: 0, count: bins), c = [Float](repeating: 0, count: bins)
        for _ in 0..<frames {
            let loud = 0.2 + 2 * draws.next()
            for k in 0..<bins { y[k] = loud * draws.next(); c[k] = share * y[k] + other * draws.next() }
            let yEnergy = y.reduce(0, +) / Float(fftSize), cEnergy = c.reduce(0, +) / Float(fftSize)
            y.withUnsafeBufferPointer { yp in
                c.withUnsafeBufferPointer { cp in
                    leak.update(cFrame: cp.baseAddress!, yFrame: yp.baseAddress!, yPower: yp.baseAddress!, cEnergy: cEnergy, yEnergy: yEnergy)
                }
            }
        }
        return (leak, y)
    }

    @Test func leakIsTheOutputsShareOfTheEchoEstimateDoubledAsSpeexReadsIt() {
        let (correlated, y) = Self.leak(share: 0.05, other: 0, frames: 500)
        #expect(abs(correlated.leak - 0.1) < 0.01, "leak \(correlated.leak), C = 0.05·Ŷ")
        // The residual per bin: leak × Ŷ's power × the Hann-over-sqrt-Hann gain, or the previous
        // frame's held: max(0.6·before, leak·0.75·|Ŷ|²), exactly.
        let before = (0..<Self.bins).map { correlated.power[$0] }
        let next = y.map { $0 * 0.5 }, c = next.map { $0 * 0.05 }
        let yEnergy = next.reduce(0, +) / Float(Self.fftSize), cEnergy = c.reduce(0, +) / Float(Self.fftSize)
        next.withUnsafeBufferPointer { yp in
            c.withUnsafeBufferPointer { cp in
                correlated.update(cFrame: cp.baseAddress!, yFrame: yp.baseAddress!, yPower: yp.baseAddress!, cEnergy: cEnergy, yEnergy: yEnergy)
            }
        }
        for k in [10, 100, 300] {
            let expected = max(LeakResidual.holdDecay * before[k], correlated.leak * LeakResidual.hannOverSqrtHann * next[k])
            #expect(abs(correlated.power[k] - expected) <= 1e-6 * expected, "bin \(k): \(correlated.power[k]), expected \(expected)")
        }
        let (unrelated, _) = Self.leak(share: 0, other: 0.05, frames: 500)
        #expect(unrelated.leak <= 2 * LeakResidual.leastLeak * 1.01 + 0.005, "leak \(unrelated.leak) with C unrelated to Ŷ")
        let (saturated, _) = Self.leak(share: 0.8, other: 0, frames: 500)
        #expect(saturated.leak == 1, "a share over one half reads as 1: \(saturated.leak)")
    }

    @Test func leakResidualIsHeldWithSpeexsDecay() {
        let (leak, _) = Self.leak(share: 0.05, other: 0, frames: 200)
        let before = leak.power[50]
        let zero = [Float](repeating: 0, count: Self.bins)
        zero.withUnsafeBufferPointer { z in
            leak.update(cFrame: z.baseAddress!, yFrame: z.baseAddress!, yPower: z.baseAddress!, cEnergy: 0, yEnergy: 0)
        }
        #expect(abs(leak.power[50] - LeakResidual.holdDecay * before) <= 1e-6 * before)
    }
}
