import AUPipeFormats
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// An in-place complex FFT of one fixed size, on split real and imaginary `Float` arrays.
///
/// Iterative radix-2 decimation in time: a bit-reversal permutation, then log2(size) butterfly
/// passes. From 64 points on, the permutation and the first three passes run as one in C
/// (`aupipe_fft_first_passes`) and the later passes there too (`aupipe_fft_butterflies`), on
/// 256-bit vectors where the processor has them: the same operations, so the same bits. The twiddle factors (computed in `Double`, stored as `Float`) and the permutation
/// are made once in `init`; a transform allocates nothing and keeps no state, so one instance
/// serves any number of transforms (from one thread at a time).
///
/// Sizes: powers of two from 1 to 65536 (2^16).
///
/// Scaling: `forward` is unscaled, X[k] = Σₙ x[n]·e^(−2πi·kn/N); `inverse` divides by N,
/// x[n] = (1/N)·Σₖ X[k]·e^(+2πi·kn/N), so `inverse(forward(x))` gives `x` back. The relative
/// error (RMS error over RMS value) is about 1e-7·log2(N) in `Float`.
public final class FFT {
    /// The largest size supported.
    public static let maxSize = 1 << 16

    /// The transform size N (a power of two, 1...65536).
    public let size: Int
    /// log2(size).
    public let log2Size: Int
    /// The forward twiddles of every pass, contiguous: the pass with butterflies of span `half`
    /// (2, 4, ... N/2) reads cos and −sin of 2π·j/(2·half) for j in 0..<half from offset
    /// `half − 2` (the span-1 pass needs none: its twiddle is 1). N − 2 values each.
    private let cosTable: UnsafeMutablePointer<Float>
    private let sinTable: UnsafeMutablePointer<Float>
    /// The index pairs (i, j), i < j, that the bit-reversal permutation swaps, flattened.
    private let swaps: UnsafeMutablePointer<Int32>
    private let swapCount: Int
    /// From 64 points on (`fusedSize`): for b < size/8, b with its log2(size) − 3 bits reversed
    /// (the group of eight that b feeds), a copy of the input, and the twiddles of the first
    /// three passes, forward then inverse (`aupipe_fft_first_passes`).
    private let groups: UnsafeMutablePointer<Int32>
    private let scratchRe: UnsafeMutablePointer<Float>, scratchIm: UnsafeMutablePointer<Float>
    private let firstTwiddles: UnsafeMutablePointer<Float>
    /// The smallest size whose permutation and first three passes run fused, in C: eight
    /// groups of eight at a time.
    private static let fusedSize = 64

    /// Prepares transforms of `size` points; `size` must be a power of two in 1...65536.
    public init(size: Int) {
        precondition(size >= 1 && size <= Self.maxSize && size & (size - 1) == 0,
                     "FFT size \(size) is not a power of two in 1...\(Self.maxSize)")
        self.size = size
        log2Size = size.trailingZeroBitCount
        let tableSize = max(size - 2, 1)
        cosTable = .allocate(capacity: tableSize)
        sinTable = .allocate(capacity: tableSize)
        var half = 2
        while half < size {
            for j in 0..<half {
                // The same value the N-point table held at j·N/(2·half): the angle as before.
                let angle = 2 * Double.pi * Double(j * (size / (2 * half))) / Double(size)
                cosTable[half - 2 + j] = Float(cos(angle))
                sinTable[half - 2 + j] = Float(-sin(angle))
            }
            half *= 2
        }
        var pairs: [Int32] = []
        pairs.reserveCapacity(size)
        let bits = log2Size
        for i in 0..<size {
            var r = 0, v = i
            for _ in 0..<bits { r = (r << 1) | (v & 1); v >>= 1 }
            if i < r { pairs.append(Int32(i)); pairs.append(Int32(r)) }
        }
        swapCount = pairs.count / 2
        swaps = .allocate(capacity: max(pairs.count, 1))
        for (k, p) in pairs.enumerated() { swaps[k] = p }
        let groupCount = size >= Self.fusedSize ? size / 8 : 0
        groups = .allocate(capacity: max(groupCount, 1))
        for b in 0..<groupCount {
            var r = 0, v = b
            for _ in 0..<(bits - 3) { r = (r << 1) | (v & 1); v >>= 1 }
            groups[b] = Int32(r)
        }
        scratchRe = .allocate(capacity: groupCount > 0 ? size : 1)
        scratchIm = .allocate(capacity: groupCount > 0 ? size : 1)
        firstTwiddles = .allocate(capacity: 24)
        firstTwiddles.initialize(repeating: 0, count: 24)
        if groupCount > 0 {
            // (cos, sign·sin) for spans 2 (j = 0, 1) and 4 (j = 0...3), as `firstThreePasses` reads them.
            for (set, sign) in [Float(1), -1].enumerated() {
                for (k, t) in [0, 1, 2, 3, 4, 5].enumerated() {
                    firstTwiddles[12 * set + 2 * k] = cosTable[t]
                    firstTwiddles[12 * set + 2 * k + 1] = sign * sinTable[t]
                }
            }
        }
    }

    deinit {
        cosTable.deallocate()
        sinTable.deallocate()
        swaps.deallocate()
        groups.deallocate()
        scratchRe.deallocate()
        scratchIm.deallocate()
        firstTwiddles.deallocate()
    }

    /// The forward transform of `size` complex values, in place (unscaled).
    public func forward(real: UnsafeMutablePointer<Float>, imag: UnsafeMutablePointer<Float>) {
        transform(real, imag, sign: 1)
    }

    /// The inverse transform of `size` complex values, in place, scaled by 1/N.
    public func inverse(real: UnsafeMutablePointer<Float>, imag: UnsafeMutablePointer<Float>) {
        transform(real, imag, sign: -1)
        let scale = 1 / Float(size)
        for i in 0..<size {
            real[i] *= scale
            imag[i] *= scale
        }
    }

    /// `forward` on arrays of at least `size` elements (no allocation while they are unshared).
    public func forward(real: inout [Float], imag: inout [Float]) {
        precondition(real.count >= size && imag.count >= size, "FFT arrays shorter than \(size)")
        real.withUnsafeMutableBufferPointer { r in
            imag.withUnsafeMutableBufferPointer { i in forward(real: r.baseAddress!, imag: i.baseAddress!) }
        }
    }

    /// `inverse` on arrays of at least `size` elements (no allocation while they are unshared).
    public func inverse(real: inout [Float], imag: inout [Float]) {
        precondition(real.count >= size && imag.count >= size, "FFT arrays shorter than \(size)")
        real.withUnsafeMutableBufferPointer { r in
            imag.withUnsafeMutableBufferPointer { i in inverse(real: r.baseAddress!, imag: i.baseAddress!) }
        }
    }

    /// The permutation and the butterflies; `sign` −1 conjugates the twiddles (inverse). Index
    /// arithmetic wraps (`&+`): every index is below `size`, and the overflow checks cost a
    /// quarter of the time.
    private func transform(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, sign: Float) {
        if size >= Self.fusedSize {
            // The permutation and the first three passes in one, from a copy of the input.
            scratchRe.update(from: re, count: size)
            scratchIm.update(from: im, count: size)
            aupipe_fft_first_passes(scratchRe, scratchIm, re, im, size, groups, firstTwiddles + (sign > 0 ? 0 : 12))
            var half = 8
            while half < size {
                wideButterflies(re, im, half: half, sign: sign)
                half &*= 2
            }
            return
        }
        for k in 0..<swapCount {
            let i = Int(swaps[2 &* k]), j = Int(swaps[2 &* k &+ 1])
            let tr = re[i]; re[i] = re[j]; re[j] = tr
            let ti = im[i]; im[i] = im[j]; im[j] = ti
        }
        guard size > 1 else { return }
        var half = 2
        if size >= 8 {
            firstThreePasses(re, im, sign: sign)
            half = 8
        } else {
            // Span 1: the twiddle is 1.
            var a = 0
            while a < size {
                let b = a &+ 1
                let xr = re[b], xi = im[b]
                re[b] = re[a] - xr
                im[b] = im[a] - xi
                re[a] += xr
                im[a] += xi
                a &+= 2
            }
        }
        // Spans 2, 4, ...: twiddle j of the pass's own table; from span 8 on, eight butterflies
        // at a time (`wideButterflies`: the same operations lane by lane, so the same bits).
        while half < size {
            if half >= Self.lanes {
                wideButterflies(re, im, half: half, sign: sign)
                half &*= 2
                continue
            }
            let cs = cosTable + (half &- 2), sn = sinTable + (half &- 2)
            var start = 0
            while start < size {
                for j in 0..<half {
                    let wr = cs[j], wi = sign * sn[j]
                    let a = start &+ j, b = a &+ half
                    let xr = re[b], xi = im[b]
                    let tr = wr * xr - wi * xi
                    let ti = wr * xi + wi * xr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
                start &+= 2 &* half
            }
            half &*= 2
        }
    }

    /// The passes of span 1, 2 and 4 over each group of 8 values at once, in registers: the
    /// operations of the pass-by-pass loops, in the same order for each value (the same bits).
    @inline(__always)
    private func firstThreePasses(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, sign: Float) {
        let c1 = cosTable[1], s1 = sign * sinTable[1]
        let c0 = cosTable[0], s0 = sign * sinTable[0]
        let q0 = cosTable[2], p0 = sign * sinTable[2], q1 = cosTable[3], p1 = sign * sinTable[3]
        let q2 = cosTable[4], p2 = sign * sinTable[4], q3 = cosTable[5], p3 = sign * sinTable[5]
        var g = 0
        while g < size {
            let r = re + g, i = im + g
            var r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5], r6 = r[6], r7 = r[7]
            var i0 = i[0], i1 = i[1], i2 = i[2], i3 = i[3], i4 = i[4], i5 = i[5], i6 = i[6], i7 = i[7]
            Self.plain(&r0, &i0, &r1, &i1); Self.plain(&r2, &i2, &r3, &i3)
            Self.plain(&r4, &i4, &r5, &i5); Self.plain(&r6, &i6, &r7, &i7)
            Self.twiddled(&r0, &i0, &r2, &i2, c0, s0); Self.twiddled(&r1, &i1, &r3, &i3, c1, s1)
            Self.twiddled(&r4, &i4, &r6, &i6, c0, s0); Self.twiddled(&r5, &i5, &r7, &i7, c1, s1)
            Self.twiddled(&r0, &i0, &r4, &i4, q0, p0); Self.twiddled(&r1, &i1, &r5, &i5, q1, p1)
            Self.twiddled(&r2, &i2, &r6, &i6, q2, p2); Self.twiddled(&r3, &i3, &r7, &i7, q3, p3)
            r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3; r[4] = r4; r[5] = r5; r[6] = r6; r[7] = r7
            i[0] = i0; i[1] = i1; i[2] = i2; i[3] = i3; i[4] = i4; i[5] = i5; i[6] = i6; i[7] = i7
            g &+= 8
        }
    }

    /// A butterfly of span 1 (twiddle 1), as the scalar loop writes it.
    @inline(__always)
    private static func plain(_ ar: inout Float, _ ai: inout Float, _ br: inout Float, _ bi: inout Float) {
        let xr = br, xi = bi
        br = ar - xr
        bi = ai - xi
        ar += xr
        ai += xi
    }

    /// A butterfly with the twiddle wr + i·wi, as the scalar loop writes it.
    @inline(__always)
    private static func twiddled(_ ar: inout Float, _ ai: inout Float, _ br: inout Float, _ bi: inout Float, _ wr: Float, _ wi: Float) {
        let xr = br, xi = bi
        let tr = wr * xr - wi * xi
        let ti = wr * xi + wi * xr
        br = ar - tr
        bi = ai - ti
        ar += tr
        ai += ti
    }

    /// Butterflies per vector in `wideButterflies`.
    private static let lanes = 8

    /// One pass of span `half` (a multiple of `lanes`), `lanes` butterflies at a time: each lane
    /// computes exactly what the scalar loop computes for its j (no fused multiply-add). The loop
    /// is C's (`aupipe_fft_butterflies`), which runs it on 256-bit vectors where the processor has
    /// them, with the same bits.
    @inline(__always)
    private func wideButterflies(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float) {
        aupipe_fft_butterflies(re, im, size, half, cosTable + (half &- 2), sinTable + (half &- 2), sign)
    }
}
