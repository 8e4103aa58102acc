import Foundation
import Testing
import TestScratch
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// The LV2 backend against the plugins `scripts/install-deps test` installs (lv2-examples,
/// x42-plugins, swh-lv2, lilv-utils): discovery, instances driven by the test's own loop,
/// presets, lilv's own `lv2ls` and `lv2apply` as references, and lilv missing.
///
/// Serialized: two tests change `LV2_PATH` and `AUPIPE_LILV_LIBRARY` for the process.
@Suite(.serialized) struct LV2BackendTests {
    static let egAmp = "http://lv2plug.in/plugins/eg-amp"
    static let dplMono = "http://gareus.org/oss/lv2/dpl#mono"
    static let egSampler = "http://lv2plug.in/plugins/eg-sampler"
    static let buttlow = "http://plugin.org.uk/swh-plugins/buttlow_iir"
    static let linearScale = "http://gareus.org/oss/lv2/controlfilter#linearscale"

    let backend = LV2Backend()

    func plugin(_ uri: String) throws -> PluginInfo {
        try #require(try backend.discover().first { $0.identifier == uri }, "\(uri) is installed")
    }

    /// Runs a plugin with one audio input and one audio output over `input`, `block` frames per
    /// `run`, controls at their defaults unless `controls` sets them. Returns the output and the
    /// output control ports' values after the last run.
    func process(_ info: PluginInfo, _ input: [Float], block: Int, rate: Double = 48000,
                 controls: [String: Float] = [:]) throws -> (output: [Float], outputs: [String: Float]) {
        let settings = PluginHostSettings(sampleRate: rate, minBlockLength: 1, maxBlockLength: block, nominalBlockLength: block)
        let instance = try backend.instantiate(info, settings: settings)
        let audioIn = try #require(info.audioInputs.first), audioOut = try #require(info.audioOutputs.first)
        let inBuffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let outBuffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
        let values = UnsafeMutablePointer<Float>.allocate(capacity: max(info.ports.count, 1))
        defer { inBuffer.deallocate(); outBuffer.deallocate(); values.deallocate() }
        values.initialize(repeating: 0, count: max(info.ports.count, 1))
        for port in info.ports where port.kind == .controlInput || port.kind == .controlOutput {
            values[Int(port.index)] = controls[port.symbol] ?? port.defaultValue ?? port.minimum ?? 0
            instance.connect(port: port.index, to: values + Int(port.index))
        }
        instance.connect(port: audioIn.index, to: inBuffer)
        instance.connect(port: audioOut.index, to: outBuffer)
        instance.activate()
        var output: [Float] = []
        output.reserveCapacity(input.count)
        var at = 0
        while at < input.count {
            let n = min(block, input.count - at)
            for i in 0..<n { inBuffer[i] = input[at + i] }
            instance.run(frames: n)
            for i in 0..<n { output.append(outBuffer[i]) }
            at += n
        }
        instance.deactivate()
        var outputs: [String: Float] = [:]
        for port in info.controlOutputs { outputs[port.symbol] = values[Int(port.index)] }
        return (output, outputs)
    }

    /// Runs `command` through the shell, guarded by a timeout; its stdout and status.
    static func shell(_ command: String) -> (output: String, status: Int32) {
        guard let pipe = popen("timeout -s KILL 60 \(command)", "r") else { return ("", -1) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, pipe)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        let status = pclose(pipe)
        return (String(decoding: bytes, as: UTF8.self), (status >> 8) & 0xff)
    }

    static func temporaryDirectory() -> String {
        var template = Array(TestScratch.root.appendingPathComponent("aupipe-lv2-XXXXXX").path.utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func discoveryFindsEgAmpWithItsGainPort() throws {
        let amp = try plugin(Self.egAmp)
        #expect(amp.standard == .lv2)
        #expect(amp.name == "Simple Amplifier")
        #expect(amp.libraryPath.hasPrefix("/") && amp.libraryPath.hasSuffix(".so"))
        #expect(amp.audioInputs.count == 1 && amp.audioOutputs.count == 1)
        #expect(amp.missingFeatures.isEmpty)
        #expect(amp.latencyPort == nil)
        let gain = try #require(amp.controlInputs.first)
        #expect(amp.controlInputs.count == 1)
        #expect(gain.symbol == "gain")
        #expect(gain.minimum == -90 && gain.maximum == 24 && gain.defaultValue == 0)
        #expect(gain.unit == "dB")
    }

    /// A plugin named by its full URI is described alone: no other plugin's data is read (the
    /// expensive part of discovery), until a listing needs them all. An unknown URI is nil
    /// (the host then discovers everything, for its did-you-mean).
    @Test func aPluginNamedByItsURIIsDescribedAlone() throws {
        // A search path of its own: worlds are kept per path, and other tests list theirs.
        let path = "/usr/lib/lv2:/nonexistent/aupipe-described-alone"
        let world = try LV2World.world(searchPath: path)
        let alone = try #require(LV2Backend(searchPath: path).plugin(withIdentifier: "http://lv2plug.in/plugins/eg-amp"))
        #expect(alone.ports.contains { $0.symbol == "gain" })
        #expect(!world.describedEvery && world.describedAlone == 1)
        #expect(LV2Backend(searchPath: path).plugin(withIdentifier: "http://example.org/no-such-plugin") == nil)
        let all = try LV2Backend(searchPath: path).discover()
        #expect(world.describedEvery && all.count > 1)
        let listed = try #require(all.first { $0.identifier == alone.identifier })
        #expect(listed.name == alone.name && listed.ports.map(\.symbol) == alone.ports.map(\.symbol))
    }

    @Test func discoveryReadsTheDigitalPeakLimiter() throws {
        let dpl = try plugin(Self.dplMono)
        let latency = try #require(dpl.latencyPort)
        #expect(latency.symbol == "latency" && latency.isInteger)
        #expect(dpl.ports.filter { $0.kind == .atomInput }.map(\.symbol) == ["control"])
        #expect(dpl.ports.filter { $0.kind == .atomOutput }.map(\.symbol) == ["notify"])
        #expect(dpl.requiredFeatures.contains("http://lv2plug.in/ns/ext/urid#map"))
        #expect(dpl.missingFeatures.isEmpty)
        #expect(dpl.audioInputs.count == 1 && dpl.audioOutputs.count == 1)
        let enable = try #require(dpl.controlInputs.first { $0.symbol == "enable" })
        #expect(enable.isToggled && enable.minimum == 0 && enable.maximum == 1 && enable.defaultValue == 1)
        let release = try #require(dpl.controlInputs.first { $0.symbol == "release" })
        #expect(release.isLogarithmic)
        #expect(dpl.ports.map(\.index) == Array(0..<UInt32(dpl.ports.count)))
    }

    @Test func discoveryAgreesWithLv2ls() throws {
        let found = Set(try backend.discover().map(\.identifier))
        let listed = Self.shell("lv2ls")
        #expect(listed.status == 0)
        let uris = listed.output.split(separator: "\n").map(String.init)
        #expect(uris.count > 100)
        #expect(uris.filter { !found.contains($0) } == [])
        #expect(found.count == uris.count)
        let identifiers = try backend.discover().map(\.identifier)
        #expect(identifiers == identifiers.sorted())
    }

    @Test func sampleRateRelativePortsAreNamed() throws {
        let filter = try plugin(Self.buttlow)
        let cutoff = try #require(filter.controlInputs.first { $0.symbol == "cutoff" })
        #expect(cutoff.isSampleRateRelative && cutoff.isDefaultSampleRateRelative)
        #expect(cutoff.maximum == 0.45)
        #expect(cutoff.resolved(atSampleRate: 48000).maximum == 0.45 * 48000)
        #expect(try plugin(Self.egAmp).ports.allSatisfy { !$0.isSampleRateRelative })
    }

    @Test func egAmpAtMinus6dBScalesEverySample() throws {
        let amp = try plugin(Self.egAmp)
        let input = TestSignals.tones(frames: 480, rate: 48000, channels: 1, level: 0.8)
        let (output, _) = try process(amp, input, block: 480, controls: ["gain": -6])
        let coefficient = powf(10, -6 * 0.05)
        #expect(output.count == 480)
        let worst = zip(input, output).map { abs($1 - $0 * coefficient) }.max() ?? 1
        #expect(worst <= Float.ulpOfOne)
        #expect(abs(coefficient - Float(pow(10.0, -6.0 / 20))) < 1e-6)
    }

    @Test func digitalPeakLimiterKeepsAnImpulseWhereItsLatencySays() throws {
        let dpl = try plugin(Self.dplMono)
        // One run of silence, to read the latency the plugin reports.
        let (_, reported) = try process(dpl, [Float](repeating: 0, count: 64), block: 64)
        let latency = Int(try #require(reported["latency"]))
        #expect(latency > 0 && latency < 4096)
        var input = [Float](repeating: 0, count: 8192)
        input[1000] = 0.5
        let (output, outputs) = try process(dpl, input, block: 256)
        #expect(outputs["latency"] == Float(latency))
        let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
        #expect(peak == 1000 + latency)
        #expect(abs(output[peak] - 0.5) < 1e-3)
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let dpl = try plugin(Self.dplMono)
        let input = TestSignals.tones(frames: 9600, rate: 48000, channels: 1, level: 1)
        let first = try process(dpl, input, block: 480, controls: ["gain": 12, "threshold": -6])
        let second = try process(dpl, input, block: 480, controls: ["gain": 12, "threshold": -6])
        #expect(first.output == second.output)
        // The limiter worked: nothing above -6 dBFS (with its 12 dB of input gain).
        #expect((first.output.map { abs($0) }.max() ?? 1) <= powf(10, -6 * 0.05) + 1e-4)
    }

    /// Every installed plugin that aupipe can host instantiates, runs a few blocks of silence
    /// with every port connected (controls at their defaults) and gives finite audio.
    @Test func everyHostablePluginRuns() throws {
        let block = 256
        var ran = 0
        for info in try backend.discover() where info.missingFeatures.isEmpty {
            let settings = PluginHostSettings(sampleRate: 48000, minBlockLength: 1, maxBlockLength: block, nominalBlockLength: block)
            let instance: any PluginInstance
            do {
                instance = try backend.instantiate(info, settings: settings)
            } catch let error as AUPipeError where error.message.contains("its library does not load") {
                // A broken package (swh-lv2's mbeq needs libfftw3f, which Debian 12 does not link):
                // told in one line, with status 69.
                #expect(error.status == .unavailable && !error.message.contains("\n"))
                continue
            }
            let audio = info.audioInputs.count + info.audioOutputs.count
            let buffers = UnsafeMutablePointer<Float>.allocate(capacity: max(audio, 1) * block)
            let controls = UnsafeMutablePointer<Float>.allocate(capacity: max(info.ports.count, 1))
            defer { buffers.deallocate(); controls.deallocate() }
            buffers.initialize(repeating: 0, count: max(audio, 1) * block)
            controls.initialize(repeating: 0, count: max(info.ports.count, 1))
            var next = 0
            for port in info.ports {
                switch port.kind {
                case .audioInput, .audioOutput:
                    instance.connect(port: port.index, to: buffers + next * block)
                    next += 1
                case .controlInput, .controlOutput:
                    controls[Int(port.index)] = port.defaultValue ?? port.minimum ?? 0
                    instance.connect(port: port.index, to: controls + Int(port.index))
                default: break
                }
            }
            instance.activate()
            for _ in 0..<4 {
                for i in 0..<(info.audioInputs.count * block) { buffers[i] = 0 }
                instance.run(frames: block)
            }
            instance.deactivate()
            let outputs = UnsafeBufferPointer(start: buffers + info.audioInputs.count * block, count: info.audioOutputs.count * block)
            let finite = outputs.allSatisfy { $0.isFinite }
            #expect(finite, "\(info.identifier)")
            ran += 1
        }
        #expect(ran > 200)
    }

    @Test func aPresetGivesItsPortValues() throws {
        let filter = try plugin(Self.linearScale)
        #expect(filter.presets.contains { $0.name == "out = 1 - in" })
        let values = try backend.presetValues(of: filter, preset: "OUT = 1 - IN")
        #expect(values == ["mult": -1, "add": 1])
        let preset = try #require(filter.presets.first { $0.name == "out = 1 - in" })
        #expect(try backend.presetValues(of: filter, preset: preset.uri.uppercased()) == values)
        do {
            _ = try backend.presetValues(of: filter, preset: "no such preset")
            Issue.record("an unknown preset was accepted")
        } catch let error as AUPipeError {
            #expect(error.status == .usage)
            #expect(error.message.contains("'no such preset'") && error.message.contains("'out = 1 - in'"))
        }
    }

    @Test func aMissingFeatureIsNamed() throws {
        let sampler = try plugin(Self.egSampler)
        let loadDefaultState = "http://lv2plug.in/ns/ext/state#loadDefaultState"
        #expect(sampler.missingFeatures == [loadDefaultState])
        #expect(sampler.requiredFeatures.contains("http://lv2plug.in/ns/ext/worker#schedule"))
        let settings = PluginHostSettings(sampleRate: 48000, minBlockLength: 1, maxBlockLength: 512, nominalBlockLength: 512)
        do {
            _ = try backend.instantiate(sampler, settings: settings)
            Issue.record("a plugin needing a missing feature was instantiated")
        } catch let error as AUPipeError {
            #expect(error.status == .unavailable)
            #expect(error.message == "lv2 \(Self.egSampler) needs \(loadDefaultState) which aupipe does not provide")
        }
    }

    @Test func theProvidedFeaturesAreTheHostsList() {
        #expect(LV2Backend.providedFeatures == [
            "http://lv2plug.in/ns/ext/urid#map",
            "http://lv2plug.in/ns/ext/urid#unmap",
            "http://lv2plug.in/ns/ext/options#options",
            "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength",
            "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength",
            "http://lv2plug.in/ns/ext/buf-size#powerOf2BlockLength",
            "http://lv2plug.in/ns/ext/buf-size#coarseBlockLength",
            "http://lv2plug.in/ns/ext/log#log",
            "http://lv2plug.in/ns/ext/worker#schedule",
        ])
    }

    /// A swh Butterworth low-pass at 1 kHz over a 16-bit WAV, through the backend (blocks of
    /// 256) and through lilv's `lv2apply` (one frame per run): within one LSB.
    @Test func matchesLv2applyWithinOneLSB() throws {
        let filter = try plugin(Self.buttlow)
        let frames = 9600
        let samples = TestSignals.tones(frames: frames, rate: 48000, channels: 1, level: 0.5)
            .map { Int16(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        let directory = Self.temporaryDirectory()
        defer { _ = Self.shell("rm -rf '\(directory)'") }
        let input = directory + "/in.wav", output = directory + "/out.wav"
        try Self.writeWAV(samples, rate: 48000, to: input)
        let applied = Self.shell("lv2apply -i '\(input)' -o '\(output)' -c cutoff 1000 -c resonance 1 '\(Self.buttlow)' 2>&1")
        #expect(applied.status == 0, "\(applied.output)")
        let reference = try Self.readWAV16(output)
        #expect(reference.count == frames)
        let (ours, _) = try process(filter, samples.map { Float($0) / 32768 }, block: 256, controls: ["cutoff": 1000, "resonance": 1])
        let quantised = ours.map { Int(max(-32768, min(32767, ($0 * 32768).rounded()))) }
        let worst = zip(quantised, reference).map { abs($0 - Int($1)) }.max() ?? .max
        #expect(worst <= 1)
        // The filter did filter: the output is not the input.
        #expect(zip(quantised, samples).contains { abs($0 - Int($1)) > 100 })
    }

    @Test func anEmptyLV2PathFindsNothing() throws {
        let directory = Self.temporaryDirectory()
        defer { _ = Self.shell("rm -rf '\(directory)'") }
        let saved = getenv("LV2_PATH").map { String(cString: $0) }
        setenv("LV2_PATH", directory, 1)
        defer { if let saved { setenv("LV2_PATH", saved, 1) } else { unsetenv("LV2_PATH") } }
        #expect(try LV2Backend().discover().isEmpty)
        #expect(try LV2Backend(searchPath: directory).discover().isEmpty)
    }

    @Test func withoutLilvTheErrorIsOneLineWithStatus69() throws {
        setenv("AUPIPE_LILV_LIBRARY", "libaupipe-no-such-lilv.so.0", 1)
        defer { unsetenv("AUPIPE_LILV_LIBRARY") }
        do {
            _ = try LV2Backend().discover()
            Issue.record("discovery worked without lilv")
        } catch let error as AUPipeError {
            #expect(error.status == .unavailable && error.status.rawValue == 69)
            #expect(!error.message.contains("\n"))
            #expect(error.message.hasPrefix("lv2 plugins need lilv's library (libaupipe-no-such-lilv.so.0 not found)"))
            #expect(error.message.contains("apt install liblilv-0-0"))
        }
    }

    static func writeWAV(_ samples: [Int16], rate: UInt32, to path: String) throws {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        let dataSize = UInt32(samples.count * 2)
        bytes += Array("RIFF".utf8); u32(36 + dataSize); bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        bytes += Array("data".utf8); u32(dataSize)
        for s in samples { u16(UInt16(bitPattern: s)) }
        let file = try #require(fopen(path, "wb"))
        defer { fclose(file) }
        #expect(fwrite(bytes, 1, bytes.count, file) == bytes.count)
    }

    /// The samples of a 16-bit mono WAV file, found by walking its chunks.
    static func readWAV16(_ path: String) throws -> [Int16] {
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[..<n] }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        try #require(bytes.count >= 12 && bytes[0..<4] == Array("RIFF".utf8)[...])
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = u32(at + 4)
            if id == "fmt " { #expect(bytes[at + 8 + 14] == 16, "16-bit") }
            if id == "data" {
                let end = min(bytes.count, at + 8 + size)
                return stride(from: at + 8, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
            }
            at += 8 + size + (size & 1)
        }
        Issue.record("no data chunk in \(path)")
        return []
    }
}
