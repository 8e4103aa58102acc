import Testing
import Synchronization
import AUPipeKit

/// `PluginUnit` through a fake backend whose instances record every `run`: fixed and
/// power-of-two block lengths, exact length, latency compensation, presets, live ports; and the
/// naming rules (lookup, LADSPA symbols). The fake is registered as the `lv2` standard, so these
/// also show that a backend alone makes a unit.
@Suite struct PluginUnitTests {
    /// What the fake instances did: the frames of every run, in order.
    final class Recorder: Sendable {
        let runs = Mutex<[Int]>([])
        func record(_ frames: Int) { runs.withLock { $0.append(frames) } }
    }

    /// A mono plugin: output = input delayed by `delay` frames, times the `gain` port; reports
    /// `delay` on a latency port and the block's peak on `peak`.
    final class FakeInstance: PluginInstance {
        let delay: Int
        /// From the 10th run on, the latency port reports this instead of `delay` (nil: never).
        let laterLatency: Int?
        let recorder: Recorder
        var ports: [UInt32: UnsafeMutablePointer<Float>] = [:]
        var line: [Float]
        var position = 0
        var runs = 0

        init(delay: Int, laterLatency: Int?, recorder: Recorder) {
            self.delay = delay
            self.laterLatency = laterLatency
            self.recorder = recorder
            line = [Float](repeating: 0, count: max(1, delay))
        }

        func connect(port index: UInt32, to data: UnsafeMutablePointer<Float>) { ports[index] = data }
        func activate() {}
        func deactivate() {}
        func run(frames: Int) {
            recorder.record(frames)
            let input = ports[0]!, output = ports[1]!, gain = ports[2]!.pointee
            var peak: Float = 0
            for i in 0..<frames {
                let x = input[i]
                if delay == 0 {
                    output[i] = x * gain
                } else {
                    output[i] = line[position] * gain
                    line[position] = x
                    position = (position + 1) % delay
                }
                peak = max(peak, abs(x))
            }
            runs += 1
            ports[3]!.pointee = Float(runs >= 10 ? laterLatency ?? delay : delay)
            ports[4]!.pointee = peak
        }
    }

    struct FakeBackend: PluginBackend {
        var standard: PluginStandard { .lv2 }
        var fixed = false
        var powerOf2 = false
        var delay = 0
        var laterLatency: Int?
        var missingFeatures: [String] = []
        var extraPorts: [PluginPort] = []
        let recorder = Recorder()

        var plugin: PluginInfo {
            PluginInfo(standard: .lv2, identifier: "urn:aupipe:test#delay", name: "Test Delay", libraryPath: "/nowhere",
                       ports: [PluginPort(index: 0, symbol: "in", name: "In", kind: .audioInput),
                               PluginPort(index: 1, symbol: "out", name: "Out", kind: .audioOutput),
                               PluginPort(index: 2, symbol: "gain", name: "Gain", kind: .controlInput, minimum: 0, maximum: 4, defaultValue: 1),
                               PluginPort(index: 3, symbol: "latency", name: "Latency", kind: .controlOutput, isLatency: true),
                               PluginPort(index: 4, symbol: "peak", name: "Peak", kind: .controlOutput)] + extraPorts,
                       missingFeatures: missingFeatures, needsFixedBlockLength: fixed, needsPowerOf2BlockLength: powerOf2,
                       presets: [PluginPreset(name: "Half", uri: "urn:aupipe:test#half")])
        }

        func discover() throws -> [PluginInfo] { [plugin] }
        func instantiate(_ plugin: PluginInfo, settings: PluginHostSettings) throws -> any PluginInstance {
            if fixed { precondition(settings.minBlockLength == settings.maxBlockLength) }
            return FakeInstance(delay: delay, laterLatency: laterLatency, recorder: recorder)
        }
        func presetValues(of plugin: PluginInfo, preset: String) throws -> [String: Float] {
            guard preset.lowercased() == "half" else { throw AUPipeError.usage("no preset \(preset)") }
            return ["gain": 0.5]
        }
    }

    static func registry(_ backend: FakeBackend) -> UnitRegistry {
        UnitRegistry(providers: [BuiltInUnits(), PluginUnits(backends: [backend])])
    }

    /// Runs `chain` on 9001 frames of stereo tones in f32, `block` frames per step; the output
    /// samples, and the input's.
    static func run(_ chain: [[String]], backend: FakeBackend, block: Int) throws -> (output: [Float], input: [Float]) {
        let format = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
        let samples = TestSignals.tones(frames: 9001, rate: 48000, channels: 2)
        var options = PipelineOptions()
        options.block = .frames(block)
        let sink = MemorySink()
        let report = try Pipeline(chain: chain, options: options, registry: registry(backend))
            .run(source: MemorySource(TestSignals.wav(samples, format)), sink: sink)
        #expect(report.framesOut == 9001, "the stream lost or gained frames")
        return (TestSignals.decode(TestSignals.audio(sink.bytes, report), .f32le), samples)
    }

    /// Whatever the chain's block, every run is the plugin run length (512 frames at 48 kHz), the
    /// latency is compensated and the output is the same.
    @Test(arguments: [1, 7, 480, 1000, 4096])
    func everyRunIsTheRunLengthWhateverTheBlock(block: Int) throws {
        for fixed in [false, true] {
            var backend = FakeBackend()
            backend.fixed = fixed
            backend.delay = 37
            let (output, input) = try Self.run([["lv2", "delay", "gain=2"]], backend: backend, block: block)
            let runs = backend.recorder.runs.withLock { $0 }
            #expect(!runs.isEmpty && runs.allSatisfy { $0 == 512 }, "runs of \(Set(runs).sorted()) frames, not all 512")
            #expect(output == input.map { $0 * 2 }, "latency not compensated, or samples lost")
        }
    }

    /// The run length: 10 ms as a power of two, the plugin's nominal length, its limits, and a
    /// power of two where the limits allow one.
    @Test func theRunLengthFollowsTheRateAndThePluginsLimits() throws {
        func length(_ rate: Double, min: Int? = nil, max: Int? = nil, nominal: Int? = nil, powerOf2: Bool = false) throws -> Int {
            let p = PluginInfo(standard: .lv2, identifier: "urn:x", name: "X", libraryPath: "/x", ports: [],
                               needsPowerOf2BlockLength: powerOf2, minimumBlockLength: min, maximumBlockLength: max, nominalBlockLength: nominal)
            return try PluginRunLength.frames(for: p, atRate: rate, unitName: "lv2")
        }
        #expect(try length(48000) == 512 && length(44100) == 512 && length(8000) == 128 && length(96000) == 1024 && length(768000) == 8192)
        #expect(try length(48000, min: 64, max: 8192) == 512)
        #expect(try length(48000, min: 1000, max: 1000) == 1000)
        #expect(try length(48000, min: 600, max: 1000) == 600)
        #expect(try length(48000, min: 600, max: 1100) == 1024)
        #expect(try length(48000, max: 100) == 64)
        #expect(try length(48000, nominal: 300) == 300)
        #expect(try length(48000, nominal: 300, powerOf2: true) == 512)
        #expect(throws: AUPipeError(.unavailable, "lv2: urn:x needs power-of-two runs of 600 to 1000 frames, and no power of two lies there (bufsz:minBlockLength 600, bufsz:maxBlockLength 1000); use another plugin")) {
            try length(48000, min: 600, max: 1000, powerOf2: true)
        }
        #expect(throws: AUPipeError(.unavailable, "lv2: urn:x needs runs of 2000 to 1000 frames, which no length meets (bufsz:minBlockLength 2000, bufsz:maxBlockLength 1000); use another plugin")) {
            try length(48000, min: 2000, max: 1000)
        }
        #expect(throws: AUPipeError(.unavailable, "lv2: urn:x needs runs of at least 100000 frames, more than aupipe's 65536 (bufsz:minBlockLength 100000, bufsz:maxBlockLength unstated); use another plugin")) {
            try length(48000, min: 100000)
        }
    }

    /// A latency that changes mid-stream: the first value stays compensated, the later one is
    /// reported by --stats.
    @Test func aLaterLatencyIsReportedNotApplied() throws {
        var backend = FakeBackend()
        backend.delay = 5
        backend.laterLatency = 9
        let format = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 1)
        // 16 runs of 512 frames: the latency changes from the 10th; the tail is one run of zeros.
        let samples = (0..<8192).map { Float($0 % 100) / 100 }
        var options = PipelineOptions()
        options.block = .frames(100)
        options.stats = .text
        let sink = MemorySink()
        let report = try Pipeline(chain: [["lv2", "delay"]], options: options, registry: Self.registry(backend))
            .run(source: MemorySource(TestSignals.wav(samples, format)), sink: sink)
        #expect(TestSignals.decode(TestSignals.audio(sink.bytes, report), .f32le) == samples)
        #expect(report.stages.first?.note?.contains("latency 5 frames compensated (later reported 9; not applied)") == true, "\(report.stages)")
        #expect(report.stages.first?.figures.contains(StatsFigure("peak", values: [0])) == true, "the last run (the tail's zeros) has peak 0")
    }

    @Test func aPresetSetsPortsAndTheCommandLineOverridesIt() throws {
        let backend = FakeBackend()
        let (half, input) = try Self.run([["lv2", "delay", "preset=half"]], backend: backend, block: 480)
        #expect(half == input.map { $0 * 0.5 })
        let (given, _) = try Self.run([["lv2", "delay", "preset=Half", "gain=3"]], backend: backend, block: 480)
        #expect(given == input.map { $0 * 3 })
        #expect(throws: AUPipeError.self) { try Self.run([["lv2", "delay", "preset=loud"]], backend: backend, block: 480) }
    }

    @Test func portsAreLiveParametersThroughControl() throws {
        let pipeline = try Pipeline(chain: [["lv2", "delay", "name=d"]], options: PipelineOptions(), registry: Self.registry(FakeBackend()))
        #expect(pipeline.control("set d.gain 0.25") == "ok d.gain 0.25")
        #expect(pipeline.control("get lv2.gain") == "lv2.gain 0.25")
        #expect(pipeline.control("set d.gain 5") == "error: lv2: gain=5 is out of range 0...4")
        #expect(pipeline.control("list").contains("1.gain (d) 0.25"))
    }

    @Test func aMissingFeatureOrAnUnsupportedPortIsOneLineWith69() throws {
        var backend = FakeBackend()
        backend.missingFeatures = ["http://lv2plug.in/ns/ext/state#mapPath"]
        #expect(throws: AUPipeError(.unavailable, "lv2: urn:aupipe:test#delay requires http://lv2plug.in/ns/ext/state#mapPath, which aupipe does not provide")) {
            try Pipeline(chain: [["lv2", "delay"]], options: PipelineOptions(), registry: Self.registry(backend))
        }
        backend.missingFeatures = []
        backend.extraPorts = [PluginPort(index: 5, symbol: "mod", name: "Mod", kind: .unsupported("CV input"))]
        #expect(throws: AUPipeError(.unavailable, "lv2: urn:aupipe:test#delay: port mod is a CV input, which aupipe does not support")) {
            try Pipeline(chain: [["lv2", "delay"]], options: PipelineOptions(), registry: Self.registry(backend))
        }
        // A connection-optional port of that kind is left unconnected: the plugin runs.
        backend.extraPorts = [PluginPort(index: 5, symbol: "mod", name: "Mod", kind: .unsupported("CV input"), isConnectionOptional: true)]
        let (output, input) = try Self.run([["lv2", "delay"]], backend: backend, block: 480)
        #expect(output == input)
    }

    @Test func pluginsAreNamedByAUniquePart() throws {
        func info(_ id: String, _ name: String, label: String? = nil, uid: UInt? = nil) -> PluginInfo {
            PluginInfo(standard: .ladspa, identifier: id, name: name, label: label, uniqueID: uid, libraryPath: "/x", ports: [])
        }
        let all = [info("amp:amp_mono", "Mono Amplifier", label: "amp_mono", uid: 1048),
                   info("amp:amp_stereo", "Stereo Amplifier", label: "amp_stereo", uid: 1049),
                   info("delay:delay_5s", "Simple Delay Line", label: "delay_5s", uid: 1043)]
        #expect(try PluginLookup.find("AMP_MONO", in: all, standard: .ladspa).identifier == "amp:amp_mono")
        #expect(try PluginLookup.find("1049", in: all, standard: .ladspa).identifier == "amp:amp_stereo")
        #expect(try PluginLookup.find("delay line", in: all, standard: .ladspa).identifier == "delay:delay_5s")
        #expect(try PluginLookup.find("stereo", in: all, standard: .ladspa).identifier == "amp:amp_stereo")
        #expect(throws: AUPipeError.usage("ladspa: 'amplifier' matches 2 plugins: amp:amp_mono (Mono Amplifier), amp:amp_stereo (Stereo Amplifier); name one of them")) {
            try PluginLookup.find("amplifier", in: all, standard: .ladspa)
        }
        #expect(throws: AUPipeError.usage("ladspa: no plugin 'amp_mno'; did you mean 'amp_mono'? ('aupipe plugins ladspa' lists the installed ones)")) {
            try PluginLookup.find("amp_mno", in: all, standard: .ladspa)
        }
        #expect(throws: AUPipeError.self) { try PluginLookup.find("x", in: [], standard: .ladspa) }
    }

    @Test func ladspaSymbolsComeFromPortNames() {
        #expect(PluginPort.symbols(forNames: ["Gain", "Gain (dB)", "1st order", "Gain", "---", "Delay (Seconds)"])
                == ["gain", "gain_db", "_1st_order", "gain_2", "port", "delay_seconds"])
    }

    @Test func sampleRateRelativePortsResolveAtTheRate() {
        var p = PluginPort(index: 0, symbol: "f", name: "F", kind: .controlInput, minimum: 0, maximum: 0.5, defaultValue: 0.25)
        p.isSampleRateRelative = true
        p.isDefaultSampleRateRelative = true
        let r = p.resolved(atSampleRate: 48000)
        #expect(r.minimum == 0 && r.maximum == 24000 && r.defaultValue == 12000 && !r.isSampleRateRelative)
    }
}
