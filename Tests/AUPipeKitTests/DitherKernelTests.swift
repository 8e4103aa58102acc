import Testing
import CAUPipeSupport
@testable import AUPipeGraph
@testable import AUPipeFormats

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

    /// Samples that clip after dither: full scale, beyond it, NaN and the infinities among noise.
    static func loud(_ count: Int) -> [Float] {
        var x = DitherTests.busy(count, seed: 5).map { $0 * 12 }
        for i in Swift.stride(from: 0, to: count, by: 5) { x[i] = i % 2 == 0 ? 1 : -1 }
        if count > 13 { x[3] = .nan; x[7] = .infinity; x[11] = -.infinity; x[13] = 32767.0 / 32768 }
        return x
    }

    @Test("dither fused with the s16le encoder: the bytes and clip count of dither then encode, with either body",
          arguments: [1, 8, 9, 100, 4096, 5000])
    func fusedEncoderSameBytes(count: Int) {
        let x = Self.loud(count)
        let key = DitherNoise(seed: 3).key(high: 0), low: UInt32 = 0xFFFF_FFF0
        var flags = [UInt8](repeating: 1, count: count)
        for i in Swift.stride(from: 0, to: count, by: 3) { flags[i] = 0 }
        var rounded = [Float](repeating: 0, count: count)
        aupipe_tpdf_round(x, &rounded, count, flags, key, low, 32768, 1 / 32768)
        var expected = [UInt8](repeating: 0, count: 2 * count)
        let expectedClips = expected.withUnsafeMutableBytes { SampleCodec(.s16le).encode(rounded, count: count, into: $0.baseAddress!) }
        let fused = { () -> ([UInt8], Int) in
            var out = [Int16](repeating: 0, count: count)
            let clips = aupipe_tpdf_s16(x, &out, count, flags, key, low, 32768)
            return (out.flatMap { v in [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }, clips)
        }
        let before = aupipe_dsp_kernels_set_wide(1)
        defer { _ = aupipe_dsp_kernels_set_wide(before) }
        let wide = fused()
        _ = aupipe_dsp_kernels_set_wide(0)
        let base = fused()
        #expect(wide.0 == expected && wide.1 == expectedClips, "\(count) samples: the AVX2 body differs from dither then encode")
        #expect(base.0 == expected && base.1 == expectedClips, "\(count) samples: the baseline body differs from dither then encode")
        if count >= 100 { #expect(expectedClips > 0, "the input was meant to clip") }
    }

    @Test("Ditherer.encodeS16LE writes the bytes of process then the encoder, for every block size (stereo)")
    func dithererFusedSameAsTwoSteps() {
        var x = Self.loud(2 * 9000)
        for i in 6000..<8000 { x[i] = 0 }  // on the grid for more than 32 frames: the window closes
        let twoSteps = DitherTests.dither(x, channels: 2, kind: .tpdf, seed: 7, block: 4096)
        var expected = [UInt8](repeating: 0, count: 2 * x.count)
        let expectedClips = expected.withUnsafeMutableBytes { SampleCodec(.s16le).encode(twoSteps, count: x.count, into: $0.baseAddress!) }
        for block in [4096, 333, 1] {
            let d = Ditherer(bits: 16, channels: 2, kind: .tpdf, seed: 7)
            #expect(d.fusesEncoder(of: .s16le) && !d.fusesEncoder(of: SampleEncoding(.signedInteger, bits: 16, bigEndian: true)!) && !d.fusesEncoder(of: SampleEncoding(.unsignedInteger, bits: 16)!))
            var bytes = [UInt8](repeating: 0, count: 2 * x.count)
            var clips = 0, f = 0
            x.withUnsafeBufferPointer { i in
                bytes.withUnsafeMutableBytes { o in
                    while f < 9000 {
                        let n = min(block, 9000 - f)
                        clips += d.encodeS16LE(i.baseAddress! + 2 * f, frames: n, into: o.baseAddress! + 4 * f)
                        f += n
                    }
                }
            }
            #expect(bytes == expected && clips == expectedClips, "block \(block): fused and two-step output differ")
        }
        #expect(!Ditherer(bits: 8, channels: 1, kind: .tpdf, seed: 0).fusesEncoder(of: .s16le))
        #expect(!Ditherer(bits: 16, channels: 1, kind: .shaped(.fWeighted), seed: 0).fusesEncoder(of: .s16le))
    }
}
