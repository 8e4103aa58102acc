#if canImport(Glibc)
import Glibc
#endif
import AUPipeGraph

/// Where a distorting loudspeaker's harmonics lie in this frame, per bin (issue 26): the residual
/// echo suppressor's `NearEndPresence` counts them as residual while `DistortionSign` says the
/// loudspeaker distorts, so that a frame whose harmonics R under-predicts is not taken for a near
/// talker's.
///
/// Why: the suppressor's model R predicts the residual's mean (its weights adapt by NLMS on
/// smoothed powers). A loudspeaker driven into its curve puts harmonics of the echo's strong
/// partials into bins where the echo estimate Ŷ is weak, far more in some frames than in others;
/// there D is well above Ŷ and C well above R, so `NearEndPresence` took those bins for a near
/// talker's and the frame for the near end's (the gentle β there left most of the residual). The
/// harmonics follow the far end's partials in the same frame; a near talker does not.
///
/// Per bin k and frame, the sources H_k = P_{k/2} + P_{k/3} + P_{k/4} (P, the suppressor's held
/// |Ŷ|² per bin; integer bin division: the bins whose 2nd, 3rd and 4th harmonics fall in k). In
/// frames of distorted echo alone (`DistortedEcho.deep` while `bold`), q_k (dB) moves up by `upDB`
/// when 10·log₁₀(C_k / H_k) (C's lightly smoothed power) is above it and down by
/// `upDB`/`quantileOdds` when below: it settles at the 90th percentile of C's power per unit of
/// source power. The predicted spread is `weight` · 10^(q_k/10) · H_k. Starts at `initialDB`
/// (nothing predicted), so only a loudspeaker that has distorted for a while moves anything; kept over an
/// echo-path change (the loudspeaker's curve stays; C and H both come through the room).
/// Everything is allocated in `init`; nothing else allocates.
package final class DistortionSpread {
    /// The step up (dB per frame) and the odds of the percentile (9: the 90th).
    package static let upDB: Float = 1, quantileOdds: Float = 9
    /// The share of the percentile's power counted as predicted (−9 dB): about the distortion's
    /// typical level in those bins. At the percentile itself (weight 1) a near word's first frame
    /// was taken for distortion in bench/aec's `sat-speaker-d80` (figures in bench/README.md).
    package static let weight: Float = 0.125
    /// Where q starts (dB of C's power over its sources'): under any loudspeaker's distortion.
    package static let initialDB: Float = -40
    package let bins: Int
    private let buffers = FloatBuffers()
    /// Per bin: q (dB), 10^(q/10) · `weight`, this frame's sources H, R plus the spread, R plus the spread at the percentile.
    private let levelDB, share, source, sum, full: UnsafeMutablePointer<Float>

    /// For the suppressor's `bins` bins.
    package init(bins: Int) {
        self.bins = bins
        levelDB = buffers.make(bins, Self.initialDB)
        share = buffers.make(bins, Self.weight * powf(10, Self.initialDB / 10))
        source = buffers.make(bins)
        sum = buffers.make(bins)
        full = buffers.make(bins)
    }

    /// This frame's sources H from `p` (the suppressor's P, bins): once a frame, before
    /// `residual`, `percentile` and `learn`, which read them.
    package func sources(from p: UnsafePointer<Float>) {
        for k in 0..<bins { source[k] = p[k / 2] + p[k / 3] + p[k / 4] }
    }

    /// One frame of distorted echo alone: `power`, C's lightly smoothed power (bins), against this
    /// frame's `sources`.
    package func learn(power: UnsafePointer<Float>) {
        let down = Self.upDB / Self.quantileOdds
        for k in 0..<bins where source[k] > 0 {
            let r = 10 * log10f(max(power[k] / source[k], 1e-12))
            levelDB[k] += r > levelDB[k] ? Self.upDB : -down
            share[k] = Self.weight * powf(10, levelDB[k] / 10)
        }
    }

    /// With `used`: `residual` (R) plus the predicted spread at this frame's `sources` (bins each); else `residual` itself.
    package func residual(_ residual: UnsafePointer<Float>, used: Bool) -> UnsafePointer<Float> {
        guard used else { return residual }
        for k in 0..<bins { sum[k] = residual[k] + share[k] * source[k] }
        return UnsafePointer(sum)
    }

    /// `residual` (R) plus the spread at the percentile itself, 10^(q/10) · H (bins each), at this
    /// frame's `sources`: what `DistortionBurst` reads a frame with.
    package func percentile(_ residual: UnsafePointer<Float>) -> UnsafePointer<Float> {
        for k in 0..<bins { full[k] = residual[k] + share[k] / Self.weight * source[k] }
        return UnsafePointer(full)
    }
}
