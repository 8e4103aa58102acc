/// The residual echo suppressor's frames of a distorting loudspeaker (issue 26): while the
/// nonlinear canceller models the loudspeaker's distortion (`NonlinearEchoCanceller.modelling`:
/// running, and half or more of its estimate is echo over the last ten seconds), the
/// microphone's incoherence with Ŷ and a small predicted residual are the distortion's, not a
/// near talker's. A linear loudspeaker mostly leaves the canceller paused or its share under a
/// half (bench/aec's 16 kHz rooms: open in 0–8 % of frames), and then nothing here changes;
/// where its gate opens in a room (the recorded voice, 48 kHz) what changes is frames the
/// suppressor already took for echo alone, and their gain.
///
/// What it changes, only while `modelled`:
/// - a frame the model explains (C's power within the suppressor's `explainedMargin` of its
///   predicted residual and the noise, no near end for `explainedHoldSeconds`) is echo alone
///   however small that residual is beside Ŷ (`explainedShare`: bench/aec's small loudspeakers
///   read about −11 dB, under the −10 the test asks of an unknown loudspeaker);
/// - `NearEndPresence` stands aside (its per-bin test needs a Ŷ that holds the echo: a
///   distorted echo fills bins of weak Ŷ, which it took for a near talker);
/// - in frames of echo alone with no near end heard for `explainedHoldSeconds` (`deep`): the
///   gain does not stop at the one that keeps C's noise floor (the least of C's power over
///   2 s, which sits on the distortion while the far end talks on: 8–24 dB over the
///   background), and no bin is kept as near end by coherence (a distorted echo is incoherent
///   with Ŷ in every bin). The comfort noise puts the background back.
/// The figures are in bench/README.md, "The distorting loudspeaker's frames (issue 26, aecspk)".
/// `init` allocates its one buffer; nothing else allocates.
package final class DistortedEcho {
    /// Whether the nonlinear canceller models a distortion in this frame (set before `run`).
    package var modelled = false
    /// A noise floor of zero, for the gains of `deep` frames (bins long).
    package let noFloor: UnsafeMutablePointer<Float>

    package init(bins: Int) {
        noFloor = .allocate(capacity: bins)
        noFloor.initialize(repeating: 0, count: bins)
    }

    deinit { noFloor.deallocate() }

    /// The share of Ŷ's power the predicted residual must reach for a frame to be explained.
    package func explainedShare(_ usual: Float) -> Float { modelled ? 0 : usual }
    /// Whether `NearEndPresence` may run (`usual`: the suppressor's own test of a linear loudspeaker).
    package func linear(_ usual: Bool) -> Bool { usual && !modelled }
    /// A frame of distorted echo alone: modelled, not `nearActive`, no near end heard lately.
    package func deep(nearActive: Bool, nearHeard: Bool) -> Bool { modelled && !nearActive && !nearHeard }
}
