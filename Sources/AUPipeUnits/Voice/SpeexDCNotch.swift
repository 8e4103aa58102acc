/// speexdsp's DC notch on the microphone, as its echo canceller applies it before cancelling
/// (mdf.c, `filter_dc_notch16`, float build): N_r(z) = r (1 − 2z⁻¹ + z⁻²) / (1 − 2r z⁻¹ + d z⁻²),
/// d = r² + 0.7 (1 − r)², with speex's radius for the rate (0.9 under 12 kHz, 0.982 under
/// 24 kHz; from 24 kHz on, where `DCNotchCorrection` moves speex's 0.992 back, the radius that
/// correction leaves, `DCNotchCorrection.targetRadius`).
///
/// The canceller's output C has been through it and the microphone D as `aec` holds it has not,
/// so D − C is the filter's echo estimate plus what the notch took out: the microphone's own
/// content below about 50 Hz (the room's rumble, a near talker's lowest partials, pink noise's
/// bottom octave), which follows the microphone, not the far end. The residual echo suppressor
/// puts D through this notch first, so that its Ŷ = D − C is the filter's estimate alone.
package struct SpeexDCNotch {
    private let radius: Float, den2: Float
    /// The filter's state (speex's `mem`), per the transposed form speex uses.
    private var mem0: Float = 0, mem1: Float = 0

    /// speex's radius at `rate` Hz, or the one `DCNotchCorrection` leaves from 24 kHz on.
    package static func radius(rate: Int) -> Double {
        if rate < 12000 { return 0.9 }
        if rate < DCNotchCorrection.fromRate { return DCNotchCorrection.speexRadius16k }
        return DCNotchCorrection.targetRadius(rate: rate)
    }

    package init(rate: Int) {
        let r = Float(Self.radius(rate: rate))
        radius = r
        den2 = r * r + 0.7 * (1 - r) * (1 - r)
    }

    /// One sample (full scale 1) through the notch.
    package mutating func callAsFunction(_ x: Float) -> Float {
        let vout = mem0 + x
        mem0 = mem1 + 2 * (-x + radius * vout)
        mem1 = x - den2 * vout
        return radius * vout
    }
}
