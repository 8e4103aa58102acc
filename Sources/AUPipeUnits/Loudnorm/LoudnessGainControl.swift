import AUPipeFormats
import AUPipeGraph

/// The slowly moving gain of `loudnorm`: every control period (100 ms of stream time) it reads
/// the input's loudness and moves the gain, in dB, a limited step towards where it should be.
///
/// Two parts, in dB: the integrated correction `target − I` (I: the input's gated integrated
/// loudness so far, BS.1770-4) while the current loudness C = max(short-term, momentary) stays
/// within `range`/2 LU of I: dynamics are kept. Beyond that the gain brings C back to
/// `target ± range/2`, so quiet passages are lifted (and loud ones lowered) only partly: the
/// output keeps a loudness range of up to `range` LU. Taking the louder of short-term (3 s) and
/// momentary (400 ms) loudness lets the gain come down as soon as loud music starts, and lifts
/// quiet passages only as fast as the 3 s loudness falls. The short-term loudness is used once
/// 3 s have passed; before that the integrated correction alone.
///
/// Silence does not pump the gain: while C is below the absolute gate (−70 LUFS) or more than
/// 20 LU below I (the loudness range's relative gate), the gain holds. In the first 400 ms,
/// before the input has a gated loudness, the gain aims at the loudness of what has come so far
/// (the momentary loudness, whose 400 ms window is still partly empty, raised by
/// 10·log10(0.4 s / elapsed)); before 100 ms, or while all is silence, it holds 0 dB. It moves
/// fast (`initialRate`) until it first reaches its aim, and at `rate` after that.
package struct LoudnessGainControl {
    /// Stream time between updates, seconds.
    package static let period = 0.1
    /// dB per second the integrated correction moves at most, once settled and before.
    package static let rate = 12.0
    package static let initialRate = 60.0
    /// dB per second the range part moves at most, up (lifting) and down.
    package static let liftRate = 3.0
    package static let lowerRate = 10.0
    /// Bounds of the gain, dB.
    package static let maxGain = 30.0
    package static let minGain = -30.0
    /// Below this many LU under the integrated loudness, the stream is taken as a pause.
    package static let pauseGate = 20.0
    package static let absoluteGate = -70.0

    package var target: Double
    package var range: Double
    /// The integrated correction and the range part now, dB.
    private var correction = 0.0, deviation = 0.0
    /// What they move towards; nil until the input has a loudness.
    private var correctionAim: Double?
    private var deviationAim = 0.0
    private var settled = false

    /// The gain now (at the end of the last update), dB.
    package var gain: Double { min(max(correction + deviation, Self.minGain), Self.maxGain) }

    package init(target: Double, range: Double) {
        self.target = target
        self.range = range
    }

    /// One update from the input's loudness: `integrated`, `shortTerm`, `momentary` in LUFS
    /// (−inf when not known), `seconds` of stream so far. Returns the new gain, dB.
    package mutating func update(integrated: Double, shortTerm: Double, momentary: Double, seconds: Double) -> Double {
        if !integrated.isFinite && seconds < 0.4 && momentary.isFinite {
            let level = momentary + 10 * (0.4 / seconds).log10
            if level >= Self.absoluteGate { correctionAim = target - level }
        } else if integrated.isFinite {
            correctionAim = target - integrated
            let current = seconds >= 3 ? max(shortTerm, momentary) : momentary
            let pause = !current.isFinite || current < Self.absoluteGate || current < integrated - Self.pauseGate
            if !pause {
                let half = range / 2
                deviationAim = seconds >= 3 ? integrated - current + min(max(current - integrated, -half), half) : 0
            }
        }
        guard let correctionAim else { return gain }
        let step = (settled ? Self.rate : Self.initialRate) * Self.period
        let before = correction
        correction += min(max(correctionAim - correction, -step), step)
        if !settled && (correction == correctionAim || (before - correctionAim) * (correction - correctionAim) <= 0) { settled = true }
        deviation += min(max(deviationAim - deviation, -Self.lowerRate * Self.period), Self.liftRate * Self.period)
        return gain
    }
}
