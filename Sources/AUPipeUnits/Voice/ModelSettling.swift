/// Whether the residual echo suppressor's model of the residual (R) has adapted on
/// `NearEndPresence.settledSeconds` of echo alone since the call's start or the last echo-path
/// change: the tests that trust R against the canceller's output (`NearEndPresence`,
/// `NearEndRelease`) wait for it, since a model carried over a change predicts the old path's
/// residual and a fresh one predicts little.
///
/// In steady noise that holds D's coherence with Ŷ under the suppressor's `echoCoherence` even
/// where Ŷ is the echo, the model adapts on few frames; there the far end heard alone in such noise
/// for `noisySeconds` (if given) settles it as well.
package struct ModelSettling {
    /// Frames of echo alone since the start or the last change (at most `frames`), and of the far
    /// end alone in noise that caps the coherence (at most `noisyFrames`; 0: not counted).
    private var adapted = 0, noisy = 0
    /// The frames `NearEndPresence.settledSeconds` and `noisySeconds` make.
    private let frames: Int, noisyFrames: Int

    /// For frames of `frameSeconds` (s); `noisySeconds`: the far end alone in noise this long (s)
    /// settles the model too (nil: only its adaptation).
    package init(frameSeconds: Double, noisySeconds: Double? = nil) {
        frames = max(1, Int((NearEndPresence.settledSeconds / frameSeconds).rounded()))
        noisyFrames = noisySeconds.map { max(1, Int(($0 / frameSeconds).rounded())) } ?? 0
    }

    /// One frame: `echoOnly`, the model adapts on it; `noisyAlone`, the far end alone in steady noise
    /// that caps D's coherence with Ŷ (`NearEndPresence.noiseCapsCoherence`, `steadyNoise`); `pathChanged`, an
    /// echo-path change is under way (the counts start again). Returns whether the model had
    /// settled before this frame.
    package mutating func update(echoOnly: Bool, noisyAlone: Bool = false, pathChanged: Bool) -> Bool {
        let settled = adapted >= frames || noisyFrames > 0 && noisy >= noisyFrames
        adapted = pathChanged ? 0 : min(adapted + (echoOnly ? 1 : 0), frames)
        noisy = pathChanged ? 0 : min(noisy + (noisyAlone ? 1 : 0), noisyFrames)
        return settled
    }
}
