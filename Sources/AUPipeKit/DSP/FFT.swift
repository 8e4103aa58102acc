#if canImport(Glibc)
import Glibc
#endif

/// An in-place complex FFT of one fixed size, on split real and imaginary `Float` arrays.
///
/// Iterative radix-2 decimation in time: a bit-reversal permutation, then log2(size) butterfly
/// passes. The twiddle factors (computed in `Double`, stored as `Float`) and the permutation
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
    }

    deinit {
        cosTable.deallocate()
        sinTable.deallocate()
        swaps.deallocate()
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
        for k in 0..<swapCount {
            let i = Int(swaps[2 &* k]), j = Int(swaps[2 &* k &+ 1])
            let tr = re[i]; re[i] = re[j]; re[j] = tr
            let ti = im[i]; im[i] = im[j]; im[j] = ti
        }
        guard size > 1 else { return }
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
        // Spans 2, 4, ...: twiddle j of the pass's own table; from span 8 on, eight butterflies
        // at a time (`wideButterflies`: the same operations lane by lane, so the same bits).
        var half = 2
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

    /// Butterflies per vector in `wideButterflies`.
    private static let lanes = 8

    /// One pass of span `half` (a multiple of `lanes`), `lanes` butterflies at a time: each lane
    /// computes exactly what the scalar loop computes for its j (no fused multiply-add).
    @inline(__always)
    private func wideButterflies(_ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>, half: Int, sign: Float) {
        typealias V = SIMD8<Float>
        let cs = UnsafeRawPointer(cosTable + (half &- 2)), sn = UnsafeRawPointer(sinTable + (half &- 2))
        let r = UnsafeMutableRawPointer(re), i = UnsafeMutableRawPointer(im)
        let stride = MemoryLayout<Float>.stride
        var start = 0
        while start < size {
            var j = 0
            while j < half {
                let t = j &* stride
                let wr = cs.loadUnaligned(fromByteOffset: t, as: V.self)
                let wi = sign * sn.loadUnaligned(fromByteOffset: t, as: V.self)
                let a = (start &+ j) &* stride, b = a &+ half &* stride
                let xr = r.loadUnaligned(fromByteOffset: b, as: V.self), xi = i.loadUnaligned(fromByteOffset: b, as: V.self)
                let ar = r.loadUnaligned(fromByteOffset: a, as: V.self), ai = i.loadUnaligned(fromByteOffset: a, as: V.self)
                let tr = wr * xr - wi * xi
                let ti = wr * xi + wi * xr
                r.storeBytes(of: ar - tr, toByteOffset: b, as: V.self)
                i.storeBytes(of: ai - ti, toByteOffset: b, as: V.self)
                r.storeBytes(of: ar + tr, toByteOffset: a, as: V.self)
                i.storeBytes(of: ai + ti, toByteOffset: a, as: V.self)
                j &+= Self.lanes
            }
            start &+= 2 &* half
        }
    }
}
