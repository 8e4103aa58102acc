import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `loudnorm`: single-pass loudness normalisation for streams: a slowly moving gain brings the
/// input's loudness (BS.1770-4, EBU R128 gating) to `target` LUFS, keeping a loudness range of up
/// to `range` LU (`LoudnessGainControl`), and a look-ahead true-peak limiter keeps the output's
/// true peak at or below `true-peak` dBTP (`LookaheadLimiter`, shared with `limiter`).
///
/// Exact length and zero delay: the limiter's look-ahead (10 ms plus 11 frames: `LookaheadLimiter.latency`) is trimmed
/// (`LatencyTrim`): skipped at the start and flushed with zeros at the end, so output frame k is
/// input frame k times a gain.
/// Input and output loudness are measured (libebur128, `LoudnessMeter`) for `--stats` and
/// `--control` (`get loudnorm.gain` ...). The same input gives the same bytes at any block size.
public final class LoudnormUnit: AudioUnit, StatsReporting, LiveControllable {
    public static let descriptor = UnitDescriptor(
        name: "loudnorm",
        summary: "normalise loudness live (EBU R128) with a look-ahead true-peak limiter",
        details: """
            Single pass, for streams: a slowly moving gain brings the loudness (ITU-R BS.1770-4, EBU R128 gating, measured with libebur128, each channel weighted by where it plays as meter does) to target= LUFS, and a look-ahead limiter keeps the true peak (4x oversampled) at or below true-peak= dBTP.
            The gain: every 100 ms of stream time it aims at target minus the input's integrated loudness so far (gated), and moves towards it by at most 12 dB per second (the integrated loudness itself moves slowly once a few seconds have passed). In the first 400 ms, before the input has a gated loudness, it aims at the loudness heard so far (from 100 ms on; 0 dB before), and it moves at up to 60 dB per second until it first gets to its aim. Where the current loudness (the louder of short-term, 3 s, and momentary, 400 ms) is more than range/2 LU from the integrated loudness, a second part of the gain, moving at most 3 dB per second up and 10 dB per second down, brings it back to range/2 LU from the target: quiet passages are lifted partly, loud ones lowered partly, and the output keeps a loudness range of up to range LU. During silence or pauses (below -70 LUFS, or 20 LU below the integrated loudness) the gain holds. The gain stays within -30 and +30 dB.
            The limiter looks 10 ms ahead: its gain is down to what the peak needs when the peak comes out (a ramp over 10 ms), and recovers with a 200 ms time constant. It aims 0.2 dB below the ceiling, for the difference between true-peak meters. Length is exact and delay is zero: the look-ahead (10 ms and 11 frames: 491 frames at 48 kHz, as --stats shows) is compensated at the start and flushed at the end.
            target, true-peak and range are live (--control: set loudnorm.target -20). --stats prints input and output loudness: integrated (LUFS), range (LU), true peak (dBTP); JSON figures inputIntegratedLUFS, inputLoudnessRangeLU, inputTruePeakDBTP, outputIntegratedLUFS, outputLoudnessRangeLU, outputTruePeakDBTP, gainDB (the gain at the end), limiterMaxReductionDB, nonFiniteSamples (NaN and infinite input samples: measured as the sample before them, reported once on stderr, passed through as they are). get loudnorm.gain, loudnorm.input-integrated and loudnorm.output-integrated read them while running.
            """,
        parameters: [Keys.target, Keys.truePeak, Keys.range],
        primary: Keys.target.name,
        example: "arecord -t raw -f S16_LE -r 48000 -c 2 | aupipe --live --in-format s16le:48000:2 loudnorm target=-16 -t wav | opusenc - stream.opus",
        exercise: UnitExercise(["target=-16"]),
        manual: manualText,
        frameNeeds: FrameNeeds(latency: true),
        make: { LoudnormUnit(target: $0[Keys.target], truePeak: $0[Keys.truePeak], range: $0[Keys.range]) })

    /// dB below the ceiling the limiter aims at, for the difference between true-peak meters.
    package static let ceilingMargin = 0.2

    /// Target loudness (LUFS), true-peak ceiling (dBTP) and range kept (LU): the values set last.
    public private(set) var target: Double
    public private(set) var truePeak: Double
    public private(set) var range: Double

    private var control: LoudnessGainControl
    private var limiter: LookaheadLimiter?
    private var inputMeter: LoudnessMeter?
    private var outputMeter: LoudnessMeter?
    /// NaN and infinities kept out of the input's and the output's measurement (as 0), counted.
    private var finiteIn: FiniteMeasure?, finiteOut: FiniteMeasure?
    private var channels = 1, rate = 1
    /// Frames per gain update, input frames so far, the next update's frame.
    private var period = 1
    private var framesIn: Int64 = 0, nextUpdate: Int64 = 0
    /// The limiter's look-ahead, trimmed: which of its output frames are kept.
    private var trim = LatencyTrim()
    /// The gain factor at the start of this period and at its end; it moves linearly between.
    private var factorFrom: Double = 1, factorTo: Double = 1
    /// One frame scaled by the gain, and one frame of zeros, and where skipped frames go.
    private var scaled: UnsafeMutablePointer<Float>?
    private var zeros: UnsafeMutablePointer<Float>?
    private var discard: UnsafeMutablePointer<Float>?

    public init(target: Double, truePeak: Double, range: Double) {
        self.target = target
        self.truePeak = truePeak
        self.range = range
        control = LoudnessGainControl(target: target, range: range)
    }

    deinit {
        scaled?.deallocate()
        zeros?.deallocate()
        discard?.deallocate()
    }

    package static func ceiling(_ truePeak: Double) -> Float { Float(Decibels.amplitude(truePeak - ceilingMargin)) }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        rate = context.input.sampleRate
        guard let i = LoudnessMeter(channels: channels, sampleRate: rate, layout: context.layout), let o = LoudnessMeter(channels: channels, sampleRate: rate, layout: context.layout) else {
            throw AUPipeError.usage("loudnorm: cannot measure a stream at \(rate) Hz with \(counted(channels, "channel")) (libebur128 takes 16 Hz to 2822400 Hz)")
        }
        inputMeter = i
        outputMeter = o
        finiteIn = FiniteMeasure(owner: "loudnorm", channels: channels, sampleRate: rate, maxFrames: context.maxFrames)
        // The output's copy is never reported: a NaN there came in (and was reported) at the input.
        finiteOut = FiniteMeasure(owner: nil, channels: channels, sampleRate: rate, maxFrames: context.maxFrames)
        let limiter = LookaheadLimiter(channels: channels, sampleRate: rate, ceiling: Self.ceiling(truePeak))
        self.limiter = limiter
        trim = LatencyTrim(latency: limiter.latency)
        period = max(1, Int((LoudnessGainControl.period * Double(rate)).rounded()))
        nextUpdate = Int64(period)
        for p in [\LoudnormUnit.scaled, \.zeros, \.discard] {
            let b = UnsafeMutablePointer<Float>.allocate(capacity: channels)
            b.initialize(repeating: 0, count: channels)
            self[keyPath: p] = b
        }
        return context.input
    }

    /// Frames of look-ahead, compensated.
    public var latency: Int { limiter?.latency ?? 0 }

    public func process(_ input: UnsafePointer<Float>, frames count: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let limiter, let inputMeter, let finiteIn, let scaled, let discard else { return 0 }
        var done = 0, written = 0
        trim.received(count)
        while done < count {
            let n = Int(min(Int64(count - done), nextUpdate - framesIn))
            let p = input + done * channels
            finiteIn.measure(p, frames: n, from: framesIn) { inputMeter.add($0, frames: $1) }
            let periodStart = nextUpdate - Int64(period)
            let step = (factorTo - factorFrom) / Double(period)
            for f in 0..<n {
                let k = Float(factorFrom + step * Double(framesIn + Int64(f) - periodStart + 1))
                let x = p + f * channels
                for c in 0..<channels { scaled[c] = x[c] * k }
                if trim.keep(1).count == 1 {
                    limiter.push(scaled, into: output + written * channels)
                    written += 1
                } else {
                    limiter.push(scaled, into: discard)
                }
            }
            framesIn += Int64(n)
            done += n
            if framesIn == nextUpdate { update() }
        }
        measureOutput(output, frames: written)
        return written
    }

    private func measureOutput(_ output: UnsafePointer<Float>, frames: Int) {
        guard let outputMeter, let finiteOut else { return }
        finiteOut.measure(output, frames: frames, from: trim.framesOut) { outputMeter.add($0, frames: $1) }
    }

    /// A gain update at the end of a period: the next period glides to the new gain.
    private func update() {
        guard let inputMeter else { return }
        let dB = control.update(integrated: inputMeter.integrated, shortTerm: inputMeter.shortTerm,
                                momentary: inputMeter.momentary, seconds: Double(framesIn) / Double(rate))
        factorFrom = factorTo
        factorTo = Decibels.amplitude(dB)
        nextUpdate += Int64(period)
    }

    /// Flushes the look-ahead: zeros in until every input frame has come out.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let limiter, let zeros, let discard else { return (0, true) }
        var written = 0
        while trim.owesOutput && written < capacity {
            if trim.keep(1).count == 1 {
                limiter.push(zeros, into: output + written * channels)
                written += 1
            } else {
                limiter.push(zeros, into: discard)
            }
        }
        measureOutput(output, frames: written)
        return (written, !trim.owesOutput)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.target.value(ifNamed: name, from: value) {
            target = v
            control.target = v
        } else if let v = Keys.truePeak.value(ifNamed: name, from: value) {
            truePeak = v
            limiter?.ceiling = Self.ceiling(v)
        } else if let v = Keys.range.value(ifNamed: name, from: value) {
            range = v
            control.range = v
        } else {
            throw AUPipeError.usage("loudnorm: \(name) is not live")
        }
    }

    /// The figures `get loudnorm.NAME` reads besides the parameters.
    public static let readings = ["gain", "input-integrated", "output-integrated"]
    public var readableFigures: [String] { Self.readings }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.target.name: return formatNumber(target)
        case Keys.truePeak.name: return formatNumber(truePeak)
        case Keys.range.name: return formatNumber(range)
        case "gain": return String(control.gain, decimals: 2)
        case "input-integrated": return Self.text2(inputMeter?.integrated ?? -.infinity)
        case "output-integrated": return Self.text2(outputMeter?.integrated ?? -.infinity)
        default: return nil
        }
    }

    private static func text2(_ v: Double) -> String { v.isFinite ? String(v, decimals: 2) : "-inf" }

    private func figures(_ m: LoudnessMeter?) -> (integrated: Double, range: Double, truePeak: Double) {
        (m?.integrated ?? -.infinity, m?.range ?? 0, decibels(linear: m?.truePeak ?? 0))
    }

    /// NaN and infinite samples in the input so far (measured as the sample before them; they pass through as they are).
    public var nonFiniteSamples: Int64 { finiteIn?.count ?? 0 }

    /// The limiter's largest gain reduction so far, dB (0 when it never acted).
    public var limiterMaxReduction: Double { -decibels(linear: Double(limiter?.smallestGain ?? 1)) }

    public var statsNote: String? {
        let i = figures(inputMeter), o = figures(outputMeter)
        let t = MeterUnit.text
        return "input: integrated \(t(i.integrated)) LUFS, range \(t(i.range)) LU, true peak \(t(i.truePeak)) dBTP; "
            + "output: integrated \(t(o.integrated)) LUFS, range \(t(o.range)) LU, true peak \(t(o.truePeak)) dBTP; "
            + "gain \(t(control.gain)) dB at the end, limiter down to \(t(-limiterMaxReduction)) dB; look-ahead \(latency) frames (compensated)"
            + MeterUnit.nonFiniteNote(nonFiniteSamples)
    }

    public var statsFigures: [StatsFigure] {
        func n(_ v: Double) -> Double? { v.isFinite ? (v * 100).rounded() / 100 : nil }
        let i = figures(inputMeter), o = figures(outputMeter)
        return [StatsFigure("inputIntegratedLUFS", n(i.integrated)), StatsFigure("inputLoudnessRangeLU", n(i.range)),
                StatsFigure("inputTruePeakDBTP", n(i.truePeak)),
                StatsFigure("outputIntegratedLUFS", n(o.integrated)), StatsFigure("outputLoudnessRangeLU", n(o.range)),
                StatsFigure("outputTruePeakDBTP", n(o.truePeak)),
                StatsFigure("gainDB", n(control.gain)), StatsFigure("limiterMaxReductionDB", n(limiterMaxReduction)),
                StatsFigure("nonFiniteSamples", Double(nonFiniteSamples))]
    }
}

