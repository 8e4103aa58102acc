import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// `noise`: Gaussian white noise, or pink noise (−3 dB per octave), from a seeded generator.
///
/// Uniform numbers come from SplitMix64 (seeded with `seed`), Gaussian ones from the Box–Muller
/// transform; channels are independent (consecutive draws). Pink noise filters the white noise
/// with Paul Kellet's refined filter (within ±0.05 dB of −3 dB/octave from 9 Hz at 44.1 kHz) and
/// is scaled by the filter's exact power gain, so `level` is the RMS level for both colours.
package final class NoiseSignal: SignalGenerator {
    /// The noise's spectrum.
    package enum Color: String, CaseIterable, Sendable {
        /// Flat.
        case white
        /// −3 dB per octave.
        case pink
    }

    package enum Keys {
        package static let color = Parameter("color", .choice(Color.self), default: .white, help: "white (flat) or pink (-3 dB per octave)")
        /// The generator's seed, 0...2^31−1.
        package static let seed = Parameter("seed", .integer(0...Int(Int32.max)), default: 1, help: "the random seed: the same seed gives the same noise")
        /// RMS level in dBFS.
        package static let level = levelParameter(default: -20, help: "RMS level")
    }

    package static let descriptor = SignalDescriptor(
        name: "noise", summary: "white or pink noise from a seed",
        parameters: [Keys.color, Keys.seed, Keys.level],
        primary: Keys.color.name,
        make: { v, _, _ in
            NoiseSignal(pink: v[Keys.color] == .pink, seed: UInt64(v[Keys.seed]), rms: linearGain(dBFS: v[Keys.level]))
        },
        naturalFrames: { _, rate in rate })

    /// Kellet's pole coefficients and input weights for b0...b5; b6 and the direct path follow.
    package static let poles: [Double] = [0.99886, 0.99332, 0.96900, 0.86650, 0.55000, -0.7616]
    package static let weights: [Double] = [0.0555179, 0.0750759, 0.1538520, 0.3104856, 0.5329522, -0.0168980]
    package static let delayedWeight = 0.115926, directWeight = 0.5362

    private var state: UInt64
    private let pink: Bool
    private let scale: Double
    /// Filter state: 7 values per channel, allocated once.
    private var filter: [Double] = []
    private var spare: Double?

    package init(pink: Bool, seed: UInt64, rms: Double) {
        state = seed
        self.pink = pink
        scale = pink ? rms / Self.pinkGain() : rms
    }

    /// The RMS gain of Kellet's filter for unit-variance white noise: the root of the summed
    /// squares of its impulse response (which has decayed below 1e-12 after 30000 samples).
    package static func pinkGain() -> Double {
        var b = [Double](repeating: 0, count: 7)
        var energy = 0.0
        for n in 0..<30_000 {
            let x = n == 0 ? 1.0 : 0.0
            for k in 0..<6 { b[k] = poles[k] * b[k] + weights[k] * x }
            let y = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + x * directWeight
            b[6] = x * delayedWeight
            energy += y * y
        }
        return energy.squareRoot()
    }

    /// SplitMix64: a uniform Double in (0, 1).
    private func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) * 0x1p-53
    }

    /// A standard normal value (Box–Muller, both values of each pair used).
    private func gaussian() -> Double {
        if let s = spare { spare = nil; return s }
        let r = (-2 * log(uniform())).squareRoot(), a = 2 * Double.pi * uniform()
        spare = r * sin(a)
        return r * cos(a)
    }

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        if filter.count != 7 * channels { filter = [Double](repeating: 0, count: 7 * channels) }
        for i in 0..<frames {
            for ch in 0..<channels {
                let x = gaussian()
                var y = x
                if pink {
                    let b = ch * 7
                    for k in 0..<6 { filter[b + k] = Self.poles[k] * filter[b + k] + Self.weights[k] * x }
                    y = filter[b] + filter[b + 1] + filter[b + 2] + filter[b + 3] + filter[b + 4] + filter[b + 5] + filter[b + 6] + x * Self.directWeight
                    filter[b + 6] = x * Self.delayedWeight
                }
                output[i * channels + ch] = Float(y * scale)
            }
        }
    }
}
