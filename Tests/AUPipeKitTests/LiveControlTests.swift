import Foundation
import TestScratch
import Testing
import AUPipeKit

/// Live control in process (`ScheduledControl`): control lines run between two blocks at
/// known stream frames, so where and how a change lands is asserted to the frame, with no
/// clock and no binary. The control FIFO itself (its lines, its replies on stderr, its removal)
/// is tested once through the binary (CLITests' `LiveTests.controlFIFOSmokeTest`).
///
/// The stream is 16 kHz mono s16 in blocks of 160 frames (10 ms), a constant 16448 (0x4040)
/// unless a test says otherwise, as the paced writer of the binary's tests sends it.
@Suite struct LiveControlTests {
    static let format = StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1)
    static let level: Float = 16448 / 32768

    static func constant(blocks: Int) -> [Float] { [Float](repeating: level, count: blocks * 160) }

    /// The first frame that differs from the constant input, and the largest step between neighbours.
    static func firstChange(_ x: [Int16]) -> (index: Int, maxStep: Int)? {
        guard let i = x.firstIndex(where: { $0 != 16448 }) else { return nil }
        let steps = zip(x.dropFirst(), x).map { abs(Int($0) - Int($1)) }
        return (i, steps.max() ?? 0)
    }

    static func temporaryDirectory() throws -> URL {
        let url = TestScratch.root.appendingPathComponent("aupipe-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aMuteLandsOnTheNextBlockWithItsRamp() throws {
        let r = try ScheduledControl(commands: [(40 * 160, ["set mute.on 1"])])
            .run([["mute", "on=0", "ramp=20ms"]], Self.constant(blocks: 150), format: Self.format, block: 160)
        #expect(r.replies == ["ok mute.on 1"])
        let out = r.s16
        #expect(out.count == 150 * 160)
        let change = try #require(Self.firstChange(out), "the mute never happened")
        #expect(change.index == 40 * 160, "the mute began at frame \(change.index), not at the block after the line")
        // A 20 ms ramp at 16 kHz is 320 frames: each step is 16448/320 ≈ 51, never more.
        #expect(change.maxStep <= 52, "a step of \(change.maxStep): the mute clicked")
        #expect(out[change.index + 319] == 0 && out[change.index + 318] > 0, "the ramp is not 320 frames")
        #expect(out[(change.index + 320)...].allSatisfy { $0 == 0 })
    }

    @Test func aGainSetLiveGlidesAndAnUnknownParameterIsNamed() throws {
        let r = try ScheduledControl(commands: [(30 * 160, ["set level.db -6", "get gain.db", "set gain.nope 1"])])
            .run([["gain", "0", "name=level"]], Self.constant(blocks: 120), format: Self.format, block: 160)
        #expect(r.replies.count == 3)
        #expect(r.replies.first == "ok level.db -6" && r.replies.dropFirst().first == "gain.db -6", "\(r.replies)")
        #expect(r.replies.last?.hasPrefix("error: gain has no parameter 'nope'") == true, "\(r.replies)")
        let out = r.s16
        let change = try #require(Self.firstChange(out))
        #expect(change.index == 30 * 160)
        // -6 dB of 16448 is 8243.6; the glide takes 10 ms = 160 frames.
        #expect(abs(Int(out[change.index + 159]) - 8244) <= 1 && abs(Int(out.last!) - 8244) <= 1)
        #expect(change.maxStep <= 60)
    }

    /// `get aec.erle`, `get aec.delay` and `get aec.drift` while an echo canceller runs, 1.2 s in.
    @Test func aecFiguresAreReadableWhileRunning() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Far end: 3 s of noise at about -20 dBFS RMS; the echo is it at -6 dB with no delay.
        var seed: UInt32 = 4
        let far = (0..<48000).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.35
        }
        let farPath = dir.appendingPathComponent("far.wav").path
        try Data(TestSignals.wav(far, Self.format)).write(to: URL(fileURLWithPath: farPath))
        let echo = far.prefix(150 * 160).map { $0 * 0.5 }
        let r = try ScheduledControl(commands: [(120 * 160, ["get aec.erle", "get aec.delay", "get aec.drift", "set aec.tail 100"])])
            .run([["aec", "ref=\(farPath)", "delay=0"]], echo, format: Self.format, block: 160)
        #expect(r.replies.count == 4, "\(r.replies)")
        let erle = r.replies.first { $0.hasPrefix("aec.erle ") }.flatMap { Double($0.split(separator: " ").last!) }
        #expect(erle.map { $0 > 10 } == true, "aec.erle while running: \(r.replies)")
        #expect(r.replies.contains("aec.delay 0ms"), "\(r.replies)")
        // 1.2 s in, too early for a drift estimate (it needs 3 s of measurements).
        #expect(r.replies.contains("aec.drift n/a"), "\(r.replies)")
        #expect(r.replies.contains { $0.hasPrefix("error: aec.tail cannot change while running") }, "\(r.replies)")
    }

    @Test func busParametersAreLive() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bed = dir.appendingPathComponent("bed.wav").path
        try Data(TestSignals.wav([Float](repeating: 0, count: 48000), Self.format)).write(to: URL(fileURLWithPath: bed))
        let r = try ScheduledControl(commands: [(20 * 160, ["set m.bus1.gain -6", "get mix.bus1.gain", "set mix.bus2.gain 1", "set mix.main-mute 1"])])
            .run([["mix", "input=\(bed)", "name=m"]], Self.constant(blocks: 60), format: Self.format, block: 160)
        #expect(r.replies.count == 4, "\(r.replies)")
        #expect(r.replies.first == "ok m.bus1.gain -6" && r.replies.contains("mix.bus1.gain -6"), "\(r.replies)")
        #expect(r.replies.contains { $0.hasPrefix("error: mix has no parameter 'bus2.gain'") }, "\(r.replies)")
        #expect(r.replies.last == "ok mix.main-mute 1")
        let out = r.s16
        #expect(out[..<(20 * 160)].allSatisfy { $0 == 16448 } && out.last == 0, "main-mute mutes the stream from the block after it")
    }

    /// A plugin's port set live changes on a run boundary of the plugin (256 frames at 16 kHz,
    /// whatever the block); its output ports are read with get and refuse set.
    @Test func aPluginPortSetLiveChangesOnARunBoundary() throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/lib/ladspa/amp.so"), "ladspa-sdk's amp.so is missing (scripts/install-deps test installs it)")
        let plugins = try #require(EveryUnitBlockSizeTests.testPluginDirectories, "could not build the test plugins (gcc)")
        let registry = UnitRegistry(providers: [BuiltInUnits(), PluginUnits(backends: [LADSPABackend(directories: ["/usr/lib/ladspa", plugins.ladspa])])])
        let r = try ScheduledControl(commands: [(30 * 160, ["set ladspa#1.gain 0.5", "get ladspa#1.gain", "get late.peak", "get late.latency", "set late.peak 1"])])
            .run([["ladspa", "amp_mono"], ["ladspa", "latency_delay", "name=late"]], Self.constant(blocks: 120), format: Self.format, block: 160, registry: registry)
        #expect(r.replies.count == 5, "\(r.replies)")
        #expect(r.replies.first == "ok ladspa#1.gain 0.5" && r.replies.contains("ladspa#1.gain 0.5"), "\(r.replies)")
        #expect(r.replies.contains { $0.hasPrefix("late.peak 0.50195") }, "the output port's value: \(r.replies)")
        #expect(r.replies.contains("late.latency 37"), "\(r.replies)")
        #expect(r.replies.last == "error: late.peak is read-only: a figure ladspa reports, not a parameter; read it with get late.peak")
        let out = r.s16
        #expect(out.count == 120 * 160)
        let change = try #require(out.firstIndex { $0 != 16448 }, "the gain never changed")
        #expect(change % 256 == 0, "the change began at frame \(change), not on a 256-frame run boundary")
        // The plugin gathers its runs: the line before frame 4800 reaches the run holding it,
        // the one that starts at 4608 (18 × 256) and has not run yet.
        #expect(change == 30 * 160 / 256 * 256, "the change began at frame \(change), not with the run that holds the line's frame")
        #expect(out[change...].allSatisfy { $0 == 8224 }, "after the change every sample is half")
    }

    /// `meter`'s readings through get while it runs, 2 s into a 997 Hz sine at -20 dBFS.
    @Test func meterFiguresAreReadableWhileRunning() throws {
        let sine = (0..<48000).map { Float(0.1 * sin(2 * Double.pi * 997 * Double($0) / 16000)) }
        let r = try ScheduledControl(commands: [(200 * 160, ["get meter.integrated", "get meter.momentary", "get meter.truepeak", "get meter.rms"])])
            .run([["meter"]], sine, format: Self.format, block: 160)
        // A mono sine at -20 dBFS: -23.0 LUFS (one channel), true peak -20 dBTP, RMS -23.01 dBFS.
        for (name, value) in [("integrated", -23.0), ("momentary", -23.0), ("truepeak", -20.0), ("rms", -23.01)] {
            let line = try #require(r.replies.first { $0.hasPrefix("meter.\(name) ") }, "no reply for meter.\(name): \(r.replies)")
            let v = try #require(Double(line.split(separator: " ").last ?? ""), "\(line)")
            #expect(abs(v - value) < 0.1, "\(line)")
        }
    }

    /// `set loudnorm.target -26` 10 s into a stream normalised to -16: seconds 2–7 come out
    /// near -16 LUFS and the last 5 s near -26, as `meter` reads them.
    @Test func aLoudnormTargetSetLiveTakesEffect() throws {
        var seed: UInt32 = 7
        // 20 s of white noise at -30 dBFS RMS (uniform in ±0.0548).
        let noise = (0..<320_000).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (Float(seed >> 8) / Float(1 << 24) - 0.5) * 0.1096
        }
        let r = try ScheduledControl(commands: [(160_000, ["set loudnorm.target -26", "get loudnorm.target"])])
            .run([["loudnorm", "-16"]], noise, format: Self.format, block: 160)
        #expect(r.replies == ["ok loudnorm.target -26", "loudnorm.target -26"])
        #expect(r.output.count == 320_000)
        func integrated(_ range: Range<Int>) throws -> Double? {
            let meter = try UnitHarness(["meter"], format: Self.format)
            _ = try meter.run(Array(r.output[range]))
            return meter.get("integrated").flatMap(Double.init)
        }
        let before = try #require(try integrated(32_000..<112_000)), after = try #require(try integrated(240_000..<320_000))
        #expect(abs(before - -16) <= 1, "before the change: \(before) LUFS")
        #expect(abs(after - -26) <= 1, "after the change: \(after) LUFS")
    }
}
