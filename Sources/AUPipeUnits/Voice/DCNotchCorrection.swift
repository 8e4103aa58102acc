/// Moves speex's DC notch back to where it is at 16 kHz, in Hz, at the rates where speex puts it
/// higher.
///
/// speexdsp's echo canceller first takes DC out of the microphone with a second-order notch
/// (mdf.c, `filter_dc_notch16`): N_r(z) = r (1 − 2z⁻¹ + z⁻²) / (1 − 2r z⁻¹ + d z⁻²), with
/// d = r² + 0.7 (1 − r)². Its radius r is 0.982 from 12 to 24 kHz, a corner (−3 dB) near 46 Hz
/// at 16 kHz, but 0.992 from 24 kHz on: 61 Hz at 48 kHz, where the notch takes 2.1 dB off
/// 100 Hz and 0.7 dB off 150 Hz, a low voice's fundamental, which the near end loses in every
/// output of `aec` (bench/README.md, "the near end at 48 kHz"). From 24 kHz on the microphone
/// goes first through N_t / N_s — speex's denominator over the same notch's at the radius that
/// puts its corner where 0.982 puts it at 16 kHz (`targetRadius`) — so that what speex's notch
/// leaves is N_t: the same response in Hz as at 16 kHz. The two numerators' zeros at DC cancel,
/// so the correction is a stable biquad (poles at the target radius) with a gain of 1 at high
/// frequencies and 1.8 (5 dB) at DC, where N_s and N_t have both taken everything.
/// Below 24 kHz there is nothing to correct (`init` returns nil) and the samples go to speex
/// as they are.
package struct DCNotchCorrection {
    /// speex's radius from 24 kHz on, and its radius at 16 kHz and that rate (mdf.c).
    static let speexRadius = 0.992, speexRadius16k = 0.982, speexRate16k = 16000.0
    /// The rate from which speex uses `speexRadius` (mdf.c: `sampling_rate < 24000` gets 0.982).
    static let fromRate = 24000

    /// The radius whose notch has its corner at `rate` where speex's 0.982 has it at 16 kHz: the
    /// corner is about (1 − r) · rate / 2π Hz, so 1 − r scales as 1 / rate.
    static func targetRadius(rate: Int) -> Double { 1 - (1 - speexRadius16k) * speexRate16k / Double(rate) }

    /// The notch's second denominator coefficient d(r) (mdf.c's `den2`).
    static func den2(_ r: Double) -> Double { r * r + 0.7 * (1 - r) * (1 - r) }

    private let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    private let channels: Int
    /// The biquad's state (transposed direct form II), two values per channel.
    private var state: [Double]

    /// For `channels` interleaved microphones at `rate` Hz; nil below `fromRate`.
    package init?(rate: Int, channels: Int) {
        guard rate >= Self.fromRate else { return nil }
        let rs = Self.speexRadius, rt = Self.targetRadius(rate: rate)
        let g = rt / rs
        (b0, b1, b2) = (g, -2 * rs * g, Self.den2(rs) * g)
        (a1, a2) = (-2 * rt, Self.den2(rt))
        self.channels = channels
        state = [Double](repeating: 0, count: 2 * channels)
    }

    /// `frames` interleaved frames of `input` through the correction into `output`, rounded and
    /// clipped to 16 bits.
    package mutating func apply(_ input: UnsafePointer<Int16>, into output: UnsafeMutablePointer<Int16>, frames: Int) {
        for c in 0..<channels {
            var s1 = state[2 * c], s2 = state[2 * c + 1]
            for i in 0..<frames {
                let x = Double(input[i * channels + c])
                let y = b0 * x + s1
                s1 = b1 * x - a1 * y + s2
                s2 = b2 * x - a2 * y
                output[i * channels + c] = Int16(max(-32768, min(32767, y.rounded())))
            }
            state[2 * c] = s1
            state[2 * c + 1] = s2
        }
    }
}
