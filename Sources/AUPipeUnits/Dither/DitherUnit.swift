import AUPipeFormats
import AUPipeGraph

/// `dither`: adds seeded dither and rounds the stream to the grid of `bits`-bit integers at
/// this point of the chain (sox's `dither`), so that a later encoder of that width writes it
/// exactly and adds nothing of its own.
///
/// Where the stream already carries no more than `bits` bits (`PrepareContext.precision`: a
/// 16-bit input that no unit recomputed), there is nothing to do and the unit is bypassed.
/// The noise is TPDF, or shaped by error feedback (`NoiseShape`, 44.1 and 48 kHz); each
/// channel's sequence is seeded by `seed=` and indexed by the frame's position in the stream
/// (`Ditherer`), so the bytes do not depend on the run or the block size.
public final class DitherUnit: AudioUnit, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "dither",
        summary: "add seeded dither and round to a number of bits (TPDF or noise-shaped)",
        details: """
            Adds triangular (TPDF) noise of +-1 step and rounds every sample to the grid of bits-bit integers (value / 2^(bits-1)), so that an encoder of that width writes it exactly: the rounding error no longer follows the signal (no harmonics of a quiet tone, no buzz in a fade). type=shaped feeds the error back through Wannamaker's 9-tap F-weighted filter: the noise in 1-5 kHz drops about 19 dB below TPDF's and rises above 15 kHz; it exists at 44.1 and 48 kHz (43.7 to 48.3 kHz) only, elsewhere use tpdf. A stream that carries no more than bits bits already (16-bit input no unit recomputed) is passed on untouched. A channel on the grid for 32 samples in a row (silence) is rounded without noise until it leaves it. seed= picks the noise; the same seed gives the same bytes, for any --block. The output edge dithers by itself when it needs to (--dither); this unit is for a chosen point, width or seed.
            """,
        parameters: [Keys.bits, Keys.type, Keys.seed],
        primary: Keys.bits.name,
        example: "aupipe gain -3 : dither 16 type=shaped -t wav < in.f32.wav > out.wav",
        exercise: UnitExercise(["12", "seed=7"]),
        manual: manualText,
        make: { try DitherUnit(bits: $0[Keys.bits], type: $0[Keys.type], seed: $0[Keys.seed]) })

    public let bits: Int
    public let type: NoiseType
    public let seed: UInt64
    private var ditherer: Ditherer?
    private var channels = 1

    public init(bits: Int, type: NoiseType, seed: Int) throws {
        self.bits = bits
        self.type = type
        self.seed = UInt64(seed)
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        channels = input.channels
        var kind = Ditherer.Kind.tpdf
        if type == .shaped {
            guard let shape = NoiseShape.forRate(input.sampleRate) else {
                let r = NoiseShape.rateRange
                throw AUPipeError.usage("dither: type=shaped has a shape for \(r.lowerBound)...\(r.upperBound) Hz (44.1 and 48 kHz), not \(input.sampleRate) Hz; use type=tpdf, or resample first")
            }
            kind = .shaped(shape)
        }
        ditherer = context.precision.bits > bits ? Ditherer(bits: bits, channels: channels, kind: kind, seed: seed) : nil
        return input
    }

    /// Nothing to do when the input carries no more than `bits` bits.
    public var isBypassed: Bool { ditherer == nil }

    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision {
        min(input, SignalPrecision(bits: bits))
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        if let ditherer {
            ditherer.process(input, frames: frames, into: output)
        } else {
            output.update(from: input, count: frames * channels)
        }
        return frames
    }

    public var statsNote: String? {
        guard let ditherer else { return "nothing to do: the input has no more than \(bits) bits" }
        return "\(ditherer.kind.name) to \(bits) bits, seed \(seed)"
    }
}
