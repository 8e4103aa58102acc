/// The residual echo suppressor's frames of a distorting loudspeaker (issue 26): while the
/// nonlinear canceller models the loudspeaker's distortion (`NonlinearEchoCanceller.modelling`:
/// running, and half or more of its estimate is echo over the last ten seconds), the
/// microphone's incoherence with Ŷ and a small predicted residual are read as the distortion's.
/// What it changes, only while `modelled`:
/// - a frame the model explains (C's power within the suppressor's `explainedMargin` of its
///   predicted residual and the noise, no near end for `explainedHoldSeconds`) is echo alone
///   however small that residual is beside Ŷ (`explainedShare`: a small loudspeaker's predicted
///   residual can sit just under the share the test asks of an unknown loudspeaker; figures in
///   bench/README.md);
/// - in frames of echo alone with no near end heard for `explainedHoldSeconds` (`deep`), no bin
///   is kept as near end by its coherence with Ŷ (the gain's `nearCoherence`): a distorted echo
///   is incoherent with Ŷ in every bin, and there those bins kept most of it.
/// While also `bold` (`DistortionSign` says the loudspeaker distorts: its loud frames leave a
/// large share of the echo to the linear canceller over seconds of far end alone), a frame may
/// be explained after a fifth of the hold (`boldHoldDivisor`); `nearHeardRecently`, `deep` and
/// the nonlinear canceller keep the whole second.
/// The near end's own tests (`aec`'s double-talk detector, the level test, `NearEndPresence`)
/// are left as they are: the canceller's gate also opens on linear loudspeakers (the recorded
/// voice, 48 kHz, bench/aec's long rooms), and there they keep quiet talkers.
/// The figures are in bench/README.md, "The distorting loudspeaker's frames (issue 26, aecspk)".
package struct DistortedEcho {
    /// Whether the nonlinear canceller models a distortion in this frame (set before `run`).
    package var modelled = false
    /// Whether the loudspeaker distorts by `DistortionSign` (set before `run`).
    package var distorts = false
    /// Modelled and a distorting loudspeaker by the sign: the shorter hold below. The sign is
    /// off on linear loudspeakers (rooms, babble, noise, drift, path changes, the recorded voice,
    /// 48 kHz), where the canceller's gate alone also opens.
    package var bold: Bool { modelled && distorts }
    /// The frames without a near end before a frame may be explained, while `bold`: a fifth of the
    /// suppressor's `explainedHoldSeconds` (the frames after a near word or a pause that the
    /// distortion's incoherence kept from the echo-alone gain for a second).
    package static let boldHoldDivisor = 5

    /// The frames without a near end a frame must follow to be explained (`usual`: the suppressor's).
    package func hold(_ usual: Int) -> Int { bold ? max(1, usual / Self.boldHoldDivisor) : usual }
    /// The share of Ŷ's power the predicted residual must reach for a frame to be explained.
    package func explainedShare(_ usual: Float) -> Float { modelled ? 0 : usual }
    /// A frame of distorted echo alone: modelled, the far end heard (`farHeard`: the suppressor's
    /// test), not `nearActive`, no near end heard lately.
    package func deep(farHeard: Bool, nearActive: Bool, nearHeard: Bool) -> Bool { modelled && farHeard && !nearActive && !nearHeard }
}
