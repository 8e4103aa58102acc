import AUPipeFormats
import CAUPipeSupport
#if canImport(Glibc)
import Glibc
#endif

/// Adds seeded dither to Float samples and rounds them to the grid of `bits`-bit integers
/// (value / 2^(bits−1), the scale of `SampleCodec`), optionally shaping the noise by error
/// feedback (`NoiseShape`). The output is on the grid, so an encoder of that width writes it
/// exactly; values beyond full scale are left for the encoder to clip and count.
///
/// Deterministic: the noise of each sample is a hash of the seed and the sample's position in
/// the stream (`DitherNoise`: each channel its own sequence, indexed by frame), and the
/// feedback state runs on from block to block, so the output is the same for every block size
/// and every run.
///
/// Like sox's dither, it adds noise only where the input is off the grid: a sample is dithered
/// when it or one of the 31 samples before it in its channel is off the grid; 32 samples of a
/// channel in a row on the grid (digital silence, a 16-bit stream a unit passed on at 0 dB, a
/// plugin's exact product) are rounded without noise, exactly, until one is off it again.
///
/// TPDF to 16 bits or fewer (the output edge) runs in Float in flat loops that vectorize (the
/// 32-sample window as five doublings of an OR over byte flags; the noise and rounding in C,
/// `aupipe_tpdf_round`, AVX2 where the processor has it, the same bits either way); wider grids
/// and shaped noise in Double, sample by sample. Allocates in `init` only.
public final class Ditherer {
    /// The noise's spectrum.
    public enum Kind: Equatable, Sendable {
        /// Triangular, ±1 step, white: error power Δ²/4 (Δ²/12 rounding + Δ²/6 noise).
        case tpdf
        /// TPDF, shaped by error feedback through `NoiseShape`.
        case shaped(NoiseShape)

        /// As `--stats` and `--check` name it: `tpdf`, `shaped (f-weighted)`.
        public var name: String {
            switch self {
            case .tpdf: return "tpdf"
            case .shaped(let s): return "shaped (\(s.name))"
            }
        }
    }

    /// Grids this narrow are rounded in Float: 2^(bits−1) × full scale stays far below 2^22,
    /// where `floatMagic` stops rounding to integers.
    package static let widestFloatBits = 16
    /// 1.5 × 2^23: adding and subtracting it rounds a Float below 2^22 to nearest, ties to even.
    private static let floatMagic: Float = 12_582_912
    /// 1.5 × 2^52: the same for a Double below 2^51.
    private static let doubleMagic = 6_755_399_441_055_744.0
    /// Samples of a channel on the grid in a row that turn its noise off (sox's count).
    package static let quietRun = 32
    /// Samples the Float path takes at a time (its flag buffers' size).
    private static let chunk = 4096

    public let bits: Int
    public let channels: Int
    public let kind: Kind
    private let scale: Double, inverse: Double
    private let noise: DitherNoise
    private let taps: Int
    private let coefficients: UnsafeMutablePointer<Double>
    /// Per channel, the last `taps` errors twice over (`position` walks down; no wrapping reads).
    private let errors: UnsafeMutablePointer<Double>
    private var position = 0
    /// The stream position of the next sample (frame × channels + channel).
    private var sample: UInt64 = 0
    /// Float path: per sample, 1 when off the grid, after the last `tail` samples' flags
    /// (`tail` = 31 × channels); and the OR over each sample's window, built by doubling.
    private let tail: Int
    private let offGrid: UnsafeMutablePointer<UInt8>
    private let window: UnsafeMutablePointer<UInt8>, window2: UnsafeMutablePointer<UInt8>
    /// Double path: per channel, bit k set when the channel's sample k samples ago was off the grid.
    private let history: UnsafeMutablePointer<UInt32>

    /// The stream position of the next frame.
    public var frame: Int64 { Int64(sample / UInt64(channels)) }

    /// `bits`: the integer width of the grid, 2...24; `channels` ≥ 1; `seed` picks the sequences.
    public init(bits: Int, channels: Int, kind: Kind, seed: UInt64) {
        precondition((2...24).contains(bits) && channels >= 1)
        self.bits = bits
        self.channels = channels
        self.kind = kind
        scale = Double(1 << (bits - 1))
        inverse = 1 / scale
        noise = DitherNoise(seed: seed)
        let shape: [Double]
        if case .shaped(let s) = kind { shape = s.coefficients } else { shape = [] }
        taps = shape.count
        coefficients = .allocate(capacity: max(taps, 1))
        for (k, h) in shape.enumerated() { coefficients[k] = h }
        errors = .allocate(capacity: max(1, channels * 2 * taps))
        errors.initialize(repeating: 0, count: max(1, channels * 2 * taps))
        tail = (Self.quietRun - 1) * channels
        offGrid = .allocate(capacity: tail + Self.chunk)
        offGrid.initialize(repeating: 0, count: tail + Self.chunk)
        window = .allocate(capacity: tail + Self.chunk)
        window.initialize(repeating: 0, count: tail + Self.chunk)
        window2 = .allocate(capacity: tail + Self.chunk)
        window2.initialize(repeating: 0, count: tail + Self.chunk)
        history = .allocate(capacity: channels)
        history.initialize(repeating: 0, count: channels)
    }

    deinit {
        coefficients.deallocate()
        errors.deallocate()
        offGrid.deallocate()
        window.deallocate()
        window2.deallocate()
        history.deallocate()
    }

    /// Dithers and rounds `frames` interleaved frames of `input` into `output` (they may be the
    /// same memory): the next `frames` frames of the stream.
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let fast = taps == 0 && bits <= Self.widestFloatBits
        stretches(frames) { done, n, key, low in
            if fast {
                _ = tpdfInFloat(input + done, into: output + done, s16: nil, count: n, key: key, low: low)
            } else {
                exact(input + done, into: output + done, count: n, key: key, low: low)
            }
        }
    }

    /// Whether `encodeS16LE` can stand for `process` then the encoder of `encoding`: TPDF to 16
    /// bits, written as s16le on a little-endian host.
    public func fusesEncoder(of encoding: SampleEncoding) -> Bool {
        #if _endian(little)
        return taps == 0 && bits == 16 && encoding == .s16le
        #else
        return false
        #endif
    }

    /// `process` and `SampleCodec`'s s16le encoder in one pass (requires `fusesEncoder(of: .s16le)`): the
    /// next `frames` frames dithered, rounded and written as s16le into `destination`, the same
    /// bytes as the two steps; returns the number of samples clipped, as the encoder counts them.
    public func encodeS16LE(_ input: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutableRawPointer) -> Int {
        precondition(fusesEncoder(of: .s16le))
        let out = destination.assumingMemoryBound(to: Int16.self)
        var clipped = 0
        stretches(frames) { done, n, key, low in
            clipped &+= tpdfInFloat(input + done, into: nil, s16: out + done, count: n, key: key, low: low)
        }
        return clipped
    }

    /// Calls `body(done, n, key, low)` for the stretches of the next `frames` frames (at most
    /// `chunk` samples, within which the index's top 32 bits, and so the key, stay the same),
    /// and moves the stream position on.
    @inline(__always)
    private func stretches(_ frames: Int, _ body: (Int, Int, UInt32, UInt32) -> Void) {
        let count = frames * channels
        var done = 0
        while done < count {
            let low = UInt32(truncatingIfNeeded: sample)
            let n = Int(min(UInt64(min(count - done, Self.chunk)), (1 << 32) - UInt64(low)))
            body(done, n, noise.key(high: UInt32(truncatingIfNeeded: sample >> 32)), low)
            sample &+= UInt64(n)
            done += n
        }
    }

    /// TPDF to 16 bits or fewer, `count` ≤ `chunk` samples: flags, the window, then the noise,
    /// each a flat loop of byte, 32-bit and Float arithmetic; into `output` as Float, or (16 bits)
    /// into `s16` as native integers. Returns the clip count (0 for Float output).
    private func tpdfInFloat(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>?, s16: UnsafeMutablePointer<Int16>?, count: Int, key: UInt32, low: UInt32) -> Int {
        let scale = Float(self.scale), inverse = Float(self.inverse), magic = Self.floatMagic
        let tail = self.tail, end = tail + count
        let off = offGrid, w = window, w2 = window2
        for i in 0..<count {
            let y = input[i] * scale
            off[tail &+ i] = (y + magic) - magic == y ? 0 : 1
        }
        // w[i] = OR of off over i's window of 32 samples of its channel (i, i − c, ... i − 31c),
        // by doubling the window five times (1, 2, 4, 8, 16, 32 samples), from buffer to buffer.
        // A window of 2^k samples is complete from index (2^k − 1) × c: all of them from `tail`.
        var src = UnsafePointer(off), dst = w
        var span = 1
        while span < Self.quietRun {
            let shift = span * channels
            for i in shift..<end { dst[i] = src[i] | src[i &- shift] }
            src = UnsafePointer(dst)
            dst = dst == w ? w2 : w
            span *= 2
        }
        // The noise, where the window is off the grid, and the rounding: `DitherNoise.tpdf` and
        // `(v + magic) − magic`, eight samples at a time in C (AVX2's vpmulld where present).
        // The flags are read before the noise is written: `output` may be `input`.
        var clipped = 0
        if let output {
            aupipe_tpdf_round(input, output, count, src + tail, key, low, scale, inverse)
        } else if let s16 {
            clipped = aupipe_tpdf_s16(input, s16, count, src + tail, key, low, scale)
        }
        // The last 31 samples of each channel start the next chunk's windows.
        memmove(off, off + count, tail)
        return clipped
    }

    /// Any width, TPDF or shaped, in Double: sample by sample (the feedback is sequential).
    /// `count` may start and end mid-frame.
    private func exact(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int, key: UInt32, low: UInt32) {
        let channels = self.channels, taps = self.taps, scale = self.scale, inverse = self.inverse, magic = Self.doubleMagic
        let stride = 2 &* taps
        var c = Int(sample % UInt64(channels))
        for i in 0..<count {
            if c == 0 && taps > 0 { position = position == 0 ? taps &- 1 : position &- 1 }
            let x = input[i]
            let y = Double(x) * scale
            let r = (y + magic) - magic
            let flag: UInt32 = r == y ? 0 : 1
            let h = history[c] << 1 | flag
            history[c] = h
            var q = r, error = 0.0
            if h != 0 {
                var v = y
                if taps > 0 {
                    let offset: Int = c &* stride &+ position &+ 1
                    let e = errors + offset
                    for k in 0..<taps { v -= coefficients[k] * e[k] }
                }
                let d = Double(DitherNoise.tpdf(key: key, low: low &+ UInt32(truncatingIfNeeded: i)))
                let dithered: Double = v + d + magic
                q = dithered - magic
                error = q - v
                if !error.isFinite { error = 0 }  // NaN or infinity in: written as it is, no feedback
            }
            if taps > 0 {
                let e = errors + c &* stride
                e[position] = error
                e[position &+ taps] = error
            }
            output[i] = Float(q * inverse)
            c = c &+ 1 == channels ? 0 : c &+ 1
        }
    }
}
