#if canImport(Glibc)
import Glibc
#endif

/// A sign that the loudspeaker distorts (issue 26): over seconds of far end alone, the linear
/// canceller leaves a large share of the echo in its loudest frames.
///
/// Why: the nonlinear canceller's gate (`NonlinearEchoCanceller.modelling`) also opens on linear
/// loudspeakers (the recorded voice, 48 kHz, long rooms), so `DistortedEcho` could not let the
/// near end's tests stand aside on it. A linear loudspeaker's residual once the filter has
/// converged — its misadjustment and the room's tail beyond it — is a small share of the echo,
/// smallest in the loudest frames (the background and the tail of louder frames before fill the
/// quiet ones). A loudspeaker driven into its curve makes harmonics and intermodulation that no
/// linear filter of the far end cancels, and most of them in its loudest frames. So the sign is
/// the share of Ŷ's power left in C in the loud frames, from a least-squares line of the share
/// (dB) over Ŷ's level (dB) fitted over `memorySeconds` of far end alone, read one standard
/// deviation above the mean level (`loudShareDB`).
///
/// Per frame, from the linear canceller's microphone D, its output C (before the nonlinear
/// canceller) and Ŷ = D − C (mean squares of the frame's samples, full scale 1):
/// - the background: the least of C's power over `noiseSeconds` windows (the smaller of the
///   current and the last window's minima, as minimum statistics), taken off C's power;
/// - a frame counts when it is far end alone (`alone`: no double talk, no near end heard lately,
///   the caller's tests), Ŷ at least `echoOverNoise` times the background and at least
///   `echoFloor`, and C under Ŷ (a filter that cancels nothing yet, or a near talker, fails it);
/// - v = 10·log₁₀ Ŷ, u = 10·log₁₀((C − background) / Ŷ), floored at `leastShareDB`;
///   sums of 1, v, u, v², u·v, each decayed by `memorySeconds` per frame counted.
/// The sign comes on when `loudShareDB` reaches `onShareDB` with at least `leastSeconds` of frames
/// counted (the decayed count) and v spread by at least `leastSpreadDB` (standard deviation);
/// it goes off under `offShareDB`. An echo-path change (`restart`) starts the fit again: the
/// new path's first seconds leave a linear residual as large. One frame cannot turn it on: the
/// fit holds seconds of frames. Nothing allocates.
package struct DistortionSign {
    /// The fit's memory (s of counted frames).
    package static let memorySeconds = 8.0
    /// The least count (s of frames) and spread of Ŷ's level (dB, standard deviation) for a verdict.
    package static let leastSeconds = 5.0, leastSpreadDB = 3.0
    /// The loud frames' share (dB of C's power over Ŷ's) at which the sign comes on, and under which it goes off.
    package static let onShareDB = -14.0, offShareDB = -17.0
    /// Ŷ over the background (power ratio) and Ŷ's least mean square for a frame to count.
    package static let echoOverNoise: Float = 30, echoFloor: Float = 1e-7
    /// The share's floor (dB): C at the background gives this, not −∞.
    package static let leastShareDB = -40.0
    /// The background's minimum-statistics window (s).
    package static let noiseSeconds = 2.0

    private let decay: Double, leastCount: Double, noiseWindow: Int
    private var sw = 0.0, sv = 0.0, su = 0.0, svv = 0.0, suv = 0.0
    private var minNow = Float.greatestFiniteMagnitude, minBefore = Float.greatestFiniteMagnitude, noiseCount = 0
    /// Whether the loudspeaker distorts, as of the latest frame.
    package private(set) var on = false
    /// Frames seen and frames the sign was on (for `--stats`).
    package private(set) var framesSeen = 0, framesOn = 0

    /// For frames of `frameSeconds` s.
    package init(frameSeconds: Double) {
        decay = exp(-frameSeconds / Self.memorySeconds)
        leastCount = Self.leastSeconds / frameSeconds
        noiseWindow = max(1, Int((Self.noiseSeconds / frameSeconds).rounded()))
    }

    /// The fitted share (dB) one standard deviation above the mean level; nil before a verdict can be given.
    package var loudShareDB: Double? {
        guard sw >= leastCount else { return nil }
        let mv = sv / sw, varV = svv / sw - mv * mv
        guard varV >= Self.leastSpreadDB * Self.leastSpreadDB else { return nil }
        let slope = (suv / sw - mv * su / sw) / varV
        return su / sw + slope * varV.squareRoot()
    }

    /// Starts the fit again (an echo-path change); the verdict stays until the new fit gives one.
    package mutating func restart() { sw = 0; sv = 0; su = 0; svv = 0; suv = 0 }

    /// One frame: `mic` D and `cancelled` C (N 16-bit samples each), `alone`: far end alone by the caller's tests.
    package mutating func update(mic: UnsafePointer<Int16>, cancelled: UnsafePointer<Int16>, count n: Int, alone: Bool) {
        var c: Float = 0, y: Float = 0
        for i in 0..<n {
            let ci = Float(cancelled[i]), yi = Float(mic[i]) - ci
            c += ci * ci
            y += yi * yi
        }
        let scale = 1 / (32768 * 32768 * Float(n))
        c *= scale; y *= scale
        minNow = min(minNow, c)
        noiseCount += 1
        if noiseCount >= noiseWindow { noiseCount = 0; minBefore = minNow; minNow = .greatestFiniteMagnitude }
        let noise = min(minNow, minBefore)
        framesSeen += 1
        if alone, y >= Self.echoFloor, y >= Self.echoOverNoise * noise, c < y {
            let v = 10 * log10(Double(y)), u = max(Self.leastShareDB, 10 * log10(Double(max(c - noise, 1e-20) / y)))
            sw = decay * sw + 1; sv = decay * sv + v; su = decay * su + u
            svv = decay * svv + v * v; suv = decay * suv + u * v
            if let share = loudShareDB {
                if share >= Self.onShareDB { on = true } else if share < Self.offShareDB { on = false }
            }
        }
        if on { framesOn += 1 }
    }
}
