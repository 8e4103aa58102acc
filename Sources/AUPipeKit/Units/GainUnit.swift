#if canImport(Glibc)
import Glibc
#endif

/// `gain`: multiplies every sample by 10^(db/20).
public final class GainUnit: AudioUnit {
    public static let descriptor = UnitDescriptor(
        name: "gain",
        summary: "change the level by a number of dB",
        details: "Multiplies every sample by 10^(db/20) in 32-bit float. Samples pushed past full scale stay in float and are clipped (and counted) only where they are quantized to integers: by a later convert format=, or by the encoder at the end. 0 dB leaves the stream untouched.",
        parameters: [ParameterDescriptor("db", .number(-120...60, unit: "dB"), default: "0", help: "gain in decibels; negative is quieter")],
        primary: "db",
        example: "aupipe gain -6 < in.wav > out.wav",
        make: { GainUnit(db: $0.number("db")!) })

    /// Gain in dB, -120...60.
    public let db: Double
    private let factor: Float
    private var channels = 1

    public init(db: Double) {
        self.db = db
        factor = Float(Glibc.pow(10, db / 20))
    }

    public func prepare(input: StreamFormat, maxFrames: Int) throws -> StreamFormat {
        channels = input.channels
        return input
    }

    public var isBypassed: Bool { db == 0 }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let f = factor
        for i in 0..<(frames * channels) { output[i] = input[i] * f }
        return frames
    }
}
