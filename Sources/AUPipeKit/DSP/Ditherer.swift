/// Adds seeded dither to Float samples and rounds them to the grid of `bits`-bit integers
/// (value / 2^(bits−1), the scale of `SampleCodec`), optionally shaping the noise by error
/// feedback (`NoiseShape`). The output is on the grid, so an encoder of that width writes it
/// exactly; values beyond full scale are left for the encoder to clip and count.
///
/// Deterministic: each channel has its own sequence (`DitherNoise`) indexed by the frame's
/// position in the stream, and the feedback state runs on from block to block, so the output
/// is the same for every block size and every run.
///
/// Like sox, it dithers only where the input is not on the grid already: after 32 samples of a
/// channel in a row that are (digital silence, a stretch a unit left untouched), that channel is
/// rounded without noise (exact) until a sample off the grid comes; silence stays silent.
///
/// Allocates in `init` only.
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

    /// A sample on the grid this many times in a row turns a channel's dither off.
    static let quietRun = UInt32.bitWidth
    /// 1.5 × 2^52: adding and subtracting it rounds a Double below 2^51 to nearest, ties to even.
    private static let roundingMagic = 6_755_399_441_055_744.0

    public let bits: Int
    public let channels: Int
    public let kind: Kind
    private let scale: Double, inverse: Double
    private let noise: DitherNoise
    private let taps: Int
    private let coefficients: UnsafeMutablePointer<Double>
    /// Per channel, the last `taps` errors twice over (`position` walks down; no wrapping reads).
    private let errors: UnsafeMutablePointer<Double>
    /// Per channel: bit k set when the sample k samples ago was off the grid.
    private let history: UnsafeMutablePointer<UInt32>
    private let keys: UnsafeMutablePointer<UInt64>
    private var position = 0
    /// The stream position of the next frame.
    public private(set) var frame: Int64 = 0

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
        history = .allocate(capacity: channels)
        history.initialize(repeating: 0, count: channels)
        keys = .allocate(capacity: channels)
        for c in 0..<channels { keys[c] = noise.key(channel: c) }
    }

    deinit {
        coefficients.deallocate()
        errors.deallocate()
        history.deallocate()
        keys.deallocate()
    }

    /// Dithers and rounds `frames` interleaved frames of `input` into `output` (they may be the
    /// same memory): the next `frames` frames of the stream.
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let channels = self.channels, taps = self.taps, scale = self.scale, inverse = self.inverse, magic = Self.roundingMagic
        let stride = 2 &* taps
        for f in 0..<frames {
            let n = frame &+ Int64(f)
            let base = f &* channels
            if taps > 0 { position = position == 0 ? taps &- 1 : position &- 1 }
            for c in 0..<channels {
                let y = Double(input[base &+ c]) * scale
                guard y.isFinite else {
                    output[base &+ c] = input[base &+ c]
                    continue
                }
                let r = (y + magic) - magic
                let offGrid: UInt32 = r == y ? 0 : 1
                let h = history[c] << 1 | offGrid
                history[c] = h
                var error = 0.0, q = r
                if h != 0 {
                    var v = y
                    if taps > 0 {
                        let offset: Int = c &* stride &+ position &+ 1
                        let e = errors + offset
                        for k in 0..<taps { v -= coefficients[k] * e[k] }
                    }
                    let d = Double(DitherNoise.tpdf(key: keys[c], frame: n))
                    let dithered: Double = v + d + magic
                    q = dithered - magic
                    error = q - v
                }
                if taps > 0 {
                    let e = errors + c &* stride
                    e[position] = error
                    e[position &+ taps] = error
                }
                output[base &+ c] = Float(q * inverse)
            }
        }
        frame &+= Int64(frames)
    }
}
