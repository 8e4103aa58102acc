#if canImport(Glibc)
import Glibc
#endif

/// speexdsp's filterbank (libspeexdsp/filterbank.c, `filterbank_new(24, rate, len, 1)`) on the
/// bins of another transform: `count` triangular bands at equal steps of the Bark scale from 0
/// to the Nyquist frequency; each bin shares itself between the two bands around it (weights
/// summing to 1). `sum` gathers a spectrum into the bands (unnormalised sums, as speex's
/// `filterbank_compute_bank32`), `spread` interpolates band values back to the bins
/// (`filterbank_compute_psd16`). Allocated in `init`; `sum` and `spread` allocate nothing.
package final class BarkBands {
    package let count: Int, bins: Int
    private let left: UnsafeMutablePointer<Int>
    private let leftWeight: UnsafeMutablePointer<Float>

    /// speex's band count.
    package static let speexBands = 24

    /// For `bins` bins of an `fftSize`-point transform at `rate` Hz.
    package init(bins: Int, fftSize: Int, rate: Int, count: Int = BarkBands.speexBands) {
        self.count = count
        self.bins = bins
        left = .allocate(capacity: bins)
        leftWeight = .allocate(capacity: bins)
        // filterbank.c's toBARK.
        func bark(_ f: Double) -> Double { 13.1 * atan(0.00074 * f) + 2.24 * atan(f * f * 1.85e-8) + 1e-4 * f }
        let top = bark(Double(rate) / 2), step = top / Double(count - 1)
        for k in 0..<bins {
            let b = bark(Double(k) * Double(rate) / Double(fftSize))
            var id = Int((b / step).rounded(.down)), w: Double
            if id > count - 2 { id = count - 2; w = 1 } else { w = (b - Double(id) * step) / step }
            left[k] = id
            leftWeight[k] = Float(1 - w)
        }
    }

    deinit { left.deallocate(); leftWeight.deallocate() }

    /// `bands[b]` = Σ over the bins of `values[k]` times bin k's weight in band b.
    package func sum(_ values: UnsafePointer<Float>, into bands: UnsafeMutablePointer<Float>) {
        bands.update(repeating: 0, count: count)
        for k in 0..<bins {
            let id = left[k], w = leftWeight[k]
            bands[id] += w * values[k]
            bands[id + 1] += (1 - w) * values[k]
        }
    }

    /// `values[k]` = the bands around bin k, interpolated by its weights.
    package func spread(_ bands: UnsafePointer<Float>, into values: UnsafeMutablePointer<Float>) {
        for k in 0..<bins {
            let id = left[k], w = leftWeight[k]
            values[k] = w * bands[id] + (1 - w) * bands[id + 1]
        }
    }
}
