import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// The static curves of `compressor` and `gate`: the gain, in dB (≤ 0), asked for at an input
/// level x in dBFS (AES17), before the attack and release smoothing.

/// A compressor's curve with a soft knee (the usual quadratic, Giannoulis, Massberg & Reiss,
/// JAES 2012): with threshold T, ratio R and knee width W (all dB but R),
///
///     x < T − W/2:        y = x
///     |x − T| ≤ W/2:      y = x + (1/R − 1)(x − T + W/2)² / (2W)
///     x > T + W/2:        y = T + (x − T)/R
///
/// and the gain is y − x. W = 0 is the hard knee.
package struct CompressorCurve: Sendable {
    package var threshold: Float
    package var ratio: Float
    package var knee: Float

    package init(threshold: Float, ratio: Float, knee: Float) {
        (self.threshold, self.ratio, self.knee) = (threshold, ratio, knee)
    }

    /// The gain at level `x` dBFS, dB (≤ 0).
    @inline(__always)
    package func gain(_ x: Float) -> Float {
        let slope = 1 / ratio - 1
        let d = x - threshold
        if knee > 0 && 2 * abs(d) <= knee {
            let k = d + knee / 2
            return slope * k * k / (2 * knee)
        }
        return d > 0 ? slope * d : 0
    }

    /// The make-up gain that brings a 0 dBFS input back to 0 dBFS (`makeup=auto`), dB.
    package var automaticMakeup: Float { -gain(0) }
}

/// A gate or a downward expander below threshold T: the gain is 0 dB at or above T; below it,
/// a gate (ratio ∞) gives `range` dB, an expander of ratio R gives (R − 1)(x − T) dB, never
/// below `range` (a 2:1 expander turns 10 dB under the threshold into 20 dB under).
package struct ExpanderCurve: Sendable {
    package var threshold: Float
    /// ∞ for a gate.
    package var ratio: Float
    /// The deepest gain, dB (≤ 0).
    package var range: Float

    package init(threshold: Float, ratio: Float, range: Float) {
        (self.threshold, self.ratio, self.range) = (threshold, ratio, range)
    }

    @inline(__always)
    package func gain(_ x: Float) -> Float {
        let d = x - threshold
        if d >= 0 { return 0 }
        if ratio.isInfinite { return range }
        return max(range, (ratio - 1) * d)
    }
}

/// The attack-and-release smoothing of a gain in dB: a one-pole filter whose coefficient
/// depends on the direction, a = exp(−1 / (τ · rate)). The time constant τ is the time the
/// gain takes to cover 1 − 1/e (63.2 %) of a step of the curve's gain, in dB; 0 follows at once.
package struct GainSmoother: Sendable {
    package let attack: Float
    package let release: Float

    /// The coefficient of time constant `seconds` at `rate`.
    package static func coefficient(_ seconds: Double, rate: Int) -> Float {
        seconds > 0 ? Float(exp(-1 / (seconds * Double(rate)))) : 0
    }

    package init(attackSeconds: Double, releaseSeconds: Double, rate: Int) {
        attack = Self.coefficient(attackSeconds, rate: rate)
        release = Self.coefficient(releaseSeconds, rate: rate)
    }

    /// One step from `value` towards `target`; `isAttack` chooses the coefficient.
    @inline(__always)
    package func step(_ value: Float, to target: Float, isAttack: Bool) -> Float {
        let a = isAttack ? attack : release
        return target + a * (value - target)
    }
}
