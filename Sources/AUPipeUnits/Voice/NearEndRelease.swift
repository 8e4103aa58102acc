import AUPipeGraph

/// The residual echo suppressor's release after a near talker stops: in a frame the suppressor
/// still takes for a near end's (its double-talk detector holds 0.2 s and falls slowly, its
/// coherence test reads spectra smoothed over about 130 ms), the bins whose canceller output C
/// the residual model explains in this very frame get the echo-alone gain.
///
/// Why: in the pauses between a near talker's words inside double talk, and for a few frames
/// after the last one, the linear stage cancels as elsewhere but the suppressor stays in near-end
/// mode (gentle β, `suppress-active=` floor, a gain smoothed over frames that still hold the
/// word): on bench/aec's rooms a large share of a scene's residual echo sat in the 60 ms after a
/// near word (bench/README.md, "The double talk's exit", has the figures behind this type).
///
/// Per frame in near-end mode, outside an echo-path change and once the model has adapted on
/// `NearEndPresence.settledSeconds` of echo alone since the call's start or the last change (a
/// model carried over a change predicts the old path's residual: released then, the double talk
/// after a change rated lower), on this frame's unsmoothed spectra
/// (C and Ŷ split from the suppressor's transform, D = C + Ŷ; R the predicted residual, N the
/// noise floor, per bin):
/// - the near end is heard now in a bin when |D|² > `NearEndPresence.micOverEcho`·(|Ŷ|² +
///   `NearEndPresence.backgroundOverFloor`·N) and |C|² > `NearEndPresence.overResidual`·(R + N)
///   (`NearEndPresence`'s test without its smoothing); such bins are never released, and a frame
///   where they hold more than `heardShare` of C's power is not released at all;
/// - the frame is released when Σ|C|² ≤ `frameMargin`·Σ(R + N): the model explains the frame;
/// - and only in a run of such frames that begins within `afterClearSeconds` of a frame with
///   Σ|C|² ≥ `clearTalker`·Σ(R + N), a talker the model cannot be mistaken for, stopping: a word's
///   end. A quiet near talker (10–16 dB under the echo) sits close to R in most of their frames,
///   where "explained" cannot tell their speech from their pauses (tried without: the quiet
///   talkers lost some of their level); a recorded voice has quiet stretches of its own.
/// In a released frame every bin not heard now gets at most the echo-alone gain computed from this
/// frame's |C|²: max(1 − β·R/|C|², √(bed/|C|²), `suppress=`'s floor), where the noise bed is the
/// least of N and the background of the preprocessor's noise estimate when it runs inside the
/// suppressor (N follows the residual echo up while the far end talks on; that estimate does not).
/// Everything is allocated in `init`; `update` allocates nothing.
package final class NearEndRelease {
    /// A released frame's C within this many times its predicted residual and noise (3 dB, over
    /// all bins): summed over a frame's bins the scatter of one bin's residual is gone, so most
    /// frames of residual alone are within it and little of a near end's power is.
    package static let frameMargin: Float = 2
    /// A stretch of near-end mode is released only after a frame this far above its predicted
    /// residual and noise (20 dB): a near talker at the echo's level reaches it, a quiet one (10–16
    /// dB under the echo) seldom does (at 10 dB the quiet talkers lost some of their level).
    package static let clearTalker: Float = 100
    /// ... and only in a run of such frames that starts within this long (s) of such a frame: the
    /// 40 ms after a word. A run that starts later, in a pause or in the talker's own quiet
    /// stretches, stays in near-end mode: released too (the run started at any time after a clear
    /// frame of the stretch), the espeak-ng rooms gained more ERLE, but on the recorded voice
    /// (`16000r`) AECMOS's double-talk "other" rating fell in most scenes, the near end's level
    /// unchanged.
    package static let afterClearSeconds = 0.04
    /// A frame whose bins with the near end heard now hold more than this share of C's power is
    /// not released (`NearEndPresence.frameShare`'s half: a word's onset shows in a few bins first).
    package static let heardShare: Float = 0.1

    package let bins: Int
    private let size: Int
    private let buffers = FloatBuffers()
    /// Per bin: this frame's |C|², and whether the near end is heard in it now (1) or not (0).
    private let cPower, heard: UnsafeMutablePointer<Float>
    /// Frames since the last clear talker's frame in this stretch of near-end mode (at most
    /// `afterClearFrames` + 1), and whether the frames since one have all been released.
    private var sinceClear = 0, releasing = false
    private let afterClearFrames: Int
    /// Frames released, and bins released over them (for diagnosis).
    package private(set) var framesReleased = 0, binsReleased = 0

    /// Whether the suppressor's model has settled: R is trusted after (`ModelSettling`).
    private var settling: ModelSettling

    /// For the suppressor's transform of `size` points (`size`/2 + 1 bins), in frames of `frameSeconds`.
    package init(size: Int, frameSeconds: Double) {
        self.size = size
        settling = ModelSettling(frameSeconds: frameSeconds)
        afterClearFrames = max(1, Int((Self.afterClearSeconds / frameSeconds).rounded()))
        sinceClear = afterClearFrames + 1
        bins = size / 2 + 1
        cPower = buffers.make(bins); heard = buffers.make(bins)
    }

    /// One frame, after the suppressor's gains. `nearActive`: the frame is in near-end mode;
    /// `pathChanged`: an echo-path change is under way; `echoOnly`: the suppressor's model adapts on
    /// this frame. `re`, `im`: the suppressor's transform of C + j·Ŷ (`size` points); `residual`,
    /// `noise`: R and N per bin; `gain`: the suppressor's gains (lowered in released bins);
    /// `present`: `NearEndPresence.present` when its bins pass C this frame (cleared in released
    /// bins); `beta`, `floor`: the echo-alone over-subtraction and least gain; `background`: a
    /// noise estimate that does not follow the residual echo, if any.
    package func update(nearActive: Bool, pathChanged: Bool, echoOnly: Bool, re: UnsafePointer<Float>, im: UnsafePointer<Float>,
                        residual: UnsafePointer<Float>, noise: UnsafePointer<Float>, gain: UnsafeMutablePointer<Float>,
                        present: UnsafeMutablePointer<Float>?, beta: Float, floor: Float, background: UnsafePointer<Float>?) {
        let settled = settling.update(echoOnly: echoOnly, pathChanged: pathChanged)
        guard nearActive, !pathChanged, settled else { sinceClear = afterClearFrames + 1; releasing = false; return }
        var cSum: Float = 0, modelSum: Float = 0, heardSum: Float = 0
        for k in 0..<bins {
            // C and Ŷ split from the transform of C + j·Ŷ, D = C + Ŷ.
            let (cr, ci, yr, yi) = TwoRealSpectra.split(re: re, im: im, size: size, bin: k)
            let c2 = cr * cr + ci * ci, y2 = yr * yr + yi * yi
            let d2 = (cr + yr) * (cr + yr) + (ci + yi) * (ci + yi)
            cPower[k] = c2
            let on = d2 > NearEndPresence.micOverEcho * (y2 + NearEndPresence.backgroundOverFloor * noise[k])
                && c2 > NearEndPresence.overResidual * (residual[k] + noise[k])
            heard[k] = on ? 1 : 0
            if on { heardSum += c2 }
            cSum += c2
            modelSum += residual[k] + noise[k]
        }
        // A run of explained frames that starts within `afterClearSeconds` of a clear talker's frame.
        sinceClear = cSum >= Self.clearTalker * modelSum ? 0 : min(sinceClear + 1, afterClearFrames + 1)
        let explained = cSum <= Self.frameMargin * modelSum && heardSum <= Self.heardShare * cSum
        releasing = explained && (releasing || sinceClear <= afterClearFrames)
        guard releasing else { return }
        var released = 0
        for k in 0..<bins where heard[k] == 0 {
            let c = max(cPower[k], 1e-20)
            let bed = min(noise[k], background?[k] ?? noise[k])
            let g = max(max(1 - beta * residual[k] / c, min(1, (bed / c).squareRoot())), floor)
            if g < gain[k] { gain[k] = g }
            present?[k] = 0
            released += 1
        }
        framesReleased += 1
        binsReleased += released
    }
}
