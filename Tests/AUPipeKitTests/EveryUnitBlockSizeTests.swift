import Foundation
import TestScratch
import Testing
import AUPipeKit

/// Every unit the command line can build — aupipe's own and those its providers find, the
/// plugin hosts with a test plugin built here — run alone (`UnitHarness`) with its
/// descriptor's exercise through blocks of 1, 7, 480 and 4096 frames: the output is the same
/// samples whatever the block size, and as long as the descriptor's length rule says. A unit
/// registered later is picked up by name; one registered without an exercise fails here.
@Suite struct EveryUnitBlockSizeTests {
    static let blocks = [1, 7, 480, 4096]
    static let format = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
    /// The stream's length, not a multiple of any block size above.
    static let frames = 9001
    /// The side input's length: longer than the stream, so that `duration=longest` shows.
    static let sideFrames = 12_345

    /// The test plugin each plugin host runs for `UnitExercise.plugin`: each reports latency.
    static let testPlugins = ["lv2": "http://aupipe.test/plugins/delay100", "ladspa": "latency_delay"]

    /// The names of the standard registry: what `aupipe units` lists.
    static let names = UnitRegistry.standard.all.map(\.name)

    @Test(arguments: names)
    func outputIsTheSameForEveryBlockSizeAndAsLongAsDeclared(unit: String) throws {
        let registry = try Self.registry()
        let descriptor = try registry.descriptor(named: unit)
        let exercise = try #require(descriptor.exercise, "\(unit) has no exercise: give its UnitDescriptor one (arguments that make it work, and its LengthRule)")
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let side = dir.appendingPathComponent("side-input.wav")
        let sideSamples = TestSignals.tones(frames: Self.sideFrames, rate: Self.format.sampleRate, channels: Self.format.channels, level: 0.3).reversed()
        try Data(TestSignals.wav(Array(sideSamples), Self.format)).write(to: side)
        let input = TestSignals.tones(frames: Self.frames, rate: Self.format.sampleRate, channels: Self.format.channels)

        var reference: (block: Int, output: [UInt32], written: Data?)?
        for block in Self.blocks {
            var arguments: [String] = []
            for word in exercise.arguments {
                if word == UnitExercise.plugin {
                    arguments.append(try #require(Self.testPlugins[unit], "no test plugin for the plugin host \(unit): add one to testPlugins"))
                } else {
                    arguments.append(word.replacingOccurrences(of: UnitExercise.sideInput, with: side.path)
                        .replacingOccurrences(of: UnitExercise.sideOutput, with: dir.appendingPathComponent("side-output-\(block)").path))
                }
            }
            let output: [UInt32], framesOut: Int, outRate: Int
            do {
                let harness = try UnitHarness(try descriptor.instantiate(arguments), format: Self.format, block: block)
                output = try harness.run(input).map(\.bitPattern)
                (framesOut, outRate) = (harness.framesOut, harness.format.sampleRate)
            }
            // What the unit wrote beside the stream (tee's copy, meter's lines, spectrogram's
            // picture), once it is gone: the file with the extension the exercise gave it.
            let written = dir.appendingPathComponent(
                (try FileManager.default.contentsOfDirectory(atPath: dir.path)).first { $0.hasPrefix("side-output-\(block).") } ?? "side-output-\(block)")
            let side = try? Data(contentsOf: written)
            let expected = switch exercise.length {
            case .same: Self.frames
            case .resampled: Int((Double(Self.frames) * Double(outRate) / Double(Self.format.sampleRate)).rounded())
            case .longestOfStreamAndSideInput: max(Self.frames, Self.sideFrames)
            case .trimmed: reference.map { $0.output.count / Self.format.channels } ?? framesOut
            }
            if exercise.length == .trimmed {
                #expect(framesOut < Self.frames, "\(unit) \(arguments.joined(separator: " ")): its rule says trimmed, but \(framesOut) of \(Self.frames) frames came out")
            }
            #expect(framesOut == expected, "\(unit) \(arguments.joined(separator: " ")) at block \(block): \(framesOut) frames, its rule \(exercise.length) says \(expected)")
            if let reference {
                #expect(output == reference.output, "\(unit) \(arguments.joined(separator: " ")): block \(block) differs from block \(reference.block)")
                #expect(side == reference.written, "\(unit) \(arguments.joined(separator: " ")): what it wrote beside the stream at block \(block) differs from block \(reference.block)")
            } else {
                reference = (block, output, side)
            }
            if exercise.arguments.contains(where: { $0.contains(UnitExercise.sideOutput) }) {
                #expect(side?.isEmpty == false, "\(unit) wrote nothing to \(written.path)")
            }
        }
    }

    /// The standard registry, each plugin provider replaced by one whose hosts find only the
    /// test plugins (so the test runs without the installed ones and whatever LV2_PATH says).
    static func registry() throws -> UnitRegistry {
        let plugins = try #require(testPluginDirectories, "could not build the test plugins in Tests/CLITests/Support (gcc)")
        let hosts = PluginUnits(backends: [LV2Backend(searchPath: plugins.lv2), LADSPABackend(directories: [plugins.ladspa])])
        return UnitRegistry(providers: UnitRegistry.standard.providers.map { $0 is PluginUnits ? hosts : $0 })
    }

    /// The LV2 bundle and the LADSPA library of `Tests/CLITests/Support`, compiled once per run.
    static let testPluginDirectories: (lv2: String, ladspa: String)? = {
        guard let dir = try? temporaryDirectory() else { return nil }
        let support = packageRoot.appendingPathComponent("Tests/CLITests/Support").path
        let include = packageRoot.appendingPathComponent("Sources/CAUPipeSupport/include").path
        let bundle = dir.appendingPathComponent("lv2/aupipe-test.lv2").path
        let ladspa = dir.appendingPathComponent("ladspa").path
        let script = """
            cc=$(command -v gcc || command -v clang || command -v cc) && mkdir -p '\(bundle)' '\(ladspa)' && \
            "$cc" -O2 -shared -fPIC -o '\(bundle)/lv2_test_plugins.so' '\(support)/lv2_test_plugins.c' && \
            cp '\(support)/lv2_test_plugins.ttl' '\(bundle)/manifest.ttl' && \
            "$cc" -O2 -shared -fPIC -I '\(include)' -o '\(ladspa)/aupipe_test.so' '\(support)/ladspa_test_plugins.c' -lm
            """
        guard LV2BackendTests.shell("sh -c \(quoted(script))").status == 0 else { return nil }
        return (dir.appendingPathComponent("lv2").path, ladspa)
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func temporaryDirectory() throws -> URL {
        let url = TestScratch.root.appendingPathComponent("aupipe-every-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
