import Foundation
import Testing
import AUPipeKit

/// Inputs the fuzz targets under `Fuzz/` crashed on, fed through the same APIs without the
/// fuzzer: each must give one clear error, never a crash. The named tests hold the bytes; the
/// last one replays every file under `Fuzz/Regressions/TARGET/` as that target does.
@Suite struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    /// What each fuzz target does with its input (see `Fuzz/Sources/TARGET`); errors are fine.
    static func replay(_ target: String, _ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch target {
        case "FuzzHeader":
            let raw = try! FormatSpec.parse("s16le:48000:2", option: "--in-format")
            for (rawFormat, chunk) in [(nil, Int.max), (raw, 7)] as [(StreamFormat?, Int)] {
                guard let (_, source) = try? HeaderReader.read(MemorySource(bytes, name: "fuzz", chunk: chunk), rawFormat: rawFormat) else { continue }
                var buffer = [UInt8](repeating: 0, count: 256)
                while let n = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 {}
            }
        case "FuzzFormatSpec":
            _ = try? FormatSpec.parse(text, option: "--in-format")
            _ = try? FormatSpec.components(text, option: "--out-format")
        case "FuzzChain":
            let words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard case let .run(chain, optionsText)? = try? CommandLineParser.parse(words),
                  let options = try? optionsText.parsed() else { return }
            _ = try? Pipeline(chain: chain, options: options)
        case "FuzzBusSpec":
            _ = try? BusSpec.parse(text, index: 1)
            _ = try? BusSpec.parse(text, index: 2, owner: "aec: ref", allowed: ["gain", "offset", "format"])
        case "FuzzControl":
            let pipeline = try! Pipeline(
                chain: [["gain", "-3"], ["gain", "name=voice", "db=0"], ["mute"], ["meter"], ["loudnorm"], ["resample", "16k"]],
                options: PipelineOptions())
            for line in text.split(separator: "\n") { _ = pipeline.control(String(line)) }
        default:
            Issue.record("no replay for fuzz target \(target)")
        }
    }

    /// `bed.wav,` and `bed.wav,,gain=1`: an empty option after a comma indexed an empty split.
    @Test func busSpecEmptyOption() {
        for text in ["bed.wav,", "bed.wav,,gain=1", "f-xform\0\0\0\0\0\u{BE},"] {
            #expect(throws: AUPipeError.usage("mix: input 1 (\(text.split(separator: ",", omittingEmptySubsequences: false)[0])): an empty option: two ',' in a row, or a ',' at the end")) {
                try BusSpec.parse(text, index: 1)
            }
        }
    }

    /// `n,=` and `n,=5`: an option that is only `=VALUE` indexed an empty split.
    @Test func busSpecOptionWithoutName() {
        for (text, option) in [("n,=", "="), ("bed.wav,=5", "=5")] {
            #expect(throws: AUPipeError.usage("mix: input 1 (\(text.split(separator: ",")[0])): '\(option)' has no option name before '='")) {
                try BusSpec.parse(text, index: 1)
            }
        }
    }

    /// `set #.on 0`: an address with nothing before `#` indexed an empty split; and a
    /// position in a chain with no units made an empty range.
    @Test func controlAddressWithoutUnit() throws {
        let pipeline = try Pipeline(chain: [["gain", "-3"], ["mute"]], options: PipelineOptions())
        #expect(pipeline.control("set #.on 0") == "error: '#.on' names no unit before '#' (e.g. gain#2.db)")
        #expect(pipeline.control("get #2.db") == "error: '#2.db' names no unit before '#' (e.g. gain#2.db)")
        #expect(pipeline.control("get gain#1.db") == "gain#1.db -3")
        let empty = try Pipeline(chain: [], options: PipelineOptions())
        #expect(empty.control("get 1.db") == "error: there is no unit 1; the chain has 0")
    }

    /// `tee` onto a path whose directory is missing leaked its poll buffers (LeakSanitizer):
    /// the refusal itself stays one clear error.
    @Test func teeRefusalInChain() {
        #expect(throws: AUPipeError.self) {
            try Pipeline(chain: [["loudnorm", "-16"], ["tee", "no-such-dir/x.wav"]], options: PipelineOptions())
        }
    }

    /// Every committed crash input, through its target's driver.
    @Test func committedRegressions() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path)
        #expect(!targets.isEmpty)
        for target in targets {
            let dir = Self.regressions.appendingPathComponent(target)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
                Self.replay(target, Array(try Data(contentsOf: dir.appendingPathComponent(name))))
            }
        }
    }
}
