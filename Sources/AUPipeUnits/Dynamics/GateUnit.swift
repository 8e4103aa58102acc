import AUPipeFormats
import AUPipeGraph

/// `gate`: a noise gate or downward expander (`DynamicsProcessor` with `GateLaw`), with
/// hysteresis and hold, its level read from the stream or a side chain.
public final class GateUnit: AudioUnit, StatsReporting, LiveControllable, PlotReporting, SideInputReader, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "gate",
        summary: "noise gate or downward expander with hysteresis, hold and side chain",
        details: """
            The level (detector=rms or peak, as compressor: a full-scale sine is 0 dBFS) opens the gate when it reaches threshold=; the gate closes when the level has stayed below threshold - hysteresis for hold=. Open, the gain is 0 dB; closed, it is range= dB (ratio=inf, a gate) or, with ratio=R, a downward expander: 1 dB below the threshold comes out R dB below, never below range.
            attack= (opening) and release= (closing) are time constants of the gain in dB: 63 % (1 - 1/e) of a step in that time. link= as compressor. Exact length, zero delay.
            sidechain=PATH opens and closes the gate from another input (a file, a FIFO or <(command); live= as compressor).
            threshold, range, ratio and hysteresis are live; get gate.reduction reads the gain reduction now (dB); --stats prints it and the deepest (JSON reductionDB, maxReductionDB). plot=FILE.svg draws the gain over stream time.
            """,
        parameters: [Keys.threshold, Keys.range, Keys.ratio, Keys.hysteresis, Keys.attack, Keys.hold, Keys.release, Keys.detector, Keys.link,
                     Keys.sidechain, Keys.live, Keys.plot],
        primary: Keys.threshold.name,
        example: "aupipe -i interview.wav gate threshold=-45 range=-20 hold=200ms -o gated.wav",
        exercise: UnitExercise(["threshold=-30", "range=-30", "hold=20ms"]),
        manual: manualText,
        make: { try GateUnit($0) })

    private var curve: ExpanderCurve
    private var hysteresis: Float
    private let hold: StreamDuration, attack: StreamDuration, release: StreamDuration
    private let mode: LevelDetector.Mode
    private let link: StereoLink
    private let sidechainSpec: BusSpec?
    private let liveMode: LiveSetting
    private let plotFile: PlotFile?
    private var stage: DynamicsStage<GateLaw>?

    package init(_ v: ParameterValues) throws {
        curve = ExpanderCurve(threshold: Float(v[Keys.threshold]), ratio: Float(v[Keys.ratio]), range: Float(v[Keys.range]))
        hysteresis = Float(v[Keys.hysteresis])
        hold = v[Keys.hold]
        attack = v[Keys.attack]
        release = v[Keys.release]
        mode = v[Keys.detector]
        link = v[Keys.link]
        sidechainSpec = v[Keys.sidechain]
        liveMode = v[Keys.live]
        plotFile = try v[Keys.plot].map { try PlotFile(path: $0, unit: "gate", example: "gate.svg") }
    }

    public var sideInputs: [(role: String, path: String)] { sidechainSpec.map { [("gate's sidechain", $0.path)] } ?? [] }
    public var sideOutputs: [(role: String, path: String)] { plotFile.map { [("gate plot=", $0.path)] } ?? [] }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input, rate = input.sampleRate
        let law = GateLaw(curve: curve, hysteresis: hysteresis, holdSeconds: CompressorUnit.seconds(hold, rate: rate))
        let processor = DynamicsProcessor(law: law, mode: mode, link: link,
                                          attackSeconds: CompressorUnit.seconds(attack, rate: rate), releaseSeconds: CompressorUnit.seconds(release, rate: rate),
                                          lookaheadSeconds: 0, makeupDB: 0, channels: input.channels, sampleRate: rate, plot: plotFile != nil)
        let sidechain = try sidechainSpec.map {
            try Sidechain(spec: $0, unit: "gate", stream: input, maxFrames: context.maxFrames, realTime: context.realTime.isRealTime(liveMode))
        }
        stage = DynamicsStage(processor: processor, sidechain: sidechain, maxFrames: context.maxFrames)
        return input
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        try stage?.process(input, frames: frames, into: output) ?? 0
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        try stage?.drain(into: output, capacity: capacity) ?? (0, true)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.threshold.value(ifNamed: name, from: value) { curve.threshold = Float(v) }
        else if let v = Keys.range.value(ifNamed: name, from: value) { curve.range = Float(v) }
        else if let v = Keys.ratio.value(ifNamed: name, from: value) { curve.ratio = Float(v) }
        else if let v = Keys.hysteresis.value(ifNamed: name, from: value) { hysteresis = Float(v) }
        else { throw AUPipeError.usage("gate: \(name) is not live") }
        stage?.processor.law.curve = curve
        stage?.processor.law.hysteresis = hysteresis
    }

    public var readableFigures: [String] { DynamicsReport.readings }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.threshold.name: return formatNumber(Double(curve.threshold))
        case Keys.range.name: return formatNumber(Double(curve.range))
        case Keys.ratio.name: return curve.ratio.isInfinite ? "inf" : formatNumber(Double(curve.ratio))
        case Keys.hysteresis.name: return formatNumber(Double(hysteresis))
        default: return DynamicsReport.reading(name, now: Double(stage?.processor.reduction ?? 0),
                                               deepest: Double(stage?.processor.deepestReduction ?? 0))
        }
    }

    public var statsNote: String? { DynamicsReport.note(stage?.processor, sidechain: stage?.sidechain) }
    public var statsFigures: [StatsFigure] { DynamicsReport.figures(stage?.processor, sidechain: stage?.sidechain) }

    package var endOfStreamPlot: (file: PlotFile, svg: String)? {
        guard let plotFile, let series = stage?.processor.series else { return nil }
        return (plotFile, series.svg(title: "aupipe gate: threshold \(formatNumber(Double(curve.threshold))) dBFS, range \(formatNumber(Double(curve.range))) dB"))
    }
}
