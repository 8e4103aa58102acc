import AUPipeFormats
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// The FFT of `size` real values (and its inverse back to real values), through a complex `FFT`
/// of half the size: about half the work of a complex transform of the full size with a zero
/// imaginary part.
///
/// Forward: the even and odd samples are the real and imaginary parts of `size/2` complex
/// values; their transform Z gives the even and odd halves' spectra E[k] = (Z[k] + Z*[N/2−k])/2
/// and O[k] = (Z[k] − Z*[N/2−k])/(2i), and X[k] = E[k] + e^(−2πik/N)·O[k] for k in 0...N/2
/// (the rest is X*[N−k]). Inverse: the same steps backwards. Scaling as `FFT`'s: `forward`
/// unscaled, `inverse` divided by N. Sizes: powers of two from 2 to 65536.
/// Everything is allocated in `init`; a transform allocates nothing (one thread at a time).
package final class RealFFT {
    /// N, and the bins a spectrum has (N/2 + 1).
    package let size: Int, bins: Int
    private let half: FFT
    private let zr, zi, cosTable, sinTable: UnsafeMutablePointer<Float>

    /// For `size` real values (a power of two, 2...65536).
    package init(size: Int) {
        precondition(size >= 2 && size <= 65536 && size & (size - 1) == 0, "RealFFT size \(size) is not a power of two in 2...65536")
        self.size = size
        bins = size / 2 + 1
        let h = size / 2
        half = FFT(size: h)
        zr = .allocate(capacity: h); zi = .allocate(capacity: h)
        zr.initialize(repeating: 0, count: h); zi.initialize(repeating: 0, count: h)
        cosTable = .allocate(capacity: h); sinTable = .allocate(capacity: h)
        for k in 0..<h {
            let angle = 2 * Double.pi * Double(k) / Double(size)
            cosTable[k] = Float(cos(angle))
            sinTable[k] = Float(sin(angle))
        }
    }

    deinit {
        zr.deallocate(); zi.deallocate(); cosTable.deallocate(); sinTable.deallocate()
    }

    /// X[k] for k in 0...N/2 of `x` (N values) into `re` and `im` (N/2 + 1 each).
    package func forward(_ x: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        let h = size / 2
        var n = 0
        while n &+ Self.lanes <= h {
            let v = UnsafeRawPointer(x + 2 &* n).loadUnaligned(as: SIMD16<Float>.self)
            Self.store(v.evenHalf, zr, n)
            Self.store(v.oddHalf, zi, n)
            n &+= Self.lanes
        }
        for n in n..<h { zr[n] = x[2 * n]; zi[n] = x[2 * n + 1] }
        half.forward(real: zr, imag: zi)
        // Bin 0 and bin h pair Z[0] with itself; bins 1..<h pair Z[k] with Z[h − k].
        bin(0, 0, 0, cosTable[0], sinTable[0], re, im)
        // Bins 1..<h: `bin` eight at a time where they fit (the same operations lane by lane), then
        // one by one, in C (`aupipe_real_fft_pack`: 256-bit vectors where the processor has them).
        aupipe_real_fft_pack(zr, zi, cosTable, sinTable, re, im, h)
        bin(h, 0, 0, -1, 0, re, im)
    }

    /// Values per vector in the even/odd split and merge.
    private static let lanes = 8
    private typealias V = SIMD8<Float>

    @inline(__always)
    private static func load(_ p: UnsafePointer<Float>, _ i: Int) -> V {
        UnsafeRawPointer(p + i).loadUnaligned(as: V.self)
    }

    @inline(__always)
    private static func store(_ v: V, _ p: UnsafeMutablePointer<Float>, _ i: Int) {
        UnsafeMutableRawPointer(p + i).storeBytes(of: v, as: V.self)
    }

    /// X[k] from Z[a] and Z[b] (b = N/2 − a, modulo N/2) with W^k = c − i·s.
    @inline(__always)
    private func bin(_ k: Int, _ a: Int, _ b: Int, _ c: Float, _ s: Float,
                     _ re: UnsafeMutablePointer<Float>, _ im: UnsafeMutablePointer<Float>) {
        // E = (Z[a] + Z*[b])/2, O = (Z[a] − Z*[b])/(2i).
        let er = (zr[a] + zr[b]) / 2, ei = (zi[a] - zi[b]) / 2
        let or = (zi[a] + zi[b]) / 2, oi = (zr[b] - zr[a]) / 2
        re[k] = er + c * or + s * oi
        im[k] = ei + c * oi - s * or
    }

    /// The N real values whose spectrum is `re`, `im` (k in 0...N/2; Hermitian beyond), into
    /// `x` (N values), divided by N as `FFT.inverse` does.
    package func inverse(re: UnsafePointer<Float>, im: UnsafePointer<Float>, into x: UnsafeMutablePointer<Float>) {
        let h = size / 2
        // For each k < h (b = h − k): E = (X[k] + X*[b])/2, O = (X[k] − X*[b])·W^(−k)/2, Z = E + i·O;
        // eight k at a time where they fit, in C (`aupipe_real_fft_unpack`).
        aupipe_real_fft_unpack(re, im, cosTable, sinTable, zr, zi, h)
        half.inverse(real: zr, imag: zi)
        // (1/N)·Σ X[k]·W^(−2nk) over N bins is (1/(N/2))·Σ E[k]·W^(−2nk) over N/2: FFT.inverse's.
        var n = 0
        while n &+ Self.lanes <= h {
            var v = SIMD16<Float>()
            v.evenHalf = Self.load(zr, n)
            v.oddHalf = Self.load(zi, n)
            UnsafeMutableRawPointer(x + 2 &* n).storeBytes(of: v, as: SIMD16<Float>.self)
            n &+= Self.lanes
        }
        for n in n..<h { x[2 * n] = zr[n]; x[2 * n + 1] = zi[n] }
    }
}
