/// A processing unit in the chain: aupipe's AudioUnit, shaped like a sox effect handler.
///
/// Lifecycle, in order:
/// 1. `init` from validated parameters (no audio format known yet; no allocation of audio buffers).
/// 2. `prepare(input:maxFrames:)` once, before any audio: check the input format, allocate
///    everything the unit needs, return the output format. Nothing is allocated after this.
/// 3. `process` for every block, 1...maxFrames frames. A unit consumes all of its input and
///    writes 0...`maxOutputFrames(forInput:)` frames (fixed-frame DSP holds frames back).
/// 4. `drain` after the end of the stream, called until it returns `done`, to flush held-back
///    frames (a resampler's tail, a part-filled frame).
///
/// Units own their side inputs (a mixer's buses, an echo canceller's reference) and read them
/// inside `process`, so the chain itself stays a line.
public protocol AudioUnit: AnyObject {
    /// Checks `input`, allocates, and returns the format of the frames `process` will produce.
    /// `maxFrames` is the most frames one `process` call will be given.
    func prepare(input: StreamFormat, maxFrames: Int) throws -> StreamFormat

    /// The same, for units that care how the stream arrives (`mix` reads its FIFOs without
    /// blocking when the stream is live). The default calls `prepare(input:maxFrames:)`.
    func prepare(input: StreamFormat, maxFrames: Int, context: StreamContext) throws -> StreamFormat

    /// A live parameter the descriptor does not list by name (`mix`'s `bus1.gain`), or nil.
    func liveParameter(_ name: String) -> ParameterDescriptor?

    /// The names of such parameters, for `list` and for messages.
    var liveParameterNames: [String] { get }

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

    /// Samples this unit had to clip so far (a converter quantizing to integers); 0 for most.
    var clippedSamples: Int { get }

    /// One line for `--stats` with figures of the unit's own (e.g. the resampler's latency), or nil.
    var statsNote: String? { get }

    /// The figures of `statsNote` that scripts read, as numbers for `--stats=json` (`aec`'s
    /// ERLE); empty for most units.
    var statsFigures: [StatsFigure] { get }

    /// Changes a live parameter between two blocks; `value` is parsed and range-checked already.
    /// A unit ramps where a jump would click. Called only for parameters its descriptor marks live.
    func setParameter(_ name: String, to value: ParameterValue) throws

    /// The current value of a parameter, or of a figure the unit measures, as text; nil if none.
    func parameterValue(_ name: String) -> String?
}

/// An error a unit finds in `prepare` whose wording depends on where the unit came from (the
/// chain, or a conversion `--out-format` added): the chain asks it for its message.
public protocol StageError: Error {
    func error(stage: String) -> AUPipeError
}

/// How the stream reaches the chain.
public struct StreamContext: Sendable {
    /// True when the input is a pipe, FIFO, socket, tty or device: it arrives in real time.
    public var inputIsLive: Bool

    public init(inputIsLive: Bool) { self.inputIsLive = inputIsLive }
}

extension AudioUnit {
    public func prepare(input: StreamFormat, maxFrames: Int, context: StreamContext) throws -> StreamFormat {
        try prepare(input: input, maxFrames: maxFrames)
    }
    public func liveParameter(_ name: String) -> ParameterDescriptor? { nil }
    public var liveParameterNames: [String] { [] }
    public var isBypassed: Bool { false }
    public func maxOutputFrames(forInput inputFrames: Int) -> Int { inputFrames }
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) { (0, true) }
    public var clippedSamples: Int { 0 }
    public var statsNote: String? { nil }
    public var statsFigures: [StatsFigure] { [] }
    public func setParameter(_ name: String, to value: ParameterValue) throws {
        throw AUPipeError.usage("\(name) cannot be changed while running")
    }
    public func parameterValue(_ name: String) -> String? { nil }
}
