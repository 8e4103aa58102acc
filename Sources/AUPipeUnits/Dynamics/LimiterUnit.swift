import AUPipeFormats
import AUPipeGraph

/// `limiter`: a look-ahead brickwall limiter (`LookaheadLimiter`, the one `loudnorm` uses):
/// no sample, or with `true-peak=1` no 4x oversampled peak, leaves above the ceiling.
/// Exact length and zero delay: the look-ahead is trimmed (`LatencyTrim`).
public final class LimiterUnit: AudioUnit, StatsReporting, LiveControllable {
    public static let descriptor = UnitDescriptor(
        name: "limiter",
        summary: "look-ahead brickwall limiter, on sample peaks or 4x oversampled true peaks",
        details: """
            Per frame, the gain the loudest channel needs to stay at or below ceiling= (its sample peak; with true-peak=1 its 4x oversampled peak, the 49-tap design of libebur128's true-peak meter, aiming 0.2 dB below the ceiling for the difference between meters); the smallest over the look-ahead is reached by a ramp over lookahead= before the peak comes out, and the gain returns with the release= time constant (63 % of the way in that time). Channels share one gain. On float output no sample exceeds the ceiling (a last safety clamp, counted in --stats, catches rounding).
            Length is exact and delay is zero: the look-ahead (lookahead, plus 12 frames with true-peak=1) is compensated at the start and flushed at the end.
            ceiling is live; get limiter.reduction reads the gain reduction now (dB); --stats prints the deepest (JSON reductionDB, maxReductionDB, clampedSamples).
            """,
        parameters: [Keys.ceiling, Keys.truePeak, Keys.lookahead, Keys.release],
        primary: Keys.ceiling.name,
        example: "aupipe -i master.wav gain 6 : limiter -1 true-peak=1 -o loud.wav",
        exercise: UnitExercise(["ceiling=-6", "true-peak=1"]),
        manual: manualText,
        frameNeeds: FrameNeeds(latency: true),
        make: { LimiterUnit($0) })

    /// dB below the ceiling a true-peak limiter aims at, for the difference between true-peak
    /// meters (as `loudnorm`).
    package static let truePeakMargin = 0.2

    package private(set) var ceilingDB: Double
    private let truePeak: Bool
    private let lookahead: StreamDuration, release: StreamDuration
    private var limiter: LookaheadLimiter?
    private var trim = LatencyTrim()
    private var channels = 1
    private var zeros: UnsafeMutablePointer<Float>?
    private var discard: UnsafeMutablePointer<Float>?
    /// The ceiling as an amplitude, for the last safety clamp.
    private var clampLevel: Float = 1
    package private(set) var clamped = 0

    package init(_ v: ParameterValues) {
        ceilingDB = v[Keys.ceiling]
        truePeak = v[Keys.truePeak]
        lookahead = v[Keys.lookahead]
        release = v[Keys.release]
    }

    deinit {
        zeros?.deallocate()
        discard?.deallocate()
    }

    /// The linear level the limiter aims at for a ceiling of `dB`.
    private func aim(_ dB: Double) -> Float { Float(Decibels.amplitude(dB - (truePeak ? Self.truePeakMargin : 0))) }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        let rate = context.input.sampleRate
        let limiter = LookaheadLimiter(channels: channels, sampleRate: rate, ceiling: aim(ceilingDB), truePeak: truePeak,
                                       attackSeconds: CompressorUnit.seconds(lookahead, rate: rate),
                                       releaseSeconds: CompressorUnit.seconds(release, rate: rate))
        self.limiter = limiter
        clampLevel = Float(Decibels.amplitude(ceilingDB))
        trim = LatencyTrim(latency: limiter.latency)
        for p in [\LimiterUnit.zeros, \.discard] {
            let b = UnsafeMutablePointer<Float>.allocate(capacity: channels)
            b.initialize(repeating: 0, count: channels)
            self[keyPath: p] = b
        }
        return context.input
    }

    /// Frames of look-ahead, compensated.
    public var latency: Int { limiter?.latency ?? 0 }

    @inline(__always)
    private func push(_ frame: UnsafePointer<Float>, limiter: LookaheadLimiter, output: UnsafeMutablePointer<Float>, discard: UnsafeMutablePointer<Float>) -> Int {
        guard trim.keep(1).count == 1 else {
            limiter.push(frame, into: discard)
            return 0
        }
        limiter.push(frame, into: output)
        let top = clampLevel
        for c in 0..<channels where abs(output[c]) > top {
            output[c] = output[c] > 0 ? top : -top
            clamped += 1
        }
        return 1
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let limiter, let discard else { return 0 }
        trim.received(frames)
        var written = 0
        for f in 0..<frames {
            written += push(input + f * channels, limiter: limiter, output: output + written * channels, discard: discard)
        }
        return written
    }

    /// Flushes the look-ahead: zeros in until every input frame has come out.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let limiter, let zeros, let discard else { return (0, true) }
        var written = 0
        while trim.owesOutput && written < capacity {
            written += push(zeros, limiter: limiter, output: output + written * channels, discard: discard)
        }
        return (written, !trim.owesOutput)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Keys.ceiling.value(ifNamed: name, from: value) else { throw AUPipeError.usage("limiter: \(name) is not live") }
        ceilingDB = v
        limiter?.ceiling = aim(v)
        clampLevel = Float(Decibels.amplitude(v))
    }

    public var readableFigures: [String] { DynamicsReport.readings }

    /// The gain reduction now and the deepest so far, dB (≥ 0).
    package var reduction: Double { -decibels(linear: Double(limiter?.lastGain ?? 1)) }
    package var deepestReduction: Double { -decibels(linear: Double(limiter?.smallestGain ?? 1)) }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.ceiling.name: return formatNumber(ceilingDB)
        default: return DynamicsReport.reading(name, now: reduction, deepest: deepestReduction)
        }
    }

    public var statsNote: String? {
        "gain reduction deepest \(String(deepestReduction + 0, decimals: 1)) dB; look-ahead \(latency) frames (compensated)"
            + (clamped > 0 ? "; \(clamped) samples clamped to the ceiling after rounding" : "")
    }

    public var statsFigures: [StatsFigure] {
        func n(_ v: Double) -> Double { (v * 100).rounded() / 100 + 0 }
        return [StatsFigure("reductionDB", n(reduction)), StatsFigure("maxReductionDB", n(deepestReduction)),
                StatsFigure("clampedSamples", Double(clamped))]
    }
}
