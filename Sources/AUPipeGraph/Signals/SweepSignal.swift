import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// `sweep`: a sine whose frequency goes from `from` to `to` over the whole duration, linearly or
/// logarithmically (exponentially in time), with a continuous phase.
///
/// With t = n / rate and T the duration in seconds, the phase in cycles is
/// linear: f0·t + (f1 − f0)·t² / (2T); logarithmic: f0·T / ln(f1/f0) · (e^(t·ln(f1/f0)/T) − 1).
package final class SweepSignal: SignalGenerator {
    /// How the frequency moves in time.
    package enum Mode: String, CaseIterable, Sendable {
        /// Equal time per octave (exponential in time).
        case log
        /// Equal time per Hz.
        case lin
    }

    package enum Keys {
        package static let from = frequencyParameter("from", default: 20, help: "frequency at the start")
        package static let to = frequencyParameter("to", default: 20000, help: "frequency at the end")
        package static let mode = Parameter("mode", .choice(Mode.self), default: .log, help: "log: equal time per octave; lin: equal time per Hz")
        /// Peak level in dBFS.
        package static let level = levelParameter(default: -6, help: "peak level")
    }

    package static let descriptor = SignalDescriptor(
        name: "sweep", summary: "a sine sweeping from one frequency to another",
        parameters: [Keys.from, Keys.to, Keys.mode, Keys.level],
        primary: nil,
        make: { v, rate, frames in
            let f0 = v[Keys.from], f1 = v[Keys.to]
            try checkFrequency(f0, rate: rate, owner: "gen sweep", name: Keys.from.name)
            try checkFrequency(f1, rate: rate, owner: "gen sweep", name: Keys.to.name)
            let log = v[Keys.mode] == .log
            if log, f0 <= 0 || f1 <= 0 { throw AUPipeError.usage("gen sweep: mode=log needs from and to above 0 Hz; use mode=lin to start at 0") }
            return SweepSignal(from: f0, to: f1, log: log, amplitude: linearGain(dBFS: v[Keys.level]), rate: rate, frames: frames)
        },
        naturalFrames: { _, rate in rate })

    private let f0: Double, f1: Double, log: Bool, amplitude: Double, rate: Double, seconds: Double

    package init(from: Double, to: Double, log: Bool, amplitude: Double, rate: Int, frames: Int64) {
        f0 = from
        f1 = to
        self.log = log && from != to
        self.amplitude = amplitude
        self.rate = Double(rate)
        seconds = max(1, Double(frames)) / Double(rate)
    }

    /// Phase in cycles at time `t` seconds.
    package func cycles(at t: Double) -> Double {
        if log {
            let k = Glibc.log(f1 / f0)
            return f0 * seconds / k * (exp(t * k / seconds) - 1)
        }
        return f0 * t + (f1 - f0) * t * t / (2 * seconds)
    }

    package func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int) {
        for i in 0..<frames {
            let v = Float(amplitude * sineOfCycles(cycles(at: Double(start + Int64(i)) / rate), phase: 0))
            for ch in 0..<channels { output[i * channels + ch] = v }
        }
    }
}
