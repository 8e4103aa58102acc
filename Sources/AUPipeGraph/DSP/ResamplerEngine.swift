import AUPipeFormats

/// A sample-rate converter library behind `resample`: speexdsp (`SpeexResamplerEngine`) and
/// libsoxr (`SoxrResamplerEngine`), each one file conforming to this protocol and one case of
/// `ResamplerEngineKind`.
///
/// An engine converts interleaved 32-bit float frames and nothing else. What `resample`
/// promises on top (exactly round(N × out / in) frames, zero delay, the tail flushed at the
/// end) is `Resampler`'s bookkeeping, the same for every engine; an engine supplies the
/// primitives it needs: its latency, a way to skip it at the start, and a ratio it can change
/// while running.
public protocol ResamplerEngine: AnyObject {
    /// The library's name for messages (`speexdsp`).
    var name: String { get }

    /// Input frames the filter holds back before its first output (half the filter's length,
    /// in input frames: 0 to a few thousand), at the ratio in use. `Resampler` compensates it:
    /// `skipLatency()` at the start, zeros fed through at the end.
    var inputLatency: Int { get }

    /// Aligns the output with the input: input frame k then lands at output time k × ratio
    /// instead of `inputLatency` input frames later (speexdsp's `skip_zeros`). Called once,
    /// before the first `process`.
    func skipLatency()

    /// Converts `frames` interleaved input frames (1...2^31), writing at most `capacity` frames
    /// to `output`; returns the frames consumed and produced. Given room (`capacity` at least
    /// frames × ratio + 4), it consumes all of its input.
    func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>,
                 capacity: Int) throws -> (consumed: Int, produced: Int)

    /// The ratio in use, output frames per input frame, exactly as the library applies it.
    var ratio: ResampleRatio { get }

    /// Changes the ratio while running (clock-drift tracking) to the fraction nearest
    /// `outputPerInput` (output frames per input frame, > 0) among those the library moves
    /// between, and returns that fraction (`Resampler` alternates between neighbours to
    /// average finer ratios). The change is smooth: the filter keeps its phase, so no click,
    /// and no frame is lost or invented beyond what the ratio implies: from the next output
    /// frame on, each input frame gives `ratio` output frames on average.
    @discardableResult
    func setRatio(_ outputPerInput: Double) throws -> ResampleRatio

    /// The fraction `setRatio(outputPerInput)` would apply, without applying it.
    func representable(_ outputPerInput: Double) -> ResampleRatio
}

extension ResamplerEngine {
    /// The ratio `setRatio(outputPerInput)` moves to, or nil when it is the current one (nothing
    /// to do). Throws for a ratio that is not a positive finite number.
    package func nextRatio(_ outputPerInput: Double) throws -> ResampleRatio? {
        guard outputPerInput.isFinite, outputPerInput > 0 else {
            throw AUPipeError(.software, "resampling ratio \(outputPerInput) is not a positive number")
        }
        let next = representable(outputPerInput)
        return next == ratio ? nil : next
    }
}

/// A ratio of sample rates as an exact fraction: `output` frames for every `input` frames
/// (both ≥ 1; 16000 Hz from 48000 Hz is 1/3).
public struct ResampleRatio: Hashable, Sendable, CustomStringConvertible {
    public let output: Int64
    public let input: Int64

    /// The fraction in lowest terms.
    public init(output: Int64, input: Int64) {
        precondition(output > 0 && input > 0, "a ratio of rates is positive")
        var a = output, b = input
        while b != 0 { (a, b) = (b, a % b) }
        self.output = output / a
        self.input = input / a
    }

    /// Output frames per input frame as a number.
    public var value: Double { Double(output) / Double(input) }

    public var description: String { "\(output)/\(input)" }
}

/// The sample-rate converter libraries aupipe can use; `make` builds one.
public enum ResamplerEngineKind: String, Sendable, CaseIterable {
    /// libsoxr; quality 0...4 are its recipes quick, low, medium, high, very-high (`SoxrRecipe`).
    case soxr
    /// speexdsp's polyphase resampler; quality 0 (fastest) ... 10 (best).
    case speex

    /// The qualities this engine takes.
    public var qualities: ClosedRange<Int> {
        switch self {
        case .soxr: 0...(SoxrRecipe.allCases.count - 1)
        case .speex: 0...10
        }
    }

    /// The engine's quality when none is given: soxr's high, speex's own default 4.
    public var defaultQuality: Int {
        switch self {
        case .soxr: SoxrRecipe.high.index
        case .speex: 4
        }
    }

    /// How `resample quality=` writes `quality` for this engine: `4` (speex), `high` (soxr).
    public func qualityName(_ quality: Int) -> String {
        switch self {
        case .soxr: SoxrRecipe.allCases.indices.contains(quality) ? SoxrRecipe.allCases[quality].rawValue : String(quality)
        case .speex: String(quality)
        }
    }

    /// The qualities as `resample quality=` takes them, for messages: `0...10`,
    /// `quick, low, medium, high, very-high`.
    public var qualityWords: String {
        switch self {
        case .soxr: SoxrRecipe.allCases.map(\.rawValue).joined(separator: ", ")
        case .speex: "an integer 0...10"
        }
    }

    /// A new engine for `channels` interleaved channels (1...64) from `inputRate` to
    /// `outputRate` Hz (1...768000, a ratio up to 1024 either way) at `quality`. `ratios` is
    /// every ratio (output frames per input frame) `setRatio` will be asked for, so the engine
    /// can allocate for them now; nominal...nominal for a fixed ratio.
    public func make(channels: Int, inputRate: Int, outputRate: Int, quality: Int,
                     ratios: ClosedRange<Double>? = nil) throws -> any ResamplerEngine {
        switch self {
        case .soxr:
            try SoxrResamplerEngine(channels: channels, inputRate: inputRate, outputRate: outputRate,
                                    recipe: SoxrRecipe.allCases[quality], ratios: ratios)
        case .speex:
            try SpeexResamplerEngine(channels: channels, inputRate: inputRate, outputRate: outputRate, quality: quality, ratios: ratios)
        }
    }
}

/// Which engine converts sample rates, and at what quality.
public struct ResamplerSettings: Hashable, Sendable {
    public var engine: ResamplerEngineKind
    /// The engine's quality (speex: 0...10; soxr: 0...4, `SoxrRecipe.index`).
    public var quality: Int

    public init(engine: ResamplerEngineKind, quality: Int) {
        precondition(engine.qualities.contains(quality), "\(engine) takes qualities \(engine.qualities)")
        self.engine = engine
        self.quality = quality
    }

    /// libsoxr with `recipe`.
    public static func soxr(_ recipe: SoxrRecipe) -> Self { Self(engine: .soxr, quality: recipe.index) }

    /// The quality as `resample quality=` writes it for the engine (`4`, `high`).
    public var qualityName: String { engine.qualityName(quality) }

    /// What converts a rate that the user did not ask to resample (`--out-format`'s rate, a
    /// `mix` bus, `aec`'s reference), as `resample` without `engine=` and `quality=`: libsoxr's
    /// high recipe. bench/run job 7 chose it: it rejects a 48k->16k alias by 147-150 dB (speex
    /// quality 4, the default before: 88 dB) in 0.40-0.44x sox's default time, where the target
    /// is >= 140 dB at <= 0.5x.
    public static let `default` = ResamplerSettings.soxr(.high)

    /// What converts a rate nobody asked to tune in a real-time run (`--live`, `--capture`):
    /// speexdsp at quality 5, whose filter looks ahead 40 frames at the lower of the two rates
    /// (soxr's recipes hold back far more input before their first output). Chosen by
    /// measurement among speexdsp's qualities and soxr's recipes: the best alias rejection whose
    /// look-ahead keeps the first output of a 10 ms block within 15 ms (bench/run's latency rows,
    /// figures in bench/README.md).
    public static let lowLatency = ResamplerSettings(engine: .speex, quality: 5)

    /// The default for a run under `policy`: `lowLatency` in real time, else `default`.
    public static func runDefault(_ policy: RealTimePolicy) -> ResamplerSettings {
        policy.runIsRealTime ? .lowLatency : .default
    }
}
