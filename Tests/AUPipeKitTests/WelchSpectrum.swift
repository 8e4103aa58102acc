@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Welch's averaged power spectrum of a signal (Hann windows of `size`, half overlapping):
/// for measuring noise floors and tones in tests. Power per bin is |X|² / Σw², so white noise
/// of variance σ² reads σ² in every bin.
struct WelchSpectrum {
    let rate: Double
    let size: Int
    /// Mean power per bin, bins 0...size/2.
    let power: [Double]

    init(_ x: [Double], rate: Int, size: Int = 4096) {
        self.rate = Double(rate)
        self.size = size
        let fft = RealFFT(size: size)
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let norm = window.reduce(0) { $0 + Double($1 * $1) }
        var acc = [Double](repeating: 0, count: fft.bins)
        var segment = [Float](repeating: 0, count: size), re = [Float](repeating: 0, count: fft.bins), im = re
        var count = 0
        var start = 0
        while start + size <= x.count {
            for i in 0..<size { segment[i] = Float(x[start + i]) * window[i] }
            re.withUnsafeMutableBufferPointer { r in
                im.withUnsafeMutableBufferPointer { m in fft.forward(segment, re: r.baseAddress!, im: m.baseAddress!) }
            }
            for k in 0..<fft.bins { acc[k] += Double(re[k] * re[k] + im[k] * im[k]) }
            count += 1
            start += size / 2
        }
        power = acc.map { $0 / Double(max(count, 1)) / norm }
    }

    /// The bin nearest `hz`.
    func bin(_ hz: Double) -> Int { Int((hz * Double(size) / rate).rounded()) }

    /// Mean power per bin from `low` to `high` Hz, in dB.
    func band(_ low: Double, _ high: Double) -> Double {
        let bins = bin(low)..<max(bin(high), bin(low) + 1)
        return 10 * log10(bins.reduce(0) { $0 + power[$1] } / Double(bins.count))
    }

    /// The power of a tone at `hz` (its main lobe, ±2 bins), in dB.
    func tone(_ hz: Double) -> Double {
        let k = bin(hz)
        return 10 * log10((k - 2...k + 2).reduce(0) { $0 + power[$1] })
    }

    /// The noise around `hz`, as a tone's ±2 bins of it would read: the mean bin from `hz` ± 30
    /// to ± 230 Hz, times 5, in dB.
    func floor(around hz: Double) -> Double {
        let bins = Array(bin(hz - 230)...bin(hz - 30)) + Array(bin(hz + 30)...bin(hz + 230))
        return 10 * log10(5 * bins.reduce(0) { $0 + power[$1] } / Double(bins.count))
    }
}
