/// `ResidualEchoSuppressor`'s constants, each with its reason (the figures behind them are in
/// bench/README.md, "Figures behind aec's constants").
extension ResidualEchoSuppressor {
    /// Over-subtraction in frames where only the far end talks, and in frames where the near end
    /// may be present (`betaNear`; bins where it is present get at most 1).
    package static let beta: Float = 8
    /// Smoothing (per frame) of the spectra for coherence and adaptation, and of |E|² for the gain.
    package static let statsSmoothing: Float = 0.85, gainPowerSmoothing: Float = 0.4
    /// The Ŷ-weighted coherence between D and Ŷ above which a frame counts as echo only,
    /// and the per-bin coherence below which the near end may be present.
    package static let echoCoherence: Float = 0.93, nearCoherence: Float = 0.5
    /// NLMS step, and the largest weight.
    package static let step: Float = 0.1, maxWeight: Float = 8
    /// The spread of S, and the tail's decay time constant.
    package static let spreadHz = 500.0, tailSeconds = 0.15
    /// Over-subtraction in frames where the near end may be present: gentle, so that a near
    /// talker is not ducked with the residual.
    package static let betaNear: Float = 0.3
    /// How far (power ratio) the microphone may be above Ŷ (smoothed) in a frame of echo only.
    package static let micOverEcho: Float = 2
    /// The gain's smoothing over time (per frame).
    package static let gainSmoothing: Float = 0.3
    /// The background's incoherence: a frame counts as echo alone for the gain while its
    /// incoherence is at most `backgroundMargin` times the running median (and at most
    /// `mostIncoherence`: a coherence of 0.88); the median moves by `backgroundRate` per second
    /// (a near talker the double-talk detector misses moves it by 0.0125 a second). In babble
    /// the microphone is less coherent with the echo in most frames of echo alone, while a near
    /// talker at the echo's level starts well above that median; the cap trades babble's ERLE
    /// against a quiet near talker's level (figures in bench/README.md, "Figures behind aec's
    /// constants").
    package static let backgroundMargin: Float = 2, mostIncoherence: Float = 0.12, backgroundRate: Float = 0.0125
    /// A frame whose predicted residual is at least `explainedShare` of the echo estimate's
    /// power (−10 dB: a linear filter that explains the echo to 10 dB or less, as with a
    /// saturating loudspeaker; in a linear room it explains 20–60 dB) and, with the noise
    /// floor, at least 1/`explainedMargin` of C's power (3 dB) counts as echo alone for the
    /// gain however incoherent (not for the model's adaptation, which would then learn from its
    /// own verdict). On bench/aec's small loudspeaker (`sat-speaker-*`): 17.5–18.9 to
    /// 19.5–20.6 dB of echo-only ERLE, the near end and the other scenes as they were
    /// (figures in bench/README.md, "Figures behind aec's constants").
    package static let explainedShare: Float = 0.1, explainedMargin: Float = 2
    /// ... and only once no near end has been detected for this long (s): within a double
    /// talk's pauses and just after it, a near talker the detector misses for a frame must not
    /// be taken for residual (without it the near end lost up to 0.1 dB and AECMOS's double-talk
    /// "other" rating up to 0.1 in 11 of bench/aec's scenes; 0.5 s still lost some).
    package static let explainedHoldSeconds = 1.0
    /// The noise floor's window (s), and what its minimum is multiplied by: the least smoothed
    /// power over 2 s, itself, keeps more of the echo out than twice the least over 1 s, at the
    /// same near end.
    package static let noiseSeconds = 2.0, minimumBias: Float = 1
    /// The far end counts as heard when the echo estimate's power is this many times the noise
    /// floor's (10 dB): below that, the frame's coherence is the noise's, not the echo's.
    package static let farOverNoise: Float = 10
    /// A bin's error power this many times its predicted residual (6 dB), where the near end
    /// may be present by coherence, is taken as the near end's: its gain goes no lower than
    /// `activeGain` and its over-subtraction no higher than 1.
    package static let nearOverResidual: Float = 4
    /// The first weight of Ŷ's power, until the model has adapted: a residual 20 dB under the
    /// echo estimate.
    package static let initialWeight: Float = 0.01
}
