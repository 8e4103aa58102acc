/// Whether the residual echo suppressor's model of the residual (R) has adapted on
/// `NearEndPresence.settledSeconds` of echo alone since the call's start or the last echo-path
/// change: the tests that trust R against the canceller's output (`NearEndPresence`,
/// `NearEndRelease`) wait for it, since a model carried over a change predicts the old path's
/// residual and a fresh one predicts little.
package struct ModelSettling {
    /// Frames of echo alone since the start or the last change (at most `frames`).
    private var adapted = 0
    /// The frames `NearEndPresence.settledSeconds` make.
    private let frames: Int

    /// For frames of `frameSeconds` (s).
    package init(frameSeconds: Double) {
        frames = max(1, Int((NearEndPresence.settledSeconds / frameSeconds).rounded()))
    }

    /// One frame: `echoOnly`, the model adapts on it; `pathChanged`, an echo-path change is under
    /// way (the count starts again). Returns whether the model had settled before this frame.
    package mutating func update(echoOnly: Bool, pathChanged: Bool) -> Bool {
        let settled = adapted >= frames
        adapted = pathChanged ? 0 : min(adapted + (echoOnly ? 1 : 0), frames)
        return settled
    }
}
