import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic test signal for `aupipe gen`: the same parameters give the same samples.
public protocol SignalGenerator: AnyObject {
    /// Writes `frames` interleaved frames of `channels` channels, starting at stream frame `start`.
    /// Calls come in order, without gaps, from frame 0.
    func render(into output: UnsafeMutablePointer<Float>, frames: Int, start: Int64, channels: Int)
}

/// What `aupipe help gen` lists for a signal, and how to build it.
public struct SignalDescriptor: Sendable {
    public let name: String
    public let summary: String
    /// The signal's own parameters; `duration` is added to every signal.
    public let parameters: [ParameterDescriptor]
    /// The same, as declared: the signal's typed keys.
    public let declarations: [any AnyParameter]
    public let primary: String?
    /// Builds the generator from parsed values, the sample rate and the total length in frames.
    package let make: @Sendable (ParameterValues, _ rate: Int, _ frames: Int64) throws -> any SignalGenerator
    /// The length in frames at a rate when `duration` is not given (DTMF: from its digits).
    package let naturalFrames: @Sendable (ParameterValues, _ rate: Int) -> Int

    /// The length of every signal, 0...24 h (a bare number in seconds); without it, `naturalFrames`.
    public static let duration = OptionalParameter("duration", .duration(0...86_400, bareUnit: .seconds),
                                                   help: "length: seconds, ms, or frames like 480f (default 1s; DTMF: its digits)")

    /// - Parameters:
    ///   - parameters: the signal's typed keys, without `duration`.
    ///   - make: builds the generator from the parsed values (read with the typed keys), the rate
    ///     and the length in frames.
    ///   - naturalFrames: the length in frames at a rate when `duration` is not given.
    package init(name: String, summary: String, parameters: [any AnyParameter], primary: String?,
         make: @escaping @Sendable (ParameterValues, _ rate: Int, _ frames: Int64) throws -> any SignalGenerator,
         naturalFrames: @escaping @Sendable (ParameterValues, _ rate: Int) -> Int) {
        self.name = name
        self.summary = summary
        declarations = parameters
        self.parameters = parameters.map(\.descriptor)
        self.primary = primary
        self.make = make
        self.naturalFrames = naturalFrames
    }

    /// Every parameter, `duration` last.
    public var allParameters: [ParameterDescriptor] { parameters + [Self.duration.descriptor] }

    public func parseArguments(_ arguments: [String]) throws -> ParameterValues {
        try ParameterDescriptor.parse(arguments, parameters: allParameters, primary: primary, owner: "gen \(name)")
    }
}

/// Every signal `aupipe gen` makes.
public enum SignalRegistry {
    public static let all: [SignalDescriptor] = [
        SineSignal.descriptor, TonesSignal.descriptor, SweepSignal.descriptor, NoiseSignal.descriptor,
        ImpulseSignal.descriptor, SilenceSignal.descriptor, DTMFSignal.descriptor,
    ]

    public static func descriptor(named name: String) throws -> SignalDescriptor {
        if let d = all.first(where: { $0.name == name.lowercased() }) { return d }
        let names = all.map(\.name)
        let hint = suggestion(for: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw AUPipeError.usage("gen: unknown signal '\(name)'\(hint) (signals: \(names.joined(separator: ", ")); see 'aupipe help gen')")
    }
}

/// Linear amplitude for a level in dBFS (0 dBFS = 1.0, full scale).
package func linearGain(dBFS: Double) -> Double { Decibels.amplitude(dBFS) }

/// Checks that a frequency is below Nyquist at `rate`.
package func checkFrequency(_ f: Double, rate: Int, owner: String, name: String) throws {
    guard f <= Double(rate) / 2 else {
        throw AUPipeError.usage("\(owner): \(name)=\(formatNumber(f)) Hz is above half the sample rate (\(rate / 2) Hz at \(rate) Hz); lower it or raise the rate with --out-format")
    }
}

/// The common level parameter: peak (sines) or RMS (noise) in dBFS, −200...20.
package func levelParameter(default value: Double, help: String) -> Parameter<Double> {
    Parameter("level", .number(-200...20, unit: "dBFS"), default: value, help: help)
}

/// A frequency in Hz, 0...384000 (half the highest rate; `1k` allowed).
package func frequencyParameter(_ name: String, default value: Double, help: String) -> Parameter<Double> {
    Parameter(name, .number(0...384_000, unit: "Hz"), default: value, help: help)
}

/// sin(2π·(cycles + phase)) with the whole cycles dropped first, so that the argument stays
/// small and the result exact for any stream position.
@inline(__always)
package func sineOfCycles(_ cycles: Double, phase: Double) -> Double {
    let c = cycles - cycles.rounded(.down)
    return sin(2 * .pi * (c + phase))
}
