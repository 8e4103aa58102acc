import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The analysis of `spectrogram`: windowed DFTs of each channel, every `step` stream frames,
/// their power gathered into rows of frequency and pooled into `SpectrogramColumns`.
///
/// The DFT size N is the smallest power of two whose bins are no further apart than the rows
/// (N ≥ rate × (rows − 1) / top frequency); with the top at the Nyquist frequency that is
/// 2 × (rows − 1), sox's size. Each row shows the strongest bin within half a row of its
/// frequency. A frame is centred on stream frame `centre` (the samples before the start and
/// after the end are zeros); frames are `step` = min(hop, N / 4) apart, so a column averages
/// one frame at first and several once merging has widened it. The first columns are
/// max(1, N / 16) frames wide. Power is in dBFS: a full-scale sine reads 0 dB at its bin.
/// Everything is allocated in `init`; `add` allocates nothing.
package final class SpectrogramAnalyser {
    package let channels: Int, rate: Int, rows: Int
    /// The frequency of the top row, Hz.
    package let topFrequency: Double
    /// The DFT size.
    package let size: Int
    private let fft: RealFFT
    private let window: [Float]
    /// The power a full-scale sine gives at its bin: (Σ window / 2)².
    package let fullScale: Float
    /// Per row, the bins it takes the strongest of: `firstBin[r] ..< endBin[r]`.
    private let firstBin: [Int], endBin: [Int]
    /// The last N samples of each channel, channel after channel, at index (frame mod N).
    private var history: [Float]
    private var frame: [Float], re: [Float], im: [Float], rowPower: [Float]
    package let columns: SpectrogramColumns
    /// Stream frames seen (zeros padded at the end not counted).
    package private(set) var frames: Int64 = 0
    /// Frames written into `history`, padding included.
    private var written: Int64 = 0
    /// The centre of the next DFT frame.
    private var nextCentre: Int64

    /// - Parameters:
    ///   - width: columns kept at most (the picture's width in pixels).
    ///   - rows: rows per channel, 2...; `topFrequency` up to rate / 2.
    package init(channels: Int, rate: Int, rows: Int, topFrequency: Double, window kind: SpectrogramWindow, width: Int) {
        self.channels = channels
        self.rate = rate
        self.rows = rows
        self.topFrequency = topFrequency
        size = Self.dftSize(rate: rate, rows: rows, topFrequency: topFrequency)
        fft = RealFFT(size: size)
        window = kind.coefficients(size: size)
        let sum = window.reduce(0, +)
        fullScale = (sum / 2) * (sum / 2)
        let binWidth = Double(rate) / Double(size), rowWidth = topFrequency / Double(rows - 1)
        var first: [Int] = [], end: [Int] = []
        for r in 0..<rows {
            let f = Double(r) * rowWidth
            let lo = max(0, Int(((f - rowWidth / 2) / binWidth).rounded(.up)))
            let hi = min(size / 2, Int(((f + rowWidth / 2) / binWidth).rounded(.up)) - 1)
            first.append(lo)
            end.append(max(lo + 1, hi + 1))
        }
        firstBin = first
        endBin = end
        history = [Float](repeating: 0, count: channels * size)
        frame = [Float](repeating: 0, count: size)
        re = [Float](repeating: 0, count: size / 2 + 1)
        im = [Float](repeating: 0, count: size / 2 + 1)
        rowPower = [Float](repeating: 0, count: rows)
        let hop = max(1, size / 16)
        columns = SpectrogramColumns(capacity: width, channels: channels, rows: rows, hop: hop)
        nextCentre = Int64(hop / 2)
    }

    /// The DFT size for `rows` rows up to `topFrequency` at `rate`: a power of two, 16 or more;
    /// more than `FFT.maxSize` when no size is fine enough.
    package static func dftSize(rate: Int, rows: Int, topFrequency: Double) -> Int {
        let needed = Double(rate) * Double(rows - 1) / topFrequency
        var n = 16
        while Double(n) < needed - 1e-9 && n <= FFT.maxSize { n *= 2 }
        return n
    }

    /// Frames between DFT frames now.
    private var step: Int { min(columns.hop, size / 4) }

    /// Takes `count` interleaved frames.
    package func add(_ input: UnsafePointer<Float>, frames count: Int) {
        let mask = size - 1
        history.withUnsafeMutableBufferPointer { h in
            for i in 0..<count {
                let at = Int(written & Int64(mask))
                for c in 0..<channels { h[c * size + at] = input[i * channels + c] }
                written += 1
                if written == nextCentre + Int64(size / 2) { analyse(h) }
            }
        }
        frames += Int64(count)
    }

    /// At the end: the frames centred before the end, their last samples zeros.
    package func finish() {
        let mask = size - 1
        history.withUnsafeMutableBufferPointer { h in
            while nextCentre < frames {
                let at = Int(written & Int64(mask))
                for c in 0..<channels { h[c * size + at] = 0 }
                written += 1
                if written == nextCentre + Int64(size / 2) { analyse(h) }
            }
        }
    }

    /// One DFT frame per channel, centred at `nextCentre`, into its column.
    private func analyse(_ h: UnsafeMutableBufferPointer<Float>) {
        let mask = size - 1
        let column = columns.column(for: nextCentre)
        let start = Int((written - Int64(size)) & Int64(mask))
        for c in 0..<channels {
            frame.withUnsafeMutableBufferPointer { f in
                for i in 0..<size { f[i] = h[c * size + ((start + i) & mask)] * window[i] }
                re.withUnsafeMutableBufferPointer { r in
                    im.withUnsafeMutableBufferPointer { m in
                        fft.forward(f.baseAddress!, re: r.baseAddress!, im: m.baseAddress!)
                        rowPower.withUnsafeMutableBufferPointer { p in
                            for row in 0..<rows {
                                var best: Float = 0
                                for k in firstBin[row]..<endBin[row] { best = max(best, r[k] * r[k] + m[k] * m[k]) }
                                p[row] = best
                            }
                            columns.add(p.baseAddress!, column: column, channel: c, last: c == channels - 1)
                        }
                    }
                }
            }
        }
        nextCentre += Int64(step)
    }
}
