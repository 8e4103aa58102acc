import Foundation
import Testing

/// `limiter`, `compressor` and `gate` through the binary: on LoudnormTests' music driven 12 dB
/// into the limiter, no float sample above the ceiling, and with `true-peak=1` no true peak
/// above it as libebur128 (`meter`) reads it, at exact length; a side chain from a process
/// substitution; `plot=` and `--stats=json`.
@Suite struct LimiterTests {
    /// The float samples of a raw f32le file.
    static func floats(_ url: URL) throws -> [Float] {
        try Data(contentsOf: url).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test(.needs("ffmpeg"), arguments: [-1.0, -3.0])
    func noSampleAboveTheCeiling(ceiling: Double) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" -i '\(LoudnormTests.music)' -t raw -o in.raw
            "$AUPIPE" -i '\(LoudnormTests.music)' gain 12 : limiter \(Int(ceiling)) -t raw -o out.raw
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let input = try Self.floats(dir.appendingPathComponent("in.raw"))
        let out = try Self.floats(dir.appendingPathComponent("out.raw"))
        #expect(out.count == input.count)
        let top = Float(pow(10, ceiling / 20))
        let peak = out.map(abs).max() ?? 0
        #expect(peak <= top, "peak \(20 * log10(Double(peak))) dBFS over \(ceiling)")
        // It limits, it does not silence: the driven music's peaks sit at the ceiling.
        #expect(peak >= top * 0.95)
    }

    @Test(.needs("ffmpeg"), arguments: [-1.0, -2.0])
    func noTruePeakAboveTheCeiling(ceiling: Double) throws {
        let before = try MeterTests.meterFigures("\"$AUPIPE\" -i '\(LoudnormTests.music)' gain 12 -t caf")
        #expect((before["truePeakDBTP"] ?? -99) > ceiling + 10, "the input is driven into the limiter: \(before)")
        let f = try MeterTests.meterFigures("\"$AUPIPE\" -i '\(LoudnormTests.music)' gain 12 : limiter \(Int(ceiling)) true-peak=1 -t caf")
        let tp = try #require(f["truePeakDBTP"])
        #expect(tp <= ceiling, "true peak \(tp) dBTP over \(ceiling)")
        #expect(tp >= ceiling - 1, "true peak \(tp) dBTP: limited far below the ceiling")
    }

    @Test func sidechainFromAProcessSubstitutionDucks() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 440 level=-20 duration=2 --out-format f32le:48000:2 | \
              "$AUPIPE" --stats=json compressor threshold=-40 ratio=4 knee=0 plot=gain.svg \
              sidechain=<("$AUPIPE" gen sine 200 level=-10 duration=1 --out-format s16le:16000:1) -t raw -o out.raw 2> stats.json
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let out = try Self.floats(dir.appendingPathComponent("out.raw"))
        #expect(out.count == 2 * 48000 * 2)
        let json = try String(contentsOf: dir.appendingPathComponent("stats.json"), encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data((json.split(separator: "\n").last ?? "").utf8)) as? [String: Any]
        let f = try #require((object?["units"] as? [[String: Any]])?.first?["figures"] as? [String: Double], "\(json)")
        // A -10 dBFS voice at -40, 4:1: 22.5 dB down; after it, the gain comes back.
        #expect(abs((f["maxReductionDB"] ?? 0) - 22.5) < 0.1, "\(f)")
        #expect((f["reductionDB"] ?? 99) < 0.1, "\(f)")
        let svg = try String(contentsOf: dir.appendingPathComponent("gain.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.contains("<svg"))
        #expect(svg.contains("gain reduction"))
    }
}
