import Testing
import CAUPipeSupport
@testable import AUPipeGraph

/// The C kernel under `Ditherer`'s Float TPDF path (`aupipe_tpdf_round` in
/// `CAUPipeSupport/dsp_kernels.c`): the AVX2 body gives the same bits as the baseline one, and
/// both the same bits as the scalar Swift loop it replaced (`DitherNoise.tpdf`, then rounding by
/// 1.5·2^23), so the edge's bytes and the golden files do not change.
@Suite struct DitherKernelTests {
    /// 1.5 × 2^23, Ditherer's Float rounding constant.
    static let magic: Float = 12_582_912

    /// The loop as Ditherer.swift wrote it before the kernel, every sample off the grid.
    static func reference(_ x: [Float], key: UInt32, low: UInt32) -> [Float] {
        x.enumerated().map { i, s in
            let y = s * 32768
            let v = y + DitherNoise.tpdf(key: key, low: low &+ UInt32(truncatingIfNeeded: i))
            return ((v + magic) - magic) * (1 / 32768)
        }
    }

    @Test("the AVX2 and baseline kernels and the Swift loop give the same bits", arguments: [1, 7, 8, 9, 4095, 4096])
    func sameBitsEveryWay(count: Int) {
        var x = DitherTests.busy(count, seed: 9)
        if count > 2 { x[1] = .nan; x[2] = -.infinity }
        let key = DitherNoise(seed: 0x6175_7069_7065).key(high: 0)
        // `low` near 2^32, so that the sample index wraps inside the block.
        let low: UInt32 = 0xFFFF_FFFC
        var flags = [UInt8](repeating: 1, count: count)
        let run = { () -> [UInt32] in
            var out = [Float](repeating: 0, count: count)
            aupipe_tpdf_round(x, &out, count, flags, key, low, 32768, 1 / 32768)
            return out.map(\.bitPattern)
        }
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        let wide = run()
        _ = aupipe_dsp_kernels_set_wide(0)
        let base = run()
        #expect(wide == base, "\(count) samples: the AVX2 and baseline kernels differ")
        #expect(base == Self.reference(x, key: key, low: low).map(\.bitPattern), "\(count) samples: the kernel differs from the Swift loop")
        // Where the window is on the grid, no noise: the sample is only rounded.
        for i in stride(from: 0, to: count, by: 2) { flags[i] = 0 }
        _ = aupipe_dsp_kernels_set_wide(1)
        let wideQuiet = run()
        _ = aupipe_dsp_kernels_set_wide(0)
        let baseQuiet = run()
        #expect(wideQuiet == baseQuiet, "\(count) samples, half quiet: the AVX2 and baseline kernels differ")
        for i in stride(from: 0, to: count, by: 2) where x[i].isFinite {
            #expect(baseQuiet[i] == (((x[i] * 32768 + Self.magic) - Self.magic) / 32768).bitPattern)
        }
    }

    @Test("a stereo edge ditherer gives the same bytes with either kernel, for every block size")
    func dithererSameWithEitherKernel() {
        let x = DitherTests.busy(2 * 20_000, seed: 4)
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        let wide = DitherTests.dither(x, channels: 2, kind: .tpdf, seed: 7, block: 4096)
        _ = aupipe_dsp_kernels_set_wide(0)
        let base = DitherTests.dither(x, channels: 2, kind: .tpdf, seed: 7, block: 333)
        #expect(wide.map(\.bitPattern) == base.map(\.bitPattern))
        #expect(zip(wide, x).contains { $0 != $1 }, "the ditherer changed nothing")
    }
}
