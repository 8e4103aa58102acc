import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `RealFFT` against `FFT` of the same real values (a zero imaginary part), both ways.
struct RealFFTTests {
    @Test(arguments: [2, 8, 1024])
    func matchesTheComplexTransform(size: Int) {
        var x = [Float](repeating: 0, count: size)
        var seed: UInt32 = 12345
        for i in 0..<size {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            x[i] = Float(Int32(bitPattern: seed >> 1) % 20000) / 20000
        }
        var cr = x, ci = [Float](repeating: 0, count: size)
        FFT(size: size).forward(real: &cr, imag: &ci)
        let real = RealFFT(size: size)
        var re = [Float](repeating: 0, count: real.bins), im = re, back = x
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in real.forward(x, re: r.baseAddress!, im: i.baseAddress!) }
        }
        var worst: Float = 0
        for k in 0..<real.bins { worst = max(worst, abs(re[k] - cr[k]), abs(im[k] - ci[k])) }
        #expect(worst <= 1e-4 * Float(size), "largest difference from FFT's bins: \(worst)")
        back.withUnsafeMutableBufferPointer { b in real.inverse(re: re, im: im, into: b.baseAddress!) }
        var error: Float = 0
        for i in 0..<size { error = max(error, abs(back[i] - x[i])) }
        #expect(error <= 1e-5, "inverse(forward(x)) differs from x by up to \(error)")
    }
}
