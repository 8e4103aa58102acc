import AUPipeFormats

/// `sine`: A·sin(2π·f·n/rate + φ), the same in every channel (made by `TonesSignal`).
package enum SineSignal {
    package enum Keys {
        package static let freq = frequencyParameter("freq", default: 1000, help: "frequency")
        /// Peak level in dBFS.
        package static let level = levelParameter(default: -3, help: "peak level (0 dBFS = full scale)")
        /// Phase at frame 0 in degrees, −360...360.
        package static let phase = Parameter("phase", .number(-360...360, unit: "degrees"), default: 0, help: "phase at frame 0")
    }

    package static let descriptor = SignalDescriptor(
        name: "sine", summary: "a sine wave",
        parameters: [Keys.freq, Keys.level, Keys.phase],
        primary: Keys.freq.name,
        make: { v, rate, _ in
            let f = v[Keys.freq]
            try checkFrequency(f, rate: rate, owner: "gen sine", name: Keys.freq.name)
            return TonesSignal(frequencies: [f], amplitude: linearGain(dBFS: v[Keys.level]), phase: v[Keys.phase] / 360, rate: rate)
        },
        naturalFrames: { _, rate in rate })
}

/// `tones`: a sum of sines, each at `level`; also the engine of `sine`.
package final class TonesSignal: SignalGenerator {
    package enum Keys {
        /// Up to 64 frequencies in Hz, each 0...384000.
        package static let freqs = Parameter("freqs", .numberList(0...384_000, unit: "Hz"), default: [440, 880], help: "the frequencies")
        /// Peak level of each tone in dBFS.
        package static let level = levelParameter(default: -12, help: "peak level of each tone")
    }

    package static let descriptor = SignalDescriptor(
        name: "tones", summary: "several sines added together",
        parameters: [Keys.freqs, Keys.level],
        primary: Keys.freqs.name,
        make: { v, rate, _ in
            let list = v[Keys.freqs]
            for f in list { try checkFrequency(f, rate: rate, owner: "gen tones", name: Keys.freqs.name) }
            return TonesSignal(frequencies: list, amplitude: linearGain(dBFS: v[Keys.level]), phase: 0, rate: rate)
        },
        naturalFrames: { _, rate in rate })

    private let cyclesPerFrame: [Double]
    private let amplitude: Double
    private let phase: Double

    package init(frequencies: [Double], amplitude: Double, phase: Double, rate: Int) {
        cyclesPerFrame = frequencies.map { $0 / Double(rate) }
        self.amplitude = amplitude
        self.phase = phase
    }

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        for i in 0..<frames {
            let n = Double(start + Int64(i))
            var sum = 0.0
            for c in cyclesPerFrame { sum += sineOfCycles(c * n, phase: phase) }
            let v = Float(amplitude * sum)
            for ch in 0..<channels { output[i * channels + ch] = v }
        }
    }
}

/// `dtmf`: telephone keypad digits, each the sum of its row and column tones, separated by gaps.
package final class DTMFSignal: SignalGenerator {
    package static let rows: [Double] = [697, 770, 852, 941]
    package static let columns: [Double] = [1209, 1336, 1477, 1633]
    package static let keys: [Character] = ["1", "2", "3", "A", "4", "5", "6", "B", "7", "8", "9", "C", "*", "0", "#", "D"]

    package enum Keys {
        /// Up to 256 keys of 0-9, *, #, A-D.
        package static let digits = Parameter("digits", .text(allowed: "0123456789*#ABCD", maxLength: 256), default: "123", help: "the keys, in order")
        /// Each digit's tone, 1 ms...10 s (a bare number in ms).
        package static let tone = Parameter("tone", .duration(0.001...10, bareUnit: .milliseconds), default: .milliseconds(100), help: "length of each digit's tone")
        /// Silence after each digit, 0...10 s (a bare number in ms).
        package static let gap = Parameter("gap", .duration(0...10, bareUnit: .milliseconds), default: .milliseconds(100), help: "silence after each digit")
        /// Peak level of each of the two tones in dBFS.
        package static let level = levelParameter(default: -10, help: "peak level of each of the two tones")
    }

    package static let descriptor = SignalDescriptor(
        name: "dtmf", summary: "DTMF digits (0-9, *, #, A-D)",
        parameters: [Keys.digits, Keys.tone, Keys.gap, Keys.level],
        primary: Keys.digits.name,
        make: { v, rate, _ in
            guard rate >= 3300 else { throw AUPipeError.usage("gen dtmf: needs a rate of at least 3300 Hz for its 1633 Hz tone; got \(rate)") }
            return DTMFSignal(digits: v[Keys.digits], tone: v[Keys.tone].frames(atRate: rate),
                              gap: v[Keys.gap].frames(atRate: rate), amplitude: linearGain(dBFS: v[Keys.level]), rate: rate)
        },
        naturalFrames: { v, rate in
            v[Keys.digits].count * (max(1, v[Keys.tone].frames(atRate: rate)) + v[Keys.gap].frames(atRate: rate))
        })

    private let pairs: [(Double, Double)]
    private let toneFrames: Int64, period: Int64
    private let amplitude: Double

    package init(digits: String, tone: Int, gap: Int, amplitude: Double, rate: Int) {
        pairs = digits.map { key in
            let i = Self.keys.firstIndex(of: key)!
            return (Self.rows[i / 4] / Double(rate), Self.columns[i % 4] / Double(rate))
        }
        toneFrames = Int64(max(1, tone))
        period = Int64(max(1, tone)) + Int64(gap)
        self.amplitude = amplitude
    }

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        for i in 0..<frames {
            let n = start + Int64(i)
            let digit = Int(n / period), within = n % period
            var v: Float = 0
            if digit < pairs.count, within < toneFrames {
                let t = Double(within)
                v = Float(amplitude * (sineOfCycles(pairs[digit].0 * t, phase: 0) + sineOfCycles(pairs[digit].1 * t, phase: 0)))
            }
            for ch in 0..<channels { output[i * channels + ch] = v }
        }
    }
}
