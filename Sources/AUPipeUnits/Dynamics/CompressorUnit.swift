import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `compressor`: a feed-forward compressor (`DynamicsProcessor` with `CompressorLaw`): the
/// level (rms or peak, AES17 dBFS, linked across channels or not), read from the stream or a
/// side chain, goes through the soft-knee curve; the gain moves with the attack and release
/// time constants; a look-ahead is compensated (exact length, zero delay).
public final class CompressorUnit: AudioUnit, StatsReporting, LiveControllable, PlotReporting, SideInputReader, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "compressor",
        summary: "feed-forward compressor with soft knee, look-ahead and side chain",
        details: """
            The level (detector=rms: 2 x the mean square over 10 ms; peak: the largest sample of the last 10 ms; both read a full-scale sine as 0 dBFS, as AES17) goes through the curve: below threshold - knee/2 nothing, above threshold + knee/2 the gain makes R dB in 1 dB out, and in between the quadratic soft knee. link=max (default) or mean gives all channels one gain; none one per channel.
            attack= and release= are time constants of the gain in dB: after a step of the level, the gain covers 63 % (1 - 1/e) of its way in that time (a one-pole filter in dB). With detector=peak a release starts when the peak leaves the 10 ms window. makeup= adds a gain (auto: the gain that brings a 0 dBFS input back to 0 dBFS).
            lookahead= lets the gain come down before a peak: the stream is delayed and the delay trimmed, so length is exact and output frame k is input frame k times a gain.
            sidechain=PATH reads the level from another input (a file, a FIFO or <(command), converted to the stream's rate and channels, waited for unless the run is real time; live=): music ducked under a voice. After its end it is silence (no reduction).
            threshold, ratio, knee and makeup are live; get compressor.reduction reads the gain reduction now (dB), deepest-reduction the deepest so far; --stats prints both (JSON reductionDB, maxReductionDB). plot=FILE.svg draws the gain over stream time.
            """,
        parameters: [Keys.threshold, Keys.ratio, Keys.knee, Keys.attack, Keys.release, Keys.makeup, Keys.detector, Keys.link,
                     Keys.lookahead, Keys.sidechain, Keys.live, Keys.plot],
        primary: Keys.threshold.name,
        example: "aupipe -i voice.wav compressor threshold=-24 ratio=3 makeup=auto : loudnorm -16 -t wav | flac - -o voice.flac",
        exercise: UnitExercise(["threshold=-30", "ratio=4", "lookahead=5ms", "sidechain=\(UnitExercise.sideInput)"]),
        manual: manualText,
        frameNeeds: FrameNeeds(latency: true),
        make: { try CompressorUnit($0) })

    private var curve: CompressorCurve
    private var makeup: Automatic<Double>
    private let mode: LevelDetector.Mode
    private let link: StereoLink
    private let attack: StreamDuration, release: StreamDuration, lookahead: StreamDuration
    private let sidechainSpec: BusSpec?
    private let liveMode: LiveSetting
    private let plotFile: PlotFile?
    private var stage: DynamicsStage<CompressorLaw>?

    package init(_ v: ParameterValues) throws {
        curve = CompressorCurve(threshold: Float(v[Keys.threshold]), ratio: Float(v[Keys.ratio]), knee: Float(v[Keys.knee]))
        makeup = v[Keys.makeup]
        mode = v[Keys.detector]
        link = v[Keys.link]
        attack = v[Keys.attack]
        release = v[Keys.release]
        lookahead = v[Keys.lookahead]
        sidechainSpec = v[Keys.sidechain]
        liveMode = v[Keys.live]
        plotFile = try v[Keys.plot].map { try PlotFile(path: $0, unit: "compressor", example: "gain.svg") }
    }

    public var sideInputs: [(role: String, path: String)] { sidechainSpec.map { [("compressor's sidechain", $0.path)] } ?? [] }
    public var sideOutputs: [(role: String, path: String)] { plotFile.map { [("compressor plot=", $0.path)] } ?? [] }

    /// Seconds of `d` at `rate`.
    package static func seconds(_ d: StreamDuration, rate: Int) -> Double { d.seconds ?? Double(d.frames(atRate: rate)) / Double(rate) }

    private var makeupDB: Float {
        switch makeup {
        case .auto: curve.automaticMakeup
        case .fixed(let v): Float(v)
        }
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input, rate = input.sampleRate
        let processor = DynamicsProcessor(law: CompressorLaw(curve: curve), mode: mode, link: link,
                                          attackSeconds: Self.seconds(attack, rate: rate), releaseSeconds: Self.seconds(release, rate: rate),
                                          lookaheadSeconds: Self.seconds(lookahead, rate: rate), makeupDB: makeupDB,
                                          channels: input.channels, sampleRate: rate, plot: plotFile != nil)
        let sidechain = try sidechainSpec.map {
            try Sidechain(spec: $0, unit: "compressor", stream: input, maxFrames: context.maxFrames, realTime: context.realTime.isRealTime(liveMode))
        }
        stage = DynamicsStage(processor: processor, sidechain: sidechain, maxFrames: context.maxFrames)
        return input
    }

    /// Frames of look-ahead, compensated.
    public var latency: Int { stage?.processor.lookahead ?? 0 }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        try stage?.process(input, frames: frames, into: output) ?? 0
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        try stage?.drain(into: output, capacity: capacity) ?? (0, true)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.threshold.value(ifNamed: name, from: value) { curve.threshold = Float(v) }
        else if let v = Keys.ratio.value(ifNamed: name, from: value) { curve.ratio = Float(v) }
        else if let v = Keys.knee.value(ifNamed: name, from: value) { curve.knee = Float(v) }
        else if let v = Keys.makeup.value(ifNamed: name, from: value) { makeup = v }
        else { throw AUPipeError.usage("compressor: \(name) is not live") }
        stage?.processor.law.curve = curve
        stage?.processor.makeupDB = makeupDB
    }

    /// The figures `get compressor.NAME` reads besides the parameters.
    public var readableFigures: [String] { DynamicsReport.readings }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.threshold.name: return formatNumber(Double(curve.threshold))
        case Keys.ratio.name: return formatNumber(Double(curve.ratio))
        case Keys.knee.name: return formatNumber(Double(curve.knee))
        case Keys.makeup.name: return makeup.fixedValue.map(formatNumber) ?? "auto (\(String(Double(makeupDB), decimals: 2)))"
        default: return DynamicsReport.reading(name, now: Double(reduction), deepest: Double(deepestReduction))
        }
    }

    /// The gain reduction now and the deepest so far, dB (≥ 0).
    package var reduction: Float { stage?.processor.reduction ?? 0 }
    package var deepestReduction: Float { stage?.processor.deepestReduction ?? 0 }

    public var statsNote: String? { DynamicsReport.note(stage?.processor, sidechain: stage?.sidechain) }
    public var statsFigures: [StatsFigure] { DynamicsReport.figures(stage?.processor, sidechain: stage?.sidechain) }

    package var endOfStreamPlot: (file: PlotFile, svg: String)? {
        guard let plotFile, let series = stage?.processor.series else { return nil }
        return (plotFile, series.svg(title: "aupipe compressor: threshold \(formatNumber(Double(curve.threshold))) dBFS, ratio \(formatNumber(Double(curve.ratio))), deepest reduction \(String(Double(deepestReduction), decimals: 1)) dB"))
    }
}
