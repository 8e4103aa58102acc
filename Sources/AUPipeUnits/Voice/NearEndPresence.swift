import AUPipeGraph
/// The residual echo suppressor's per-bin test of a near end present, for quiet near talkers:
/// a bin whose microphone power D is well above the echo the linear filter predicts there (Ŷ)
/// and the background, and whose canceller output C the residual model does not explain, is the
/// near end's, whatever the frame's cancellation or D's coherence with Ŷ say.
///
/// Why: a talker 10–16 dB under the echo moves neither test the suppressor had. The frame's
/// cancellation falls by only 4–6 dB (`DoubleTalkDetector` needs 10), and D stays coherent with
/// Ŷ, because the echo dominates D in most bins. But speech is sparse in frequency: on
/// bench/aec's quiet talkers about three quarters of the near end's power lies in bins where it
/// is louder than the echo itself, and there the suppressor took it for residual echo (with
/// β = 8 and its −80 dB floor) and lost 5–7 dB of it. Once the linear filter has converged, Ŷ
/// is the echo to within its misadjustment (about 20 dB in those scenes), so in a bin of echo
/// alone D stays within a dB or so of Ŷ.
///
/// Per bin k, per frame, with |D|² and |Ŷ|² lightly smoothed (the suppressor's
/// `gainPowerSmoothing`; C and Ŷ split from the suppressor's transform, D = C + Ŷ): the near end is present when |D|² > `micOverEcho` · (|Ŷ|² +
/// the background) and C's lightly smoothed power > `overResidual` · (R + N), N the suppressor's
/// noise floor and R its predicted residual. The background: `backgroundOverFloor` · N, or, in a
/// frame whose noise caps D's coherence with Ŷ (`noiseCapsCoherence`) and a bin whose background
/// is steady (its median level while the far end talks, `BackgroundLevel`, within `steadyRatio`
/// of N: pink noise, not babble), that median, at least `steadyOverFloor` · N.
/// Only while Ŷ can be trusted: once the
/// suppressor's model has adapted on `settledSeconds` of echo alone since the call's start or the
/// last echo-path change, or the far end has been heard alone for `noisySettledSeconds` in steady
/// noise that caps D's coherence with Ŷ (`noiseCapsCoherence` and `steadyNoise`: the model then
/// adapts on few frames, `ModelSettling`) (before that a bin whose far end the young filter has not yet learnt,
/// D well above Ŷ, is echo; after a change the short filter that took over leaves the room's
/// tail to the long one for a while), outside an echo-path change, while the frame's cancellation (D's smoothed power over C's, over all bins, the noise floor taken out of both) is at
/// least `leastCancellation` (an echo path that moved takes it near 0 dB), and while the model's
/// predicted residual is under `linearShare` of Ŷ's power (a saturating loudspeaker's
/// distortion, which Ŷ does not hold, fills bins of weak echo).
///
/// What the suppressor does with it: a frame whose present bins span at least `leastHz` and hold
/// at least `frameShare` of C's power is the near end's: not echo alone (the gentle β and the
/// `suppress-active=` floor in its other bins), and its present bins pass C, the canceller's
/// output, as it is (neither the suppressor's gain nor the preprocessor's: the residual echo
/// under it is about 20 dB below the echo, itself 6 dB below the near end there). Present bins
/// outside such frames are left to the gain: passing them too kept 0.1 dB more of the quiet
/// talkers but let a saturating loudspeaker's distortion through (1–2.6 dB of echo-only ERLE
/// in bench/aec's `sat-*` scenes).
/// Everything is allocated in `init`; `update` allocates nothing.
package final class NearEndPresence {
    /// The near end present where D exceeds this many times Ŷ plus the background (6 dB). On
    /// bench/aec's 16 kHz scenes 3 dB kept 0.1–0.2 dB more of the quiet talkers but cost up to
    /// 6 dB of echo-only ERLE in rooms, where the filter under-predicts a bin by 4–6 dB now and
    /// then; 6 dB cost 0.0–0.6 (figures in bench/README.md, "Quiet near talkers: the near end
    /// per bin").
    package static let micOverEcho: Float = 4
    /// The background as this many times the noise floor (9 dB): the floor is the least of the
    /// smoothed power over 2–4 s, and pink noise's mean lies about 3 dB above it, babble's more.
    package static let backgroundOverFloor: Float = 8
    /// A bin's background is steady where its median level (`BackgroundLevel`) is within this
    /// many times the floor (6 dB); there the median, at least `steadyOverFloor` times the floor
    /// (3 dB), stands for it: 9 dB over the floor took a talker at the noise's level out of the test
    /// (it had to stand 15 dB over the floor in a bin), and a steady noise's bins seldom swing 6 dB
    /// over its median. Babble's median stands further above its floor, and its bins swing as a
    /// talker's do: the 9 dB stay.
    package static let steadyRatio: Float = 4, steadyOverFloor: Float = 2
    /// ... and C's power at least this many times the predicted residual and the floor (6 dB):
    /// a bin the residual model explains is not the near end's.
    package static let overResidual: Float = 4
    /// A frame whose present bins hold this share of C's power, over at least `leastHz`, is not
    /// echo alone: a talker's harmonics span a few hundred Hz; a far end the filter has not yet
    /// learnt shows in a few neighbouring bins.
    package static let frameShare: Float = 0.2, leastHz = 150.0
    /// Ŷ is trusted once the suppressor's model has adapted on this much echo alone (s) since the
    /// call's start or the last echo-path change: on bench/aec's `quietnear-dt-d300`, 1–2 s still
    /// let a few frames of far end the young filter had not learnt through as near end (7 dB of
    /// echo-only ERLE); counted from the start only, `pathchange-rt10-d120` lost 1.3 dB.
    package static let settledSeconds = 4.0
    /// ... or once the far end has been heard alone for this long (s) in steady noise that caps
    /// D's coherence with Ŷ (`noiseCapsCoherence` and `steadyNoise`): there the model adapts on
    /// few frames, and a quiet talker who starts in the call's first seconds went without the test
    /// for as long as the model took to settle, many seconds after the linear filter had converged.
    package static let noisySettledSeconds = 0.5

    /// Whether the frame's background is steady noise: the background's median level
    /// (`BackgroundLevel`, `level`, summed over the bins) within `steadyRatio` of the noise floor
    /// (`noise`, summed), as a steady noise's bins are. Why: `noiseCapsCoherence` holds in a room
    /// without much noise too, in the far end's quieter frames (Ŷ small) while the filter is young:
    /// the floor, the least of C, is then the young filter's residual, and C's median while the far
    /// end talks (its residual echo) stands 10–20 dB above it; counted towards
    /// `noisySettledSeconds`, those frames trusted the young filter from the call's first seconds.
    /// Babble's median stands about 6 dB above its floor and swings: babble mostly settles the
    /// model by its adaptation (`settledSeconds`), as it did before the noisy settling.
    package static func steadyNoise(level: Float, noise: Float) -> Bool {
        level <= steadyRatio * noise
    }

    /// Whether a frame's noise floor (`noise`, summed over the bins) caps D's coherence with Ŷ
    /// (`echo`, |Ŷ|² summed) under `ResidualEchoSuppressor.echoCoherence` even where Ŷ is the
    /// echo: the noise's mean, about twice its floor, over the share of Ŷ's power that coherence
    /// allows.
    package static func noiseCapsCoherence(noise: Float, echo: Float) -> Bool {
        2 * noise > (1 - ResidualEchoSuppressor.echoCoherence) * echo
    }
    /// ... and while the cancellation is at least this (6 dB; of what is not the noise floor: noise
    /// at the echo's level caps it as it caps the coherence): a quiet near talker lowers it by a
    /// few dB; an echo path that moved takes it near 0 dB.
    package static let leastCancellation: Float = 4
    /// ... and while the residual the model predicts is under this share of Ŷ's power (−10 dB,
    /// the suppressor's `explainedShare`): bench/aec's small loudspeaker reads 0.09–0.23, the
    /// rooms 0.002–0.04.
    package static let linearShare: Float = 0.1

    package let bins: Int
    private let size: Int
    private let leastBins: Int
    /// Per bin: |D|², |Ŷ|² lightly smoothed, and the background the latest frame's test used.
    private let dFast, yFast, backgroundNow: UnsafeMutablePointer<Float>
    /// Whether Ŷ was trusted in the latest frame.
    private var trustedNow = false
    /// All of its float buffers, freed with the object.
    private let buffers: FloatBuffers
    /// Per bin: whether the near end is present in the latest frame (1) or not (0), and C's
    /// spectrum in that frame.
    package let present, cRe, cIm: UnsafeMutablePointer<Float>

    /// Whether the suppressor's model has settled (`settledSeconds` of echo alone since the start or a change).
    private var settling: ModelSettling

    /// For the suppressor's transform of `size` points (`size`/2 + 1 bins) at `rate` Hz, in
    /// frames of `frameSeconds`.
    package init(size: Int, rate: Int, frameSeconds: Double) {
        self.size = size
        settling = ModelSettling(frameSeconds: frameSeconds, noisySeconds: Self.noisySettledSeconds)
        bins = size / 2 + 1
        leastBins = max(1, Int((Self.leastHz * Double(size) / Double(rate)).rounded()))
        let buffers = FloatBuffers()
        self.buffers = buffers
        dFast = buffers.make(bins); yFast = buffers.make(bins); backgroundNow = buffers.make(bins); present = buffers.make(bins); cRe = buffers.make(bins); cIm = buffers.make(bins)
    }

    /// One frame. `re`, `im`: the suppressor's transform of C + j·Ŷ (`size` points); `sdd`,
    /// `see`: D's and C's smoothed powers, `noise` the noise floor, `eFast` C's lightly smoothed
    /// power, `residual` the predicted residual R (bins each); `smoothing`: |D|²'s and |Ŷ|²'s;
    /// `echoOnly`: the suppressor's model adapts on this frame (counted towards `settledSeconds`
    /// from the next frame on); `farAlone`: the suppressor's gain takes the frame for the far end
    /// alone (towards `noisySettledSeconds` where steady noise caps the coherence); `level`: the
    /// background's median level per bin (`BackgroundLevel.level`; nil: no noise is taken for steady);
    /// `pathChanged`: an echo-path change is under way. Fills `present`, `cRe` and `cIm`;
    /// returns whether the frame is the near end's (`frameShare`, `leastHz`).
    package func update(re: UnsafePointer<Float>, im: UnsafePointer<Float>, sdd: UnsafePointer<Float>, see: UnsafePointer<Float>,
                        noise: UnsafePointer<Float>, eFast: UnsafePointer<Float>, residual: UnsafePointer<Float>, smoothing g: Float,
                        echoOnly: Bool, farAlone: Bool = false, level: UnsafePointer<Float>? = nil, pathChanged: Bool, linear: Bool) -> Bool {
        var dSum: Float = 0, cSum: Float = 0, ySum: Float = 0, nSum: Float = 0, levelSum: Float = 0
        for k in 0..<bins {
            // C and Ŷ split from the transform of C + j·Ŷ, D = C + Ŷ.
            let (cr, ci, yr, yi) = TwoRealSpectra.split(re: re, im: im, size: size, bin: k)
            let dr = cr + yr, di = ci + yi
            cRe[k] = cr; cIm[k] = ci
            dFast[k] = g * dFast[k] + (1 - g) * (dr * dr + di * di)
            yFast[k] = g * yFast[k] + (1 - g) * (yr * yr + yi * yi)
            dSum += sdd[k]
            cSum += see[k]
            ySum += yFast[k]
            nSum += noise[k]
            levelSum += level?[k] ?? 0
        }
        let noisy = Self.noiseCapsCoherence(noise: nSum, echo: ySum)
        let steady = level != nil && Self.steadyNoise(level: levelSum, noise: nSum)
        let settled = settling.update(echoOnly: echoOnly, noisyAlone: farAlone && noisy && steady, pathChanged: pathChanged)
        // The cancellation of what is not the background (noise that caps the coherence caps it too).
        let trusted = settled && linear && !pathChanged && dSum - nSum > Self.leastCancellation * max(cSum - nSum, 0)
        var nearSum: Float = 0, all: Float = 0, count = 0
        for k in 0..<bins {
            var background = Self.backgroundOverFloor * noise[k]
            if noisy, let level, level[k] <= Self.steadyRatio * noise[k] { background = max(Self.steadyOverFloor * noise[k], level[k]) }
            let on = trusted && dFast[k] > Self.micOverEcho * (yFast[k] + background)
                && eFast[k] > Self.overResidual * (residual[k] + noise[k])
            backgroundNow[k] = background
            present[k] = on ? 1 : 0
            all += eFast[k]
            if on { nearSum += eFast[k]; count += 1 }
        }
        trustedNow = trusted
        return trusted && count >= leastBins && nearSum > Self.frameShare * all
    }

    /// The latest frame's test again with another predicted residual (`residual`; `noise`, `eFast`
    /// as `update`'s): whether the frame is the near end's, the bins present, and those of them
    /// under bin `lowBins`. `present` is left as `update` set it.
    package func recount(residual: UnsafePointer<Float>, noise: UnsafePointer<Float>, eFast: UnsafePointer<Float>,
                         lowBins: Int) -> (frame: Bool, count: Int, low: Int) {
        var nearSum: Float = 0, all: Float = 0, count = 0, low = 0
        for k in 0..<bins {
            all += eFast[k]
            guard trustedNow, dFast[k] > Self.micOverEcho * (yFast[k] + backgroundNow[k]),
                  eFast[k] > Self.overResidual * (residual[k] + noise[k]) else { continue }
            nearSum += eFast[k]; count += 1
            if k < lowBins { low += 1 }
        }
        return (trustedNow && count >= leastBins && nearSum > Self.frameShare * all, count, low)
    }
}
