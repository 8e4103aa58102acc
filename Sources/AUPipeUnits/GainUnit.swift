import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `gain`: multiplies every sample by 10^(db/20).
///
/// `db` is live: a change made while running (`--control`: `set gain.db -6`) glides linearly in
/// amplitude from the old factor to the new one over 10 ms, starting at the next block.
public final class GainUnit: AudioUnit, LiveControllable {
    public static let descriptor = UnitDescriptor(
        name: "gain",
        summary: "change the level by a number of dB",
        details: "Multiplies every sample by 10^(db/20) in 32-bit float. Samples pushed past full scale stay in float and are clipped (and counted) only where they are quantized to integers: by a later convert format=, or by the encoder at the end. 0 dB leaves the stream untouched. db is live: a change while running glides over 10 ms.",
        parameters: [Keys.db],
        primary: Keys.db.name,
        example: "aupipe gain -6 < in.wav > out.wav",
        exercise: UnitExercise(["-6"]),
        manual: manualText,
        make: { GainUnit(db: $0[Keys.db]) })

    /// Gain in dB, -120...60: the value set last.
    public private(set) var db: Double
    private var glide: GainGlide
    private var channels = 1

    public init(db: Double) {
        self.db = db
        glide = GainGlide(factor: GainGlide.factor(dB: db))
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        glide.glideFrames = GainGlide.frames(atRate: context.input.sampleRate)
        return context.input
    }

    public var isBypassed: Bool { db == 0 }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Keys.db.value(ifNamed: name, from: value) else { throw AUPipeError.usage("gain: \(name) is not live") }
        db = v
        glide.glide(to: GainGlide.factor(dB: v))
    }

    public func parameterValue(_ name: String) -> String? { name == Keys.db.name ? formatNumber(db) : nil }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        glide.apply(input, into: output, frames: frames, channels: channels, accumulate: false)
        return frames
    }
}
