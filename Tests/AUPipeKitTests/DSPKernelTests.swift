import Foundation
import Testing
import CAUPipeSupport
@testable import AUPipeGraph

/// The C kernels under FFT, RealFFT and PartitionedConvolver (`CAUPipeSupport/dsp_kernels.c`):
/// the AVX2 bodies give the same bits as the baseline ones (on a processor without AVX2 both runs
/// take the baseline body and agree trivially), and the FFT with its fused bit reversal matches
/// a direct DFT in double precision.
@Suite struct DSPKernelTests {
    static func noise(_ count: Int, seed: UInt32) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: s)) / Float(Int32.max)
        }
    }

    /// `body` run with the AVX2 kernels and with the baseline ones, as bit patterns.
    static func bothWays(_ body: () -> [Float]) -> (wide: [UInt32], base: [UInt32]) {
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        let wide = body().map(\.bitPattern)
        _ = aupipe_dsp_kernels_set_wide(0)
        return (wide, body().map(\.bitPattern))
    }

    @Test(arguments: [8, 64, 128, 1024, 8192, 65536])
    func theFFTGivesTheSameBitsWithEitherBody(size: Int) {
        let re0 = Self.noise(size, seed: 3), im0 = Self.noise(size, seed: 4)
        let fft = FFT(size: size)
        let (wide, base) = Self.bothWays {
            var re = re0, im = im0
            fft.forward(real: &re, imag: &im)
            var r2 = re, i2 = im
            fft.inverse(real: &r2, imag: &i2)
            return re + im + r2 + i2
        }
        #expect(wide == base, "FFT of \(size) points: the AVX2 and baseline kernels differ")
        let real = RealFFT(size: size)
        let (rw, rb) = Self.bothWays {
            var re = [Float](repeating: 0, count: real.bins), im = re, back = re0
            re0.withUnsafeBufferPointer { x in real.forward(x.baseAddress!, re: &re, im: &im) }
            real.inverse(re: re, im: im, into: &back)
            return re + im + back
        }
        #expect(rw == rb, "RealFFT of \(size) points: the AVX2 and baseline kernels differ")
    }

    /// The fused permutation and first passes (64 points and up) against Σ x[n]·e^(−2πi·kn/N).
    @Test(arguments: [64, 256, 2048])
    func theFFTMatchesADirectDFT(size: Int) {
        let x = Self.noise(size, seed: 11), y = Self.noise(size, seed: 12)
        var re = x, im = y
        FFT(size: size).forward(real: &re, imag: &im)
        var worst = 0.0
        for k in 0..<size {
            var sr = 0.0, si = 0.0
            for n in 0..<size {
                let a = -2 * Double.pi * Double((k * n) % size) / Double(size)
                sr += Double(x[n]) * cos(a) - Double(y[n]) * sin(a)
                si += Double(x[n]) * sin(a) + Double(y[n]) * cos(a)
            }
            worst = max(worst, abs(sr - Double(re[k])), abs(si - Double(im[k])))
        }
        #expect(worst < 1e-5 * Double(size), "FFT of \(size) points: \(worst) from the direct DFT")
    }

    @Test func theConvolverGivesTheSameBitsWithEitherBody() {
        let taps = Self.noise(20000, seed: 21).enumerated().map { $0.element * Float(exp(-Double($0.offset) / 4000)) }
        let input = Self.noise(30000, seed: 22)
        let (wide, base) = Self.bothWays {
            let convolver = PartitionedConvolver(ConvolutionFilter(taps: taps, plan: ConvolutionPlan(length: taps.count)))
            var out = [Float](repeating: 0, count: input.count)
            input.withUnsafeBufferPointer { x in
                out.withUnsafeMutableBufferPointer { y in convolver.process(x.baseAddress!, frames: input.count, into: y.baseAddress!) }
            }
            return out
        }
        #expect(wide == base, "a 20000-tap convolution: the AVX2 and baseline kernels differ")
    }
}
