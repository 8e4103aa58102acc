import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Figures one stage of the chain reports for `--stats`.
public struct StageStats: Sendable, Equatable {
    public var name: String
    public var framesIn: Int64 = 0
    public var framesOut: Int64 = 0
    /// Largest absolute output sample seen (linear, 1.0 = full scale); tracked only with `--stats`.
    public var peak: Float = 0
    public var clipped: Int = 0
    public var bypassed = false
    public var note: String?
    /// The unit's own figures as numbers, for `--stats=json` (see `AudioUnit.statsFigures`).
    public var figures: [StatsFigure] = []
    /// The unit's figures over stream time, for `--stats=json` (see `StatsReporting.statsSeries`).
    public var series: [StatsSeries] = []

    /// The peak in dBFS, or -inf for silence.
    public var peakDBFS: Double { peak > 0 ? 20 * Double(peak).log10 : -.infinity }
}

/// One of a unit's own figures for `--stats=json`: a name and a number, or nil when there is
/// nothing to measure (written as `null`); or a name and a list of them (written as an array:
/// a plugin's output port, one value per instance).
public struct StatsFigure: Sendable, Equatable {
    public var name: String
    public var value: Double?
    /// The values of a figure that is a list (nil: `value` is the figure).
    public var values: [Double?]?

    public init(_ name: String, _ value: Double?) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, values: [Double?]) {
        self.name = name
        self.values = values
    }
}

/// One column of a unit's figures over stream time for `--stats=json`: a name and a value per
/// point, nil where there is nothing to measure (written as `null`).
public struct StatsSeries: Sendable, Equatable {
    public var name: String
    public var values: [Double?]

    public init(_ name: String, _ values: [Double?]) {
        self.name = name
        self.values = values
    }
}

extension Double {
    package var log10: Double { Glibc.log10(self) }
}

/// One stage of a chain before it is prepared: a unit, the name its figures and errors go by,
/// and where it came from.
public struct ChainStage {
    public let name: String
    public let unit: any AudioUnit
    public let origin: StageOrigin

    public init(_ name: String, _ unit: any AudioUnit, origin: StageOrigin = .chain) {
        self.name = name
        self.unit = unit
        self.origin = origin
    }
}

/// A prepared line of units, each with its own output buffer: the AUGraph of aupipe.
///
/// `process` pushes one block through every active stage; `drain` flushes each stage in order,
/// pushing what it flushes through the stages after it, so nothing held back is lost.
public final class Chain {
    private struct Stage {
        package let unit: any AudioUnit
        package let output: AudioBuffer
        package var stats: StageStats
        /// The stage whose unit took this one's in (`FusingUnit`): it does this one's processing.
        package var fusedInto: Int?
    }

    private var stages: [Stage] = []
    private var bypassedStats: [(index: Int, stats: StageStats)] = []
    public let inputFormat: StreamFormat
    public let outputFormat: StreamFormat
    /// Most frames one `process` call accepts.
    public let maxFrames: Int
    /// Most frames one `process` call can return (for sizing the encoder's buffer).
    public let maxOutputFrames: Int
    private let measurePeaks: Bool
    /// The precision of the samples the last stage writes (`AudioUnit.outputPrecision`): the
    /// input's encoding's through every stage that runs.
    public let outputPrecision: SignalPrecision
    /// When the stages that run only select, reorder, duplicate or silence channels
    /// (`ChannelSelecting`): for each output channel, the input channel whose samples it carries
    /// unchanged, or nil for silence. nil when any stage changes samples, when the chain is empty
    /// (nothing to select), under live control (`allowBypass` false: a unit may change later)
    /// and when peaks are measured (`--stats` reads them from the float samples).
    public let channelSelection: [Int?]?

    /// Prepares `stages` for `input`, in order; each name labels the stage's figures in `stats`.
    /// `maxFrames` bounds every block; `realTime` says whether the run is real time.
    /// With `allowBypass` false, units that have nothing to do now still run (they may be
    /// changed while running). `then`, when given, adds stages after those, made from the
    /// format those produce (`--out-format`'s conversions). `layout` is the input's channel
    /// layout (the default for its count when nil); a stage that changes the channel count
    /// hands the next the default layout for the new count. `precision` is the input's (nil: its
    /// encoding's); `dither` the run's `--dither`, told to each unit (`.off` unless a run sets it).
    public init(stages entries: [ChainStage], then more: ((StreamFormat) throws -> [ChainStage])? = nil, input: StreamFormat,
                maxFrames: Int, measurePeaks: Bool, allowBypass: Bool = true, realTime: RealTimePolicy = .offline, layout: ChannelLayout? = nil,
                precision: SignalPrecision? = nil, dither: DitherMode = .off) throws {
        inputFormat = input
        self.maxFrames = maxFrames
        self.measurePeaks = measurePeaks
        var format = input
        var layout = layout ?? .standard(channels: input.channels)
        var frames = maxFrames
        var precision = precision ?? SignalPrecision(input.encoding)
        var index = 0
        var prepared: [Stage] = [], bypassed: [(index: Int, stats: StageStats)] = []
        func prepare(_ entry: ChainStage) throws {
            let next: StreamFormat
            do { next = try entry.unit.prepare(PrepareContext(input: format, maxFrames: frames, realTime: realTime, layout: layout,
                                                                  precision: precision, dither: dither)) } catch let e as StageError {
                throw e.error(stage: entry.name, origin: entry.origin)
            }
            if allowBypass && entry.unit.isBypassed {
                var s = StageStats(name: entry.name)
                s.bypassed = true
                bypassed.append((index, s))
            } else {
                let outFrames = entry.unit.maxOutputFrames(forInput: frames)
                prepared.append(Stage(unit: entry.unit, output: AudioBuffer(channels: next.channels, capacity: max(outFrames, 1)),
                                      stats: StageStats(name: entry.name)))
                frames = outFrames
                precision = entry.unit.outputPrecision(forInput: precision)
            }
            if next.channels != format.channels { layout = .standard(channels: next.channels) }
            format = next
            index += 1
        }
        for entry in entries { try prepare(entry) }
        if let more { for entry in try more(format) { try prepare(entry) } }
        if !measurePeaks { Self.fuse(&prepared) }
        stages = prepared
        bypassedStats = bypassed
        outputFormat = format
        maxOutputFrames = frames
        outputPrecision = precision
        channelSelection = allowBypass && !measurePeaks && !prepared.isEmpty
            ? Self.composedSelection(prepared.map(\.unit), inputChannels: input.channels) : nil
    }

    /// Lets each `FusingUnit` take in the units after it that it can.
    private static func fuse(_ stages: inout [Stage]) {
        var leader: (index: Int, unit: any FusingUnit)?
        for i in stages.indices {
            if let l = leader, l.unit.takeIn(stages[i].unit) {
                stages[i].fusedInto = l.index
                continue
            }
            leader = (stages[i].unit as? any FusingUnit).map { (i, $0) }
        }
    }

    /// True when no stage touches the samples: the stream can be copied as it is.
    public var isEmpty: Bool { stages.isEmpty }

    /// Runs `frames` frames (1...maxFrames) from `input` through every stage. The result points
    /// into the last stage's buffer (or is `input` itself when the chain is empty) and stays valid
    /// until the next call.
    public func process(_ input: UnsafePointer<Float>, frames: Int) throws -> (UnsafePointer<Float>, Int) {
        try run(from: 0, input, frames: frames)
    }

    private func run(from first: Int, _ input: UnsafePointer<Float>, frames: Int) throws -> (UnsafePointer<Float>, Int) {
        var pointer = input
        var count = frames
        var i = first
        while i < stages.count {
            if count == 0 { return (pointer, 0) }
            if let leader = stages[i].fusedInto, leader >= first {
                record(i, framesIn: count, framesOut: count)  // done by its leader, frame for frame
                i += 1
                continue
            }
            let produced = try stages[i].unit.process(pointer, frames: count, into: stages[i].output.samples)
            record(i, framesIn: count, framesOut: produced)
            pointer = UnsafePointer(stages[i].output.samples)
            count = produced
            i += 1
        }
        return (pointer, count)
    }

    private func record(_ i: Int, framesIn: Int, framesOut: Int) {
        stages[i].stats.framesIn += Int64(framesIn)
        stages[i].stats.framesOut += Int64(framesOut)
        if measurePeaks {
            let p = stages[i].output.samples
            var peak = stages[i].stats.peak
            for k in 0..<(framesOut * stages[i].output.channels) { peak = max(peak, abs(p[k])) }
            stages[i].stats.peak = peak
        }
    }

    /// Counts `frames` frames through every stage, for a run that moved them as bytes
    /// (`channelSelection`) instead of calling `process`.
    public func recordSelected(frames: Int) {
        for i in stages.indices {
            stages[i].stats.framesIn += Int64(frames)
            stages[i].stats.framesOut += Int64(frames)
        }
    }

    /// Flushes every stage after the end of the stream, handing each resulting block to `sink`.
    public func drain(_ sink: (UnsafePointer<Float>, Int) throws -> Void) throws {
        while try !drainStep(sink) {}
    }

    /// The stage `drainStep` flushes next (stages before it are done).
    private var drainingStage = 0

    /// One step of `drain`: one `drain` call of the stage being flushed, pushed through the
    /// stages after it; at most `maxOutputFrames` frames reach `sink`. True once every stage is
    /// flushed. For a caller with bounded room (a side input's ring): it steps while it has room.
    public func drainStep(_ sink: (UnsafePointer<Float>, Int) throws -> Void) throws -> Bool {
        guard drainingStage < stages.count else { return true }
        let i = drainingStage
        let buffer = stages[i].output
        let (frames, done) = try stages[i].unit.drain(into: buffer.samples, capacity: buffer.capacity)
        // Counted before the block moves on, so that a sink that throws (a reader gone away)
        // never has a finished stage drained twice when the drain is resumed.
        if done {
            drainingStage += 1
            if let reporter = stages[i].unit as? any PlotReporting, let plot = reporter.endOfStreamPlot { try plot.file.write(plot.svg) }
        }
        if frames > 0 {
            record(i, framesIn: 0, framesOut: frames)
            let (pointer, count) = try run(from: i + 1, UnsafePointer(buffer.samples), frames: frames)
            if count > 0 { try sink(pointer, count) }
        }
        return drainingStage == stages.count
    }

    /// Per-stage figures in chain order, bypassed stages included.
    public var stats: [StageStats] {
        var list = stages.map { stage -> StageStats in
            var s = stage.stats
            if let unit = stage.unit as? any StatsReporting {
                s.clipped = unit.clippedSamples
                s.note = unit.statsNote
                s.figures = unit.statsFigures
                s.series = unit.statsSeries
            }
            return s
        }
        for (index, s) in bypassedStats.sorted(by: { $0.index < $1.index }) { list.insert(s, at: min(index, list.count)) }
        return list
    }
}
