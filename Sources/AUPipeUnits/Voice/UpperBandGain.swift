#if canImport(Glibc)
import Glibc
#endif

/// The gain `aec`'s band split (`EchoBandSplit`) gives the upper band, which no canceller
/// sees: per frame and microphone, how much the whole canceller (linear filter, preprocessor,
/// residual echo suppressor, comfort noise) kept of the top of the low band, the octave below
/// its Nyquist frequency (4–8 kHz at 16 kHz), where the spectrum is nearest the upper band's:
/// the square root of the output's energy there over the microphone's, ≤ 1 (the ratio itself,
/// twice the cut in dB, changed the ERLE of five 48 kHz bench scenes by 0.5 dB at most: what
/// limits it is the low band's residual echo, not the upper band's). So the upper band
/// loses what the low band's top lost: the echo while the far end talks alone, little of a
/// near talker (the suppressor keeps its low band), the noise `denoise=` takes. As AEC3's
/// upper-band gain, it falls at once and rises by half the way per frame (a near talker's
/// onset is back within two frames), and is ramped across the frame (no step at its edges).
///
/// Comfort noise (with `comfort=on`): where the gain takes the upper band below its own
/// background (a minimum tracked over the frames, rising 3 dB/s), noise of the upper band's
/// spectrum fills it back to that level, so the highs do not go dead while the far end talks.
/// Allocates only in `init`; deterministic (a fixed noise table).
package final class UpperBandGain {
    /// How fast a rising gain moves towards its target per frame (share of the way).
    package static let release: Float = 0.5
    /// Below this mean square of the microphone's top band (about −100 dBFS) nothing is judged:
    /// the gain goes to 1.
    package static let silentTop: Double = 1e-10
    /// How fast the upper band's background estimate may rise (dB/s): slower than speech
    /// comes and goes, faster than a room's noise changes.
    package static let backgroundRiseDBPerSecond = 3.0
    /// Stream frames of comfort noise per low-band frame in the table (a little over a second
    /// at 48 kHz), looped.
    private static let tableLowFrames = 16384

    /// Microphones, low-band frames per DSP frame, and frames the canceller's output is late.
    private let mics: Int, lowFrames: Int, latencyFrames: Int
    /// The microphones' top-band mean squares, one per DSP frame, a ring of `latencyFrames + 1`.
    private let micTop: UnsafeMutablePointer<Double>
    private var micNext = 0
    /// Per microphone: the last two samples of the microphone's and the output's low band
    /// (the second difference that measures the top band), the gain in use, the background.
    private let micPast, outPast: UnsafeMutablePointer<Float>
    private let gains: UnsafeMutablePointer<Float>
    private let background: UnsafeMutablePointer<Double>
    /// The comfort noise (nil without `comfort`): the upper band of white noise, mean square 1,
    /// and where each microphone reads it (no closure reads it: a mutable capture is a heap box
    /// in a debug build, per frame).
    private let table: UnsafeMutablePointer<Float>?
    private let tableLength: Int
    private let tablePosition: UnsafeMutablePointer<Int>
    /// The background's rise per frame (a power ratio).
    private let rise: Double
    /// The frames run, and those whose gain took more than 6 dB (`--stats`).
    package private(set) var framesRun = 0, framesCut = 0

    package init(filter: BandSplitFilter, lowFrames: Int, mics: Int, latencyFrames: Int, comfort: Bool, frameSeconds: Double = 0.02) {
        self.mics = mics
        self.lowFrames = lowFrames
        self.latencyFrames = latencyFrames
        micTop = .allocate(capacity: (latencyFrames + 1) * mics)
        micTop.initialize(repeating: 0, count: (latencyFrames + 1) * mics)
        micPast = .allocate(capacity: 2 * mics)
        micPast.initialize(repeating: 0, count: 2 * mics)
        outPast = .allocate(capacity: 2 * mics)
        outPast.initialize(repeating: 0, count: 2 * mics)
        gains = .allocate(capacity: mics)
        gains.initialize(repeating: 1, count: mics)
        background = .allocate(capacity: mics)
        background.initialize(repeating: -1, count: mics)
        tablePosition = .allocate(capacity: mics)
        let length = Self.tableLowFrames * filter.factor
        for m in 0..<mics { (tablePosition + m).initialize(to: m * length / max(1, mics)) }
        rise = pow(10, Self.backgroundRiseDBPerSecond * frameSeconds / 10)
        tableLength = length
        if comfort {
            let t = UnsafeMutablePointer<Float>.allocate(capacity: length)
            t.initialize(from: Self.noiseTable(filter: filter, length: length), count: length)
            table = t
        } else {
            table = nil
        }
    }

    deinit {
        micTop.deallocate()
        micPast.deallocate()
        outPast.deallocate()
        gains.deallocate()
        background.deallocate()
        tablePosition.deallocate()
        table?.deallocate()
    }

    /// The upper band of `length` frames of white noise (looped: run twice, the second pass
    /// kept), scaled to a mean square of 1.
    private static func noiseTable(filter: BandSplitFilter, length: Int) -> [Float] {
        var seed: UInt64 = 0xB0A7_5EED
        let white = (0..<length).map { _ -> Float in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(Double(Int64(bitPattern: seed) >> 11) / Double(1 << 52))
        }
        let chunk = 64 * filter.factor
        let decimator = BandDecimator(filter: filter, channels: 1, maxFrames: chunk)
        let interpolator = BandInterpolator(filter: filter, channels: 1, maxFrames: chunk / filter.factor)
        var low = [Float](repeating: 0, count: chunk / filter.factor), wide = [Float](repeating: 0, count: chunk)
        var out = [Float](repeating: 0, count: length)
        for pass in 0..<2 {
            for start in Swift.stride(from: 0, to: length, by: chunk) {
                white.withUnsafeBufferPointer { decimator.run($0.baseAddress! + start, frames: chunk, into: &low) }
                interpolator.run(low, frames: chunk / filter.factor, into: &wide)
                if pass == 1 {
                    let delayed = decimator.delayed(0)
                    for f in 0..<chunk { out[start + f] = delayed[f] - wide[f] }
                }
            }
        }
        let meanSquare = out.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(length)
        let scale = Float(1 / max(meanSquare, 1e-30).squareRoot())
        return out.map { $0 * scale }
    }

    /// The mean square of the second difference of `lowFrames` samples of channel `c` of `x`
    /// (`channels` interleaved), `past` holding the two samples before them (updated).
    private func topMeanSquare(_ x: UnsafePointer<Float>, channels: Int, c: Int, past: UnsafeMutablePointer<Float>) -> Double {
        var a = past[0], b = past[1], sum = 0.0
        for f in 0..<lowFrames {
            let v = x[f * channels + c]
            let d = Double(v - 2 * b + a)
            sum += d * d
            a = b
            b = v
        }
        past[0] = a
        past[1] = b
        return sum / Double(lowFrames)
    }

    /// The microphones' low band of one DSP frame as it goes into the canceller.
    package func addMicrophone(_ low: UnsafePointer<Float>, channels: Int, micChannels: [Int]) {
        let row = micTop + micNext * mics
        for m in micChannels.indices {
            row[m] = topMeanSquare(low, channels: channels, c: micChannels[m], past: micPast + 2 * m)
        }
        micNext = (micNext + 1) % (latencyFrames + 1)
    }

    /// Adds the upper band `upper` (`frames` × microphones, interleaved) to `output` with its
    /// gain, from the canceller's output `lowOut` (the low-band frame that goes with it) and
    /// the microphone's frame `latencyFrames` before the one added last; comfort noise too.
    package func apply(upper: UnsafePointer<Float>, frames: Int, lowOut: UnsafePointer<Float>, adding output: UnsafeMutablePointer<Float>) {
        // The ring's oldest row: the frame whose output this is.
        let row = micTop + micNext * mics
        framesRun += 1
        for m in 0..<mics {
            let outTop = topMeanSquare(lowOut, channels: mics, c: m, past: outPast + 2 * m)
            let target = row[m] < Self.silentTop ? 1 : Float(min(1, (outTop / row[m]).squareRoot()))
            let old = gains[m]
            let new = target < old ? target : old + Self.release * (target - old)
            gains[m] = new
            if new < 0.5 { framesCut += 1 }
            var power = 0.0
            for f in 0..<frames {
                let u = Double(upper[f * mics + m])
                power += u * u
            }
            power /= Double(frames)
            background[m] = background[m] < 0 ? power : min(power, background[m] * rise)
            let step = (new - old) / Float(frames)
            for f in 0..<frames {
                output[f * mics + m] += (old + step * Float(f + 1)) * upper[f * mics + m]
            }
            guard let table else { continue }
            let fill = background[m] - Double(new * new) * power
            guard fill > 0 else { continue }
            let amplitude = Float(fill.squareRoot())
            var p = tablePosition[m]
            for f in 0..<frames {
                output[f * mics + m] += amplitude * table[p]
                p += 1
                if p == tableLength { p = 0 }
            }
            tablePosition[m] = p
        }
    }
}
