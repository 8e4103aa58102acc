import Foundation
import Testing
import AUPipeKit

/// The host features the LV2 backend gives a plugin, read back from the probe
/// (`Support/lv2probe`: a test plugin whose output control ports report what its host gave
/// it), built with the C compiler into a bundle of its own and found through the backend's
/// search path: options, the worker run synchronously, atom buffers reset before every run,
/// an optional CV port left unconnected, log:log on stderr, bufsz:fixedBlockLength.
@Suite(.serialized) struct LV2HostFeatureTests {
    static let probeURI = "urn:aupipe:test:probe"

    /// The directory holding `probe.lv2` (an LV2_PATH for it), or nil if it would not build.
    static let probeSearchPath: String? = {
        guard let dir = try? CLI.temporaryDirectory() else { return nil }
        let support = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/lv2probe").path
        let bundle = dir.appendingPathComponent("probe.lv2").path
        let r = try? CLI.shell("""
            mkdir -p '\(bundle)' && cp '\(support)/manifest.ttl' '\(support)/probe.ttl' '\(bundle)/' && \
            cc=$(command -v gcc || command -v clang || command -v cc) && \
            "$cc" -O1 -shared -fPIC -o '\(bundle)/probe.so' '\(support)/probe.c'
            """)
        return r?.status == 0 ? dir.path : nil
    }()

    func probe() throws -> (LV2Backend, PluginInfo) {
        let path = try #require(Self.probeSearchPath, "could not build Support/lv2probe/probe.c (needs gcc)")
        let backend = LV2Backend(searchPath: path)
        let plugins = try backend.discover()
        #expect(plugins.map(\.identifier) == [Self.probeURI])
        return (backend, try #require(plugins.first))
    }

    /// Runs `frames` frames through `instance` in runs of `block`; the output and every control
    /// output by symbol.
    func run(_ backend: LV2Backend, _ info: PluginInfo, frames: Int, block: Int, rate: Double = 44100,
             fixed: Bool = false) throws -> (output: [Float], values: [String: Float], input: [Float]) {
        let settings = PluginHostSettings(sampleRate: rate, minBlockLength: fixed ? block : 1, maxBlockLength: block, nominalBlockLength: block)
        let instance = try backend.instantiate(info, settings: settings)
        let audioIn = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let audioOut = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let controls = UnsafeMutablePointer<Float>.allocate(capacity: info.ports.count)
        defer { audioIn.deallocate(); audioOut.deallocate(); controls.deallocate() }
        controls.initialize(repeating: 0, count: info.ports.count)
        for port in info.ports {
            switch port.kind {
            case .audioInput: instance.connect(port: port.index, to: audioIn)
            case .audioOutput: instance.connect(port: port.index, to: audioOut)
            case .controlInput, .controlOutput:
                controls[Int(port.index)] = port.defaultValue ?? 0
                instance.connect(port: port.index, to: controls + Int(port.index))
            default: break
            }
        }
        controls[8] = 1  // "sequences": stays 1 while every run finds its atom buffers reset
        instance.activate()
        let input = (0..<frames).map { Float(($0 * 7919) % 2001 - 1000) / 1000 }
        var output: [Float] = []
        var at = 0
        while at < frames {
            let n = min(block, frames - at)
            for i in 0..<n { audioIn[i] = input[at + i] }
            instance.run(frames: n)
            output += (0..<n).map { audioOut[$0] }
            at += n
        }
        instance.deactivate()
        var values: [String: Float] = [:]
        for port in info.controlOutputs { values[port.symbol] = controls[Int(port.index)] }
        return (output, values, input)
    }

    @Test func discoveryReadsTheProbesPorts() throws {
        let (_, info) = try probe()
        #expect(info.name == "Probe")
        #expect(Set(info.requiredFeatures) == ["http://lv2plug.in/ns/ext/urid#map", "http://lv2plug.in/ns/ext/options#options",
                                               "http://lv2plug.in/ns/ext/worker#schedule", "http://lv2plug.in/ns/ext/log#log"])
        #expect(info.missingFeatures.isEmpty)
        #expect(info.needsFixedBlockLength && !info.needsPowerOf2BlockLength)
        let cv = try #require(info.ports.first { $0.symbol == "cv" })
        #expect(cv.kind == .unsupported("CV input") && cv.isConnectionOptional)
        let mode = try #require(info.ports.first { $0.symbol == "mode" })
        #expect(mode.isInteger && mode.minimum == 0 && mode.maximum == 2 && mode.defaultValue == 1)
        #expect(mode.scalePoints == [PluginScalePoint(label: "Off", value: 0), PluginScalePoint(label: "On", value: 1),
                                     PluginScalePoint(label: "Auto", value: 2)])
        #expect(info.ports.first { $0.symbol == "amount" }?.unit == "wd")  // a unit's own units:symbol
        #expect(info.ports.first { $0.symbol == "rate" }?.unit == "Hz")
        #expect(info.ports.first { $0.symbol == "block" }?.unit == "frames")
        #expect(info.ports.first { $0.symbol == "sequences" }?.isToggled == true)
        #expect(info.ports.filter { $0.kind == .atomInput }.map(\.index) == [2])
        #expect(info.ports.filter { $0.kind == .atomOutput }.map(\.index) == [3])
    }

    @Test func theHostGivesOptionsWorkerAtomBuffersAndFixedBlocks() throws {
        let (backend, info) = try probe()
        let result = try run(backend, info, frames: 1000, block: 250, rate: 44100, fixed: true)
        #expect(result.output == result.input)
        #expect(result.values["rate"] == 44100)
        #expect(result.values["block"] == 250)
        // The notify port's rsz:minimumSize 16384 plus its atom header.
        #expect(result.values["seqsize"] == 16392)
        #expect(result.values["sequences"] == 1)
        #expect(result.values["cvnull"] == 1)
        #expect(result.values["fixed"] == 1)
        #expect(result.values["irregular"] == 0)
        #expect(result.values["activated"] == 1)
        // Every run scheduled work (frames); work() answered twice that; every answer was
        // delivered after its run, then end_run.
        #expect(result.values["worked"] == 2000)
        #expect(result.values["ended"] == 4)
    }

    @Test func aShortLastBlockIsSeenByThePlugin() throws {
        let (backend, info) = try probe()
        let result = try run(backend, info, frames: 1000, block: 256)
        #expect(result.values["irregular"] == 1)
        #expect(result.values["worked"] == 2000)
        #expect(result.values["ended"] == 4)
    }

    @Test func logWarningsReachStderrAndTracesDoNot() throws {
        let (backend, info) = try probe()
        let file = try CLI.temporaryDirectory().appendingPathComponent("stderr.txt").path
        let saved = dup(2)
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(saved >= 0 && fd >= 0)
        fflush(nil)
        dup2(fd, 2)
        setenv("AUPIPE_PROBE_LOG", "1", 1)
        let settings = PluginHostSettings(sampleRate: 48000, minBlockLength: 1, maxBlockLength: 64, nominalBlockLength: 64)
        let instance = try? backend.instantiate(info, settings: settings)
        unsetenv("AUPIPE_PROBE_LOG")
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(fd)
        #expect(instance != nil)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("aupipe: lv2 urn:aupipe:test:probe: probe says hello\n"))
        #expect(!text.contains("probe traces"))
    }
}
