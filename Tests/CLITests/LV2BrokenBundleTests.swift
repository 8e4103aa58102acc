import Foundation
import Testing

/// LV2 bundles whose Turtle does not parse, installed next to working ones: lilv (and serd)
/// print several lines for each at every load. A run with a working plugin stays silent, and
/// `aupipe plugins` lists the rest and says what was skipped in one line.
@Suite struct LV2BrokenBundleTests {
    /// A directory with `bad.lv2` (its manifest does not parse) and `half.lv2` (a manifest that
    /// parses, naming plugin data that does not).
    static func brokenBundles() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.lv2"), half = dir.appendingPathComponent("half.lv2")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: half, withIntermediateDirectories: true)
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            <urn:aupipe:bad> a lv2:Plugin ; lv2:binary <nothing.so> ; garbage garbage .

            """.write(to: bad.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:aupipe:half> a lv2:Plugin ; lv2:binary <missing.so> ; rdfs:seeAlso <half.ttl> .

            """.write(to: half.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            <urn:aupipe:half> a lv2:Plugin ; lv2:port [ a lv2:AudioPort lv2:InputPort ; broken

            """.write(to: half.appendingPathComponent("half.ttl"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aBrokenBundleDoesNotSpeakOnEveryRun() throws {
        let good = try #require(LV2HostTests.testBundles, "could not build the LV2 test plugins (gcc)")
        let broken = try Self.brokenBundles()
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen impulse at=10f duration=500f --out-format f32le:48000:1 -o in.wav || exit 9
            "$AUPIPE" -i in.wav lv2 delay100 -o out.wav 2> run.txt; echo "run=$?"
            LADSPA_PATH=/nonexistent "$AUPIPE" plugins lv2 2> list.txt | awk '{print $2}'; echo "list=$?"
            AUPIPE_LV2_LOG=1 "$AUPIPE" plugins lv2 > /dev/null 2> loud.txt
            """, cwd: dir, environment: ["LV2_PATH": "\(broken.path):\(good)"])
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("run=0\n") && text.contains("http://aupipe.test/plugins/delay100\n") && text.hasSuffix("list=0\n"), "\(text) \(r.stderr)")
        let run = try String(contentsOf: dir.appendingPathComponent("run.txt"), encoding: .utf8)
        #expect(run == "", "a run with a working plugin printed lilv's messages about another bundle: \(run)")
        let list = try String(contentsOf: dir.appendingPathComponent("list.txt"), encoding: .utf8)
        #expect(list.split(separator: "\n").count == 1, "\(list)")
        #expect(list.hasPrefix("aupipe: lv2: lilv could not read some bundles and skipped them (")
                && list.contains("bad.lv2/manifest.ttl:2:") && list.hasSuffix("fix or remove the bundle, AUPIPE_LV2_LOG=1 shows lilv's messages\n"), "\(list)")
        let loud = try String(contentsOf: dir.appendingPathComponent("loud.txt"), encoding: .utf8)
        #expect(loud.contains("bad.lv2/manifest.ttl"), "AUPIPE_LV2_LOG=1 must let lilv's messages through: \(loud)")
    }
}
