import Foundation
import Testing

/// A plugin's output ports in `--stats=json` keep their key and shape whatever the number of
/// instances: an array with one value per instance.
@Suite struct PluginStatsTests {
    /// The `figures` object of the first unit of a `--stats=json` line.
    static func figures(_ stderr: String) throws -> [String: Any] {
        let line = try #require(stderr.split(separator: "\n").last { $0.hasPrefix("{") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let units = try #require(json["units"] as? [[String: Any]])
        return try #require(units.first?["figures"] as? [String: Any])
    }

    @Test(.needsFile("/usr/lib/lv2/dpl.lv2")) func outputPortsAreArraysOverInstancesOnMonoAndStereo() throws {
        var shapes: [[String]] = []
        for (channels, instances) in [(1, 1), (2, 2)] {
            let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.2 --out-format s16le:48000:\(channels) | \"$AUPIPE\" --stats=json lv2 dpl#mono > /dev/null",
                                  environment: ["LV2_PATH": "/usr/lib/lv2"])
            #expect(r.status == 0, "\(r.stderr)")
            let figures = try Self.figures(r.stderr)
            let level = try #require(figures["level"] as? [Double], "\(channels) channels: \(figures)")
            #expect(level.count == instances)
            #expect(figures["latency"] as? Double == 64)
            shapes.append(figures.keys.sorted())
        }
        #expect(shapes[0] == shapes[1], "the keys change with the instance count: \(shapes)")
    }
}
