import AUPipeFormats

/// `impulse`: one sample at `level` at frame `at` (and every `every` after it), zeros elsewhere.
package final class ImpulseSignal: SignalGenerator {
    package enum Keys {
        /// Where the (first) impulse is, 0...24 h (a bare number in seconds).
        package static let at = Parameter("at", .duration(0...86_400, bareUnit: .seconds), default: .frames(0), help: "position of the (first) impulse: seconds, ms or frames")
        /// The period of a train, 0...24 h, at least one frame; one impulse unless given.
        package static let every = OptionalParameter("every", .duration(0...86_400, bareUnit: .seconds), help: "period of an impulse train (default: one impulse)")
        /// Height in dBFS.
        package static let level = levelParameter(default: 0, help: "height (0 dBFS = 1.0; integer formats clip it to their largest value, 32767 in s16, counted by --stats)")
    }

    package static let descriptor = SignalDescriptor(
        name: "impulse", summary: "a single-sample click, or a train of them",
        parameters: [Keys.at, Keys.every, Keys.level],
        primary: Keys.at.name,
        make: { v, rate, _ in
            let every = v[Keys.every].map { $0.frames(atRate: rate) }
            if let every, every < 1 { throw AUPipeError.usage("gen impulse: every= must be at least one frame") }
            return ImpulseSignal(at: Int64(v[Keys.at].frames(atRate: rate)), every: every.map(Int64.init), height: Float(linearGain(dBFS: v[Keys.level])))
        },
        naturalFrames: { _, rate in rate })

    private let at: Int64, every: Int64?, height: Float

    package init(at: Int64, every: Int64?, height: Float) {
        self.at = at
        self.every = every
        self.height = height
    }

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        output.update(repeating: 0, count: frames * channels)
        for i in 0..<frames {
            let n = start + Int64(i)
            let hit = n == at || (every.map { n > at && (n - at) % $0 == 0 } ?? false)
            if hit { for ch in 0..<channels { output[i * channels + ch] = height } }
        }
    }
}

/// `silence`: zeros.
package final class SilenceSignal: SignalGenerator {
    package static let descriptor = SignalDescriptor(
        name: "silence", summary: "digital silence", parameters: [], primary: nil,
        make: { _, _, _ in SilenceSignal() }, naturalFrames: { _, rate in rate })

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        output.update(repeating: 0, count: frames * channels)
    }
}
