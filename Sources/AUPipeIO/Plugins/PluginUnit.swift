import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import CAUPipeSupport

/// `lv2` and `ladspa`: a plugin run as a unit, through any `PluginBackend`. The backend knows the
/// standard; this unit knows the stream.
///
/// - Channels: a plugin whose audio inputs and outputs both number the stream's channels runs
///   as one instance; a mono plugin (one in, one out) on N channels runs as N instances, one
///   per channel, each seeing only its own (`PerChannel` of `PluginChannel`s); anything else is
///   refused in `prepare`, naming the counts.
/// - Blocks: the stream is gathered into runs of exactly `blockLength` frames (`FixedFrames`,
///   planar: the ports are connected once to its planes), one length for the whole run
///   (`PluginRunLength`: from the rate and the plugin's limits, never from the `process`
///   blocks), run, and interleaved back; the last run is padded with zeros (the padding's
///   output is dropped). So the block size and how the input's reads fall never change the
///   output.
/// - Latency: a latency port is read after every run; its first value L is compensated
///   (`FixedFrames.setLatency`): the first L output frames are dropped and L frames of tail
///   flushed by running zeros at the end, so the output has the input's length and an impulse
///   on frame k comes out on frame k. A later different value is kept for `--stats`, not
///   applied.
/// - Presets: `preset=` sets the ports the preset names (the command line overrides them) and
///   restores the plugin state it carries (`PluginState`) into every instance before it is
///   activated.
/// - Live: every input control port is a live parameter (`--control set ladspa.gain 0.5`); the
///   new value is written before the next run, at a run boundary. Output control ports are
///   read with `get` (`readableFigures`) and printed by `--stats`.
/// - Stray output: what a plugin prints on stdout (x42's convolvers do) is moved to stderr after
///   every call into it, so that it never lands in the audio (`aupipe_divert_stray_stdout`).
///
/// Every buffer (planes, control values) is allocated in `prepare`; audio and control buffers
/// are always separate, so in-place-broken plugins are served.
public final class PluginUnit: AudioUnit, LiveControllable, StatsReporting {
    public let plugin: PluginInfo
    package let backend: any PluginBackend
    /// The unit's command-line name (`ladspa`), for messages.
    package let unitName: String
    package let inputPorts: [PluginPort]
    package let outputPorts: [PluginPort]
    /// The value of each input control port (index as `inputPorts`), set or defaulted; NaN for a
    /// sample-rate-relative default, known in `prepare`.
    private var values: [Float]
    /// Which of `values` the command line (or a preset) set.
    private let given: [Bool]
    /// The plugin state the preset carries, restored into every instance before it is activated.
    private let state: PluginState?

    // Set in prepare.
    private var instances: [any PluginInstance] = []
    private var channels = 0
    private var sampleRate = 0.0
    /// Samples the plugin output as NaN or infinity, replaced by 0.
    private var nonFinite: Int64 = 0
    /// Frames of every run (`PluginRunLength`).
    public private(set) var blockLength = 0
    /// The runs of `blockLength` frames, and the latency compensated.
    private var runFrames: FixedFrames?
    /// The mono instances, one per channel, each reading its plane of `runFrames` and writing
    /// its output plane; nil when one instance serves every channel, connected to all of them.
    private var perChannel: PerChannel<PluginChannel>?
    /// The input control values the instances read (one float per port, shared).
    private var controls: UnsafeMutablePointer<Float>?
    /// The output control values, `outputPorts.count` per instance.
    private var outputs: UnsafeMutablePointer<Float>?
    private var latencyIndex: Int?
    private var active = false
    /// The latency compensated (the first value the plugin reported), and a later different one.
    public private(set) var latency: Int?
    public private(set) var laterLatency: Int?
    /// Runs made, for tests.
    public private(set) var runs = 0

    /// A unit for `plugin` from parsed values: each input control port's value by symbol, else
    /// the preset's (`preset=`), else the port's default.
    public init(plugin: PluginInfo, backend: any PluginBackend, values parsed: ParameterValues, unitName: String) throws {
        for p in plugin.ports {
            if case .unsupported(let what) = p.kind, !p.isConnectionOptional {
                throw AUPipeError(.unavailable, "\(unitName): \(plugin.identifier): port \(p.symbol) is a \(what), which aupipe does not support")
            }
        }
        if !plugin.missingFeatures.isEmpty {
            throw AUPipeError(.unavailable, "\(unitName): \(plugin.identifier) requires \(plugin.missingFeatures.joined(separator: ", ")), which aupipe does not provide")
        }
        self.plugin = plugin
        self.backend = backend
        self.unitName = unitName
        inputPorts = plugin.controlInputs
        outputPorts = plugin.controlOutputs
        var preset: [String: Float] = [:]
        var state: PluginState?
        if case .text(let name)? = parsed.value("preset"), !inputPorts.contains(where: { $0.symbol == "preset" }) {
            preset = try backend.presetValues(of: plugin, preset: name)
            state = try backend.presetState(of: plugin, preset: name)
        }
        self.state = state
        var values: [Float] = [], given: [Bool] = []
        for p in inputPorts {
            if parsed.explicit.contains(p.symbol), case .number(let v)? = parsed.value(p.symbol) {
                values.append(Float(v)); given.append(true)
            } else if let v = preset[p.symbol] {
                values.append(v); given.append(true)
            } else {
                values.append(p.isDefaultSampleRateRelative ? .nan : Self.defaultValue(of: p)); given.append(false)
            }
        }
        self.values = values
        self.given = given
    }

    deinit {
        if active { for i in instances { i.deactivate() } }
        // The instances are cleaned up before the planes they were connected to are freed.
        perChannel = nil
        instances = []
        aupipe_divert_stray_stdout()
        controls?.deallocate()
        outputs?.deallocate()
    }

    /// A port's default: the plugin's, else 0 moved into the range (the lower bound, else the upper).
    package static func defaultValue(of p: PluginPort) -> Float {
        var v = p.defaultValue ?? 0
        if let lo = p.minimum, v < lo { v = lo }
        if let hi = p.maximum, v > hi { v = hi }
        return v
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        sampleRate = Double(context.input.sampleRate)
        let ins = plugin.audioInputs.count, outs = plugin.audioOutputs.count
        let perChannel: Bool
        if ins == channels, outs == channels {
            perChannel = false
        } else if ins == 1, outs == 1 {
            perChannel = true
        } else {
            throw AUPipeError.usage("\(unitName): \(plugin.identifier) has \(counted(ins, "audio input")) and \(counted(outs, "audio output")), "
                + "the stream \(counted(channels, "channel")): expected \(channels) in and \(channels) out"
                + (channels > 1 ? " (or 1 in and 1 out, run once per channel)" : "") + ", "
                + "found \(ins) in and \(outs) out" + (ins == outs && ins > 0 ? "; put convert channels=\(ins) before it" : ""))
        }
        // Sample-rate-relative ports: range-check what was given, compute the defaults.
        for (k, port) in inputPorts.enumerated() where port.isSampleRateRelative || port.isDefaultSampleRateRelative {
            let p = port.resolved(atSampleRate: sampleRate)
            let range = PluginControlRange(port), bounds = range.bounds(atRate: sampleRate)
            if given[k], port.isSampleRateRelative,
               let problem = range.rangeProblem(Double(values[k]), minimum: bounds.minimum, maximum: bounds.maximum, atRate: sampleRate) {
                throw AUPipeError(.usage, "\(unitName): \(port.symbol)=\(Self.format(values[k])) \(problem)",
                                  cause: .parameter(owner: unitName, name: port.symbol, .outOfRange))
            }
            if !given[k] { values[k] = Self.defaultValue(of: p) }
        }
        blockLength = try PluginRunLength.frames(for: plugin, atRate: sampleRate, unitName: unitName)
        let settings = PluginHostSettings(sampleRate: sampleRate, minBlockLength: blockLength,
                                          maxBlockLength: blockLength, nominalBlockLength: blockLength)
        let count = perChannel ? channels : 1
        // The instances' audio ports are connected once to the planes of the runs.
        let runFrames = Self.frameNeeds(perChannel: perChannel, latency: outputPorts.contains { $0.isLatency })
            .fixedFrames(blockLength, channels: channels, layout: .planar)
        runFrames.replacesNonFinite = true
        self.runFrames = runFrames
        if perChannel {
            // Instance c of N mono instances serves channel c.
            let (input, output) = (plugin.audioInputs[0].index, plugin.audioOutputs[0].index)
            let mono = try PerChannel(channels: channels, maxFrames: blockLength) { [backend, plugin] c in
                PluginChannel(try backend.instantiate(plugin, settings: settings), audioInput: input, to: runFrames.plane(c),
                              audioOutput: output, to: runFrames.outputPlane(c))
            }
            self.perChannel = mono
            instances = mono.instances.map(\.instance)
        } else {
            let instance = try backend.instantiate(plugin, settings: settings)
            for (c, port) in plugin.audioInputs.enumerated() { instance.connect(port: port.index, to: runFrames.plane(c)) }
            for (c, port) in plugin.audioOutputs.enumerated() { instance.connect(port: port.index, to: runFrames.outputPlane(c)) }
            instances = [instance]
        }
        let controls = UnsafeMutablePointer<Float>.allocate(capacity: max(1, inputPorts.count))
        controls.initialize(repeating: 0, count: max(1, inputPorts.count))
        for k in 0..<inputPorts.count { controls[k] = values[k] }
        let outputs = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count * outputPorts.count))
        outputs.initialize(repeating: 0, count: max(1, count * outputPorts.count))
        self.controls = controls
        self.outputs = outputs
        latencyIndex = outputPorts.firstIndex { $0.isLatency }
        for (i, instance) in instances.enumerated() {
            for (k, port) in inputPorts.enumerated() { instance.connect(port: port.index, to: controls + k) }
            for (k, port) in outputPorts.enumerated() { instance.connect(port: port.index, to: outputs + i * outputPorts.count + k) }
        }
        if let state {
            for k in 0..<instances.count { try instances[k].restore(state) }
        }
        for i in instances { i.activate() }
        active = true
        aupipe_divert_stray_stdout()
        return context.input
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { inputFrames + blockLength }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let runFrames else { return 0 }
        let written = try runFrames.push(input, frames: frames, into: output) { try runBlock() }
        if let r = runFrames.takeReplaced() { replacedNonFinite(r.count, at: r.firstFrame) }
        return written
    }

    /// After the end: zeros through the plugin until every input frame has its output (the
    /// latency's tail, the rest of a part-filled run), as many runs as `capacity` holds.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let runFrames else { return (0, true) }
        let (written, done) = try runFrames.drain(into: output, capacity: capacity) { try runBlock() }
        if let r = runFrames.takeReplaced() { replacedNonFinite(r.count, at: r.firstFrame) }
        return (written, done)
    }

    /// Runs every instance on one run of `runFrames.frame` into `runFrames.frameOut`; reads
    /// the latency port. Throws when the first latency reported is not a number of frames that
    /// can be compensated (not finite, negative, more than `maximumLatency`): a whole number
    /// is expected, a fraction is rounded.
    private func runBlock() throws {
        guard let runFrames else { return }
        let b = blockLength
        if let perChannel {
            try perChannel.runPlanar(runFrames.frame, into: runFrames.frameOut, stride: b, frames: b)
        } else {
            // An index loop: iterating an array of existentials allocates in unoptimized builds.
            for k in 0..<instances.count { instances[k].run(frames: b) }
        }
        // What a plugin printed on stdout goes to stderr, never into the audio.
        aupipe_divert_stray_stdout()
        runs += 1
        guard let latencyIndex, let outputs else { return }
        let reported = outputs[latencyIndex]
        if latency == nil {
            // The first value is compensated: it must be a number of frames aupipe can wait for.
            let limit = Self.maximumLatency(atRate: sampleRate)
            guard reported.isFinite, reported.rounded() >= 0, reported.rounded() <= Float(limit) else {
                throw AUPipeError(.software, "\(unitName): \(plugin.identifier) reported a latency of \(Self.format(reported)) frames, "
                                  + "which cannot be compensated (0 to \(limit) frames, 10 s, expected); the plugin is faulty: use another")
            }
            let l = Int(reported.rounded())
            latency = l
            runFrames.setLatency(l)
        } else {
            let l = reported.isFinite ? Int(max(0, min(reported.rounded(), Float(Int32.max)))) : -1
            if l != latency, laterLatency == nil { laterLatency = l }
        }
    }

    /// What a plugin needs of the chain: runs of one length (`PluginRunLength`, 1 to
    /// `PluginRunLength.largest` frames, a power of two where the plugin's limits allow one);
    /// one instance per channel for a mono plugin; its reported latency trimmed.
    package static func frameNeeds(perChannel: Bool, latency: Bool) -> FrameNeeds {
        FrameNeeds(frames: .fixed(1...PluginRunLength.largest), perChannel: perChannel, latency: latency)
    }

    /// The largest latency compensated: 10 seconds of frames at `rate` (a look-ahead or a
    /// linear-phase filter reports well under a second; more is a faulty plugin).
    package static func maximumLatency(atRate rate: Double) -> Int { Int(max(1, rate) * 10) }

    /// A plugin's NaN or infinite samples are replaced by 0 on their way out (they would poison
    /// every unit after it, and a float output): counted for `--stats`, and said once on stderr
    /// with the stream time of the first.
    private func replacedNonFinite(_ count: Int, at frame: Int64) {
        if nonFinite == 0 {
            let at = sampleRate > 0 ? Double(frame) / sampleRate : 0
            warn("aupipe: \(unitName): warning: \(plugin.identifier) output NaN or infinite samples from \(String(format3: at)) s; they are replaced by 0 (--stats counts them)")
        }
        nonFinite += Int64(count)
    }

    // MARK: live control

    private func inputIndex(_ name: String) -> Int? {
        inputPorts.firstIndex { $0.symbol == name } ?? inputPorts.firstIndex { $0.symbol.lowercased() == name.lowercased() }
    }

    private func outputIndex(_ name: String) -> Int? {
        outputPorts.firstIndex { $0.symbol == name } ?? outputPorts.firstIndex { $0.symbol.lowercased() == name.lowercased() }
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let k = inputIndex(name), case .number(let v) = value else { throw AUPipeError.usage("\(unitName): \(name) is not an input port") }
        let port = inputPorts[k]
        if port.isSampleRateRelative, sampleRate > 0 {
            let range = PluginControlRange(port), bounds = range.bounds(atRate: sampleRate)
            if let problem = range.rangeProblem(v, minimum: bounds.minimum, maximum: bounds.maximum, atRate: sampleRate) {
                throw AUPipeError.usage("\(unitName): \(port.symbol)=\(PluginControlRange.text(v)) \(problem)")
            }
        }
        values[k] = Float(v)
        controls?[k] = Float(v)
    }

    /// The output control ports (a meter, a gain reduction, the latency): read with `get`.
    public var readableFigures: [String] { outputPorts.map(\.symbol) }

    public func parameterValue(_ name: String) -> String? {
        if let k = inputIndex(name) { return values[k].isNaN ? nil : Self.format(values[k]) }
        if let k = outputIndex(name), let outputs {
            return (0..<instances.count).map { Self.format(outputs[$0 * outputPorts.count + k]) }.joined(separator: ",")
        }
        return nil
    }

    /// A float as short as it reads back (`0.5`, `-12`, `0.3`).
    package static func format(_ v: Float) -> String {
        if v == v.rounded(), abs(v) < 1e9 { return String(Int(v)) }
        return "\(v)"
    }

    // MARK: stats

    public var statsNote: String? {
        var parts: [String] = []
        if let latency {
            parts.append("latency \(counted(latency, "frame")) compensated" + (laterLatency.map { " (later reported \($0); not applied)" } ?? ""))
        }
        if instances.count > 1 { parts.append("\(instances.count) instances, one per channel") }
        parts.append("runs of \(blockLength) frames")
        if nonFinite > 0 { parts.append("\(counted(Int(nonFinite), "NaN or infinite sample")) replaced by 0") }
        let shown = outputPorts.filter { !$0.isLatency }.compactMap { p in parameterValue(p.symbol).map { "\(p.symbol)=\($0)" } }
        parts += shown
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    public var statsFigures: [StatsFigure] {
        guard let outputs else { return [] }
        var figures: [StatsFigure] = []
        if let latency { figures.append(StatsFigure("latency", Double(latency))) }
        if nonFinite > 0 { figures.append(StatsFigure("nonFiniteReplaced", Double(nonFinite))) }
        // An output port is an array over instances whatever their count, so that a figure
        // keeps its key and shape from mono to stereo (`.figures.level[0]`).
        for (k, p) in outputPorts.enumerated() where !p.isLatency {
            figures.append(StatsFigure(p.symbol, values: (0..<instances.count).map { PluginControlRange.double(outputs[$0 * outputPorts.count + k]) }))
        }
        return figures
    }
}
