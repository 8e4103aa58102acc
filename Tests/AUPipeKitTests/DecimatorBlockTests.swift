import Testing
import CAUPipeSupport
@testable import AUPipeGraph

/// `Decimator`'s block push (`aupipe_fir_decimate`, eight outputs at a time) gives the bits the
/// former one-input-at-a-time loop gave (written out here), whatever the blocks the input comes
/// in, with the AVX2 and the baseline body, at factors 2 and 3.
@Suite struct DecimatorBlockTests {
    /// The former loop: the window of the last `taps` inputs, oldest first, summed from 0.
    static func reference(_ x: [Float], factor: Int, coefficients c: [Float]) -> [Float] {
        let taps = c.count
        let padded = [Float](repeating: 0, count: taps - 1) + x
        return stride(from: 0, to: x.count, by: factor).map { t in
            var acc: Float = 0
            for j in 0..<taps { acc += c[j] * padded[t + j] }
            return acc
        }
    }

    @Test(arguments: [2, 3])
    func sameBitsAsOneAtATime(factor: Int) {
        var state: UInt64 = 7
        let x = (0..<5000).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        for wide in [1, 0] {
            _ = aupipe_dsp_kernels_set_wide(Int32(wide))
            for block in [1, 7, 960, 3000] {
                let d = Decimator(factor: factor)
                var out: [Float] = [], inputs: [Int] = []
                var y = [Float](repeating: 0, count: block / factor + 2)
                var done = 0
                while done < x.count {
                    let n = min(block, x.count - done)
                    x.withUnsafeBufferPointer { xb in
                        y.withUnsafeMutableBufferPointer { yb in
                            d.push(xb.baseAddress! + done, count: n, into: yb.baseAddress!) { k, input in
                                out.append(yb[k])
                                inputs.append(done + input)
                            }
                        }
                    }
                    done += n
                }
                let expected = Self.reference(x, factor: factor, coefficients: d.coefficientsForTests)
                #expect(out.map(\.bitPattern) == expected.map(\.bitPattern), "factor \(factor), blocks of \(block), wide \(wide)")
                #expect(inputs == Array(stride(from: 0, to: x.count, by: factor)))
            }
        }
    }
}
