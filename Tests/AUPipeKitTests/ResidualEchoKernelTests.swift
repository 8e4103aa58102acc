import Testing
import CAUPipeSupport

/// The C kernels under `ResidualEchoSuppressor`'s per-bin loops (`aupipe_res_statistics`,
/// `aupipe_res_adapt`, `aupipe_res_gains` in `CAUPipeSupport/echo_kernels.c`): the AVX2 and the
/// baseline bodies, and the Swift loops they replaced (written out here as they were), give
/// the same bits, so aec's output does not change; transforms of 16 to 2048 points.
@Suite struct ResidualEchoKernelTests {
    /// Values of several magnitudes, zeros among them, from a seeded generator.
    static func values(_ n: Int, seed: UInt64, scale: Float = 1) -> [Float] {
        var state = seed
        return (0..<n).map { i in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let u = Float(z >> 40) * 0x1p-24
            return i % 11 == 3 ? 0 : scale * (u - 0.3) * Float(1 << (z % 9))
        }
    }

    /// The arrays of one run: the state before, then what the kernels or the loops leave.
    struct Bins {
        var see, syy, sdd, sdyRe, sdyIm, eFast, p, coh, minNow, minBefore, noise, s, sp, ss, w1, w2, w3, gain: [Float]
        init(_ bins: Int) {
            func v(_ seed: UInt64) -> [Float] { values(bins, seed: seed).map { abs($0) } }
            see = v(1); syy = v(2); sdd = v(3); sdyRe = values(bins, seed: 4); sdyIm = values(bins, seed: 5); eFast = v(6)
            p = v(7); coh = v(8); minNow = v(9); minBefore = v(10); noise = v(11); s = v(12); sp = v(13); ss = v(14)
            w1 = v(15).map { $0 / 64 }; w2 = v(16).map { $0 / 64 }; w3 = v(17).map { $0 / 64 }; gain = v(18).map { min($0, 1) }
        }
        var all: [[Float]] { [see, syy, sdd, sdyRe, sdyIm, eFast, p, coh, minNow, noise, sp, ss, w1, w2, w3, gain] }
    }

    static let (a, g, decay, bias): (Float, Float, Float, Float) = (0.85, 0.4, 0.9, 1)

    /// The Swift loops as ResidualEchoSuppressor.swift had them; returns the sums.
    static func reference(_ x: inout Bins, re: [Float], im: [Float], size: Int, adapt: Bool, near: Bool) -> [Float] {
        let bins = size / 2 + 1
        var pSum: Float = 0, cohWeighted: Float = 0, yWeight: Float = 0, noiseSum: Float = 0, dWeight: Float = 0
        for k in 0..<bins {
            let j = (size - k) & (size - 1)
            let ar = re[k], ai = im[k], br = re[j], bi = im[j]
            let er = (ar + br) / 2, ei = (ai - bi) / 2
            let yr = (ai + bi) / 2, yi = (br - ar) / 2
            let dr = yr + er, di = yi + ei
            let e2 = er * er + ei * ei, y2 = yr * yr + yi * yi
            x.see[k] = a * x.see[k] + (1 - a) * e2
            x.syy[k] = a * x.syy[k] + (1 - a) * y2
            x.sdd[k] = a * x.sdd[k] + (1 - a) * (dr * dr + di * di)
            x.sdyRe[k] = a * x.sdyRe[k] + (1 - a) * (dr * yr + di * yi)
            x.sdyIm[k] = a * x.sdyIm[k] + (1 - a) * (di * yr - dr * yi)
            x.eFast[k] = g * x.eFast[k] + (1 - g) * e2
            x.p[k] = max(y2, decay * x.p[k])
            pSum += x.p[k]
            let coh = (x.sdyRe[k] * x.sdyRe[k] + x.sdyIm[k] * x.sdyIm[k]) / (x.sdd[k] * x.syy[k] + 1e-20)
            x.coh[k] = coh
            cohWeighted += coh * x.syy[k]
            yWeight += x.syy[k]
            dWeight += x.sdd[k]
            x.minNow[k] = min(x.minNow[k], x.see[k])
            x.noise[k] = bias * min(x.minNow[k], x.minBefore[k])
            noiseSum += x.noise[k]
        }
        let b = pSum / Float(bins), sb: Float = 0.37
        for k in 0..<bins {
            x.sp[k] = a * x.sp[k] + (1 - a) * x.p[k]
            x.ss[k] = a * x.ss[k] + (1 - a) * x.s[k]
        }
        if adapt {
            for k in 0..<bins where x.coh[k] >= 0.5 {
                let target = max(x.see[k] - x.noise[k], 0)
                let x1 = x.sp[k], x2 = x.ss[k], x3 = sb
                let err = target - (x.w1[k] * x1 + x.w2[k] * x2 + x.w3[k] * x3)
                let mu = 0.1 * err / (x1 * x1 + x2 * x2 + x3 * x3 + 1e-24)
                x.w1[k] = min(max(x.w1[k] + mu * x1, 0), 8)
                x.w2[k] = min(max(x.w2[k] + mu * x2, 0), 8)
                x.w3[k] = min(max(x.w3[k] + mu * x3, 0), 8)
            }
        }
        let floor: Float = near ? 0.03 : 1e-4, beta: Float = near ? 0.3 : 8
        for k in 0..<bins {
            let r = x.w1[k] * x.p[k] + x.w2[k] * x.s[k] + x.w3[k] * b
            let e2 = max(x.eFast[k], 1e-20)
            let nearBin = x.coh[k] < 0.5 && e2 > 4 * r
            var gk = 1 - (nearBin ? min(1, beta) : beta) * r / e2
            gk = max(gk, min(1, (x.noise[k] / e2).squareRoot()), nearBin ? 0.03 : floor)
            x.coh[k] = min(gk, 1)
        }
        for k in 0..<bins {
            let l = x.coh[max(k - 1, 0)], c = x.coh[k], r = x.coh[min(k + 1, bins - 1)]
            x.gain[k] = 0.3 * x.gain[k] + (1 - 0.3) * (0.25 * l + 0.5 * c + 0.25 * r)
        }
        return [pSum, cohWeighted, yWeight, dWeight, noiseSum]
    }

    /// The same frame through the kernels; returns the sums.
    static func kernels(_ x: inout Bins, re: [Float], im: [Float], size: Int, adapt: Bool, near: Bool) -> [Float] {
        let bins = size / 2 + 1
        var sums = [Float](repeating: 0, count: 5)
        aupipe_res_statistics(re, im, size, bins, a, g, decay, bias, &x.see, &x.syy, &x.sdd, &x.sdyRe, &x.sdyIm, &x.eFast, &x.p, &x.coh,
                              &x.minNow, x.minBefore, &x.noise, &sums)
        let b = sums[0] / Float(bins)
        aupipe_res_adapt(bins, a, x.p, x.s, &x.sp, &x.ss, 0.37, adapt ? 1 : 0, x.coh, 0.5, x.see, x.noise, 0.1, 8, &x.w1, &x.w2, &x.w3)
        aupipe_res_gains(bins, x.w1, x.w2, x.w3, x.p, x.s, b, x.eFast, x.noise, &x.coh, 0.5, 4, near ? 0.3 : 8, 0.03, near ? 0.03 : 1e-4, 0.3, &x.gain)
        return sums
    }

    @Test("kernels and the Swift loops give the same bits", arguments: [16, 32, 64, 128, 1024, 2048])
    func sameBits(size: Int) {
        let bins = size / 2 + 1
        let re = Self.values(size, seed: UInt64(size), scale: 0.5), im = Self.values(size, seed: UInt64(size) + 99, scale: 0.5)
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        for (adapt, near) in [(true, false), (false, true), (true, true)] {
            var expected = Bins(bins)
            let expectedSums = Self.reference(&expected, re: re, im: im, size: size, adapt: adapt, near: near)
            for wide in [1, 0] {
                _ = aupipe_dsp_kernels_set_wide(Int32(wide))
                var got = Bins(bins)
                let sums = Self.kernels(&got, re: re, im: im, size: size, adapt: adapt, near: near)
                #expect(sums.map(\.bitPattern) == expectedSums.map(\.bitPattern), "sums, size \(size), wide \(wide)")
                for (i, (e, o)) in zip(expected.all, got.all).enumerated() {
                    #expect(e.map(\.bitPattern) == o.map(\.bitPattern), "array \(i), size \(size), wide \(wide), adapt \(adapt), near \(near)")
                }
            }
        }
    }
}
