import AUPipeFormats

/// A processing unit in the chain: aupipe's AudioUnit, shaped like a sox effect handler. This
/// protocol is the DSP and nothing else; what some units also do (live parameters, figures for
/// `--stats`, side inputs, playing a reference) are protocols of their own that a unit opts into
/// (`LiveControllable`, `StatsReporting`, `SideInputReader`, `ReferencePlayer`,
/// `EncodingChooser`).
///
/// Lifecycle, in order:
/// 1. `init` from validated parameters (no audio format known yet; no allocation of audio buffers).
/// 2. `prepare(_:)` once, before any audio: check the input format, allocate everything the unit
///    needs, return the output format. Nothing is allocated after this.
/// 3. `process` for every block, 1...maxFrames frames. A unit consumes all of its input and
///    writes 0...`maxOutputFrames(forInput:)` frames (fixed-frame DSP holds frames back).
/// 4. `drain` after the end of the stream, called until it returns `done`, to flush held-back
///    frames (a resampler's tail, a part-filled frame).
///
/// Units own their side inputs (a mixer's buses, an echo canceller's reference) and read them
/// inside `process`, so the chain itself stays a line.
public protocol AudioUnit: AnyObject {
    /// Checks the input format, allocates, and returns the format of the frames `process` will
    /// produce.
    func prepare(_ context: PrepareContext) throws -> StreamFormat

    /// True when, once prepared, the unit leaves every sample and the frame count untouched
    /// (gain 0 dB, resample to the same rate): the chain then skips it.
    var isBypassed: Bool { get }

    /// The most frames `process` writes when given `inputFrames` frames.
    func maxOutputFrames(forInput inputFrames: Int) -> Int

    /// Consumes `frames` interleaved frames from `input`; writes frames to `output` and returns
    /// how many. `input` and `output` never overlap.
    func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int

    /// After the end of the stream: writes up to `capacity` held-back frames to `output`.
    /// Returns `done` once nothing remains; the default holds nothing back.
    func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool)

    /// Once prepared: the precision of the samples `process` writes when its input has
    /// `input` (sox's signal precision; see `SignalPrecision`). The output edge dithers when it
    /// rounds to fewer bits than this. The default, `.float`, is safe: a unit that computes in
    /// Float32 gets its result dithered. A unit that passes samples through (`tee`, `meter`),
    /// only selects or zeroes them (`mute`), or whose output is integers (speexdsp's 16 bits)
    /// says so, and then a 16-bit stream through it stays bit-exact.
    func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision
}

extension AudioUnit {
    public var isBypassed: Bool { false }
    public func maxOutputFrames(forInput inputFrames: Int) -> Int { inputFrames }
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) { (0, true) }
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { .float }
}

/// What a unit learns in `prepare`: the stream as it reaches the unit.
public struct PrepareContext: Sendable {
    /// The format of the frames `process` will be given.
    public var input: StreamFormat
    /// The most frames one `process` call will be given (≥ 1).
    public var maxFrames: Int
    /// Whether the run is real time (a capture device or `--live`), which units with side
    /// streams ask through their `live=` (`RealTimePolicy.isRealTime(_:)`).
    public var realTime: RealTimePolicy
    /// Where each of the input's channels plays: the input header's layout while the channel
    /// count is the input's, else the default layout for the count (`meter` weights by it).
    public var layout: ChannelLayout
    /// The precision of the input's samples (what the units before declared), for a unit that
    /// quantizes (`dither`, `tee`'s copy).
    public var precision: SignalPrecision
    /// The run's `--dither`, for a unit that quantizes (`tee`'s copy, `convert format=`); `.off`
    /// where no run sets it (a unit prepared on its own rounds plainly).
    public var dither: DitherMode

    public init(input: StreamFormat, maxFrames: Int, realTime: RealTimePolicy = .offline, layout: ChannelLayout? = nil,
                precision: SignalPrecision = .float, dither: DitherMode = .off) {
        self.input = input
        self.maxFrames = maxFrames
        self.realTime = realTime
        self.layout = layout ?? .standard(channels: input.channels)
        self.precision = precision
        self.dither = dither
    }
}

/// A unit whose parameters can be read, and some changed, while audio runs (`--control`).
public protocol LiveControllable: AnyObject {
    /// Changes a live parameter between two blocks; `value` is parsed and range-checked already.
    /// A unit ramps where a jump would click. Called only for parameters marked live.
    func setParameter(_ name: String, to value: ParameterValue) throws

    /// The current value of a parameter, or of a figure the unit measures (`aec.erle`), as
    /// text; nil if it has none.
    func parameterValue(_ name: String) -> String?

    /// A live parameter the descriptor does not list by name (`mix`'s `bus1.gain`), or nil.
    func liveParameter(_ name: String) -> ParameterDescriptor?

    /// The names of such parameters, for `list` and for messages.
    var liveParameterNames: [String] { get }

    /// The names `get` reads that are not parameters: figures the unit measures or reports
    /// (`meter`'s `integrated`, a plugin's output ports), read-only; for messages.
    var readableFigures: [String] { get }
}

extension LiveControllable {
    public func setParameter(_ name: String, to value: ParameterValue) throws {
        throw AUPipeError.usage("\(name) cannot be changed while running")
    }
    public func liveParameter(_ name: String) -> ParameterDescriptor? { nil }
    public var liveParameterNames: [String] { [] }
    public var readableFigures: [String] { [] }
}

/// A unit with figures of its own for `--stats`.
public protocol StatsReporting: AnyObject {
    /// Samples this unit had to clip so far (a converter quantizing to integers).
    var clippedSamples: Int { get }
    /// One line with the unit's own figures (the resampler's latency), or nil.
    var statsNote: String? { get }
    /// The figures of `statsNote` that scripts read, as numbers for `--stats=json` (`aec`'s ERLE).
    var statsFigures: [StatsFigure] { get }
    /// Figures over stream time for `--stats=json` (`aec`'s ERLE every 100 ms): named columns
    /// of equal length, the first one the time. Empty for most units.
    var statsSeries: [StatsSeries] { get }
}

extension StatsReporting {
    public var clippedSamples: Int { 0 }
    public var statsNote: String? { nil }
    public var statsFigures: [StatsFigure] { [] }
    public var statsSeries: [StatsSeries] { [] }
}

/// A unit that sets the stream's sample encoding from its point on (`convert format=`): the
/// output is then written in that encoding unless `--out-format` says otherwise.
public protocol EncodingChooser: AnyObject {
    /// The encoding chosen, or nil when this instance chooses none.
    var chosenEncoding: SampleEncoding? { get }
    /// Called before `prepare` when the unit is the chain's last stage and the output is written
    /// in `chosenEncoding` with no channel or rate change after it: the output's encoder rounds
    /// exactly as the unit would, so the unit has nothing left to do but what changes channels.
    func leaveRoundingToOutput()
}

/// An error a unit finds in `prepare` whose wording depends on where the stage came from (the
/// chain, or a conversion an option added): the chain asks it for its message.
public protocol StageError: Error {
    func error(stage: String, origin: StageOrigin) -> AUPipeError
}

/// Where a stage of the chain came from.
public enum StageOrigin: Sendable, Equatable {
    /// A unit written in the chain.
    case chain
    /// A conversion the named option appended (`--out-format`).
    case option(String)
}
