import Foundation
import Testing

/// A plugin named by a word or a URI loads its own bundles only, found through the index of
/// installed plugins kept in `$XDG_CACHE_HOME/aupipe` (`LV2Index`): no other bundle's manifest
/// or data is read once the index holds, it follows bundles being installed, and a run works
/// the same without a cache it can write.
@Suite struct LV2IndexTests {
    /// LV2_PATH with a bundle whose manifest does not parse and one whose data does not, before
    /// the test plugins: lilv speaks (with AUPIPE_LV2_LOG=1) whenever it reads either.
    static func environment(cache: URL) throws -> [String: String] {
        let good = try #require(LV2HostTests.testBundles, "could not build the LV2 test plugins (gcc)")
        let broken = try LV2BrokenBundleTests.brokenBundles()
        return ["LV2_PATH": "\(broken.path):\(good)", "XDG_CACHE_HOME": cache.path, "AUPIPE_LV2_LOG": "1"]
    }

    @Test func aNamedPluginLoadsItsOwnBundleOnly() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen impulse at=10f duration=500f --out-format f32le:48000:1 -o in.wav || exit 9
            "$AUPIPE" -i in.wav lv2 delay100 -o first.wav 2> first.txt || exit 1
            "$AUPIPE" -i in.wav lv2 delay100 -o word.wav 2> word.txt || exit 2
            "$AUPIPE" -i in.wav lv2 http://aupipe.test/plugins/delay100 -o uri.wav 2> uri.txt || exit 3
            cmp first.wav word.wav && cmp first.wav uri.wav || exit 4
            ls cache/aupipe | grep -c '^lv2-index-.*[.]tsv$'
            """, cwd: dir, environment: try Self.environment(cache: dir.appendingPathComponent("cache")))
        #expect(r.status == 0 && String(decoding: r.stdout, as: UTF8.self) == "1\n", "\(r.status) \(r.stderr)")
        func text(_ name: String) throws -> String { try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) }
        let first = try text("first.txt"), word = try text("word.txt"), uri = try text("uri.txt")
        // The first run reads every bundle (and writes the index); then only the plugin's is read.
        #expect(first.contains("bad.lv2/manifest.ttl"), "\(first)")
        #expect(word == "", "a plugin named by a word read other bundles: \(word)")
        #expect(uri == "", "a plugin named by its URI read other bundles: \(uri)")
    }

    /// A bundle installed after the index was written is found (the index no longer holds), and
    /// a cache that cannot be written or holds garbage changes nothing but the time taken.
    @Test func theIndexFollowsNewBundlesAndIsOptional() throws {
        let good = try #require(LV2HostTests.testBundles, "could not build the LV2 test plugins (gcc)")
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkdir lv2 && cp -R /usr/lib/lv2/eg-amp.lv2 lv2/ || exit 9
            "$AUPIPE" gen impulse at=10f duration=500f --out-format f32le:48000:1 -o in.wav || exit 9
            "$AUPIPE" -i in.wav lv2 eg-amp gain=-6 -o amp.wav || exit 1
            cmp -s in.wav amp.wav && exit 5
            cp -R \(CLI.quote(good))/aupipe-test.lv2 lv2/ || exit 9
            "$AUPIPE" -i in.wav lv2 delay100 -o delay.wav || exit 2
            XDG_CACHE_HOME=/dev/null/cache "$AUPIPE" -i in.wav lv2 delay100 -o unwritable.wav || exit 3
            for f in cache/aupipe/lv2-index-*.tsv; do printf 'garbage\\n\\tmore' > "$f"; done
            "$AUPIPE" -i in.wav lv2 eg-amp gain=-6 -o garbage.wav || exit 4
            cmp delay.wav unwritable.wav && cmp amp.wav garbage.wav
            """, cwd: dir, environment: ["LV2_PATH": dir.appendingPathComponent("lv2").path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(r.status == 0, "\(r.status) \(r.stderr)")
    }

    /// A preset in a bundle of its own (where hosts save user presets) is found through the
    /// index too: the plugin's bundles include its presets'.
    @Test func aPresetInAnotherBundleIsFound() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkdir -p lv2/quiet.lv2 && cp -R /usr/lib/lv2/eg-amp.lv2 lv2/ || exit 9
            cat > lv2/quiet.lv2/manifest.ttl <<'TTL'
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:aupipe:preset:quiet> a pset:Preset ; lv2:appliesTo <http://lv2plug.in/plugins/eg-amp> ; rdfs:seeAlso <quiet.ttl> .
            TTL
            cat > lv2/quiet.lv2/quiet.ttl <<'TTL'
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:aupipe:preset:quiet> a pset:Preset ; lv2:appliesTo <http://lv2plug.in/plugins/eg-amp> ;
                rdfs:label "quiet" ; lv2:port [ lv2:symbol "gain" ; pset:value -12.0 ] .
            TTL
            "$AUPIPE" gen sine 997 level=-3 duration=0.2 --out-format s16le:48000:1 -o in.wav || exit 9
            "$AUPIPE" plugins lv2 > /dev/null || exit 1
            "$AUPIPE" -i in.wav lv2 eg-amp preset=quiet -o preset.wav || exit 2
            "$AUPIPE" -i in.wav gain -12 -o gain.wav || exit 9
            "$AUPIPE" compare preset.wav gain.wav --max-lsb 1 > /dev/null || exit 3
            ls cache/aupipe | grep -c '^lv2-index-.*[.]tsv$'
            """, cwd: dir, environment: ["LV2_PATH": dir.appendingPathComponent("lv2").path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(r.status == 0 && String(decoding: r.stdout, as: UTF8.self) == "1\n", "\(r.status) \(r.stderr)")
    }

    /// An LV2_PATH set but empty (no plugins) keeps an index apart from lilv's default path's.
    @Test(.needsFile("/usr/lib/lv2/eg-amp.lv2")) func anEmptyLV2PathHasAnIndexOfItsOwn() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=0.1 -o in.wav || exit 9
            LV2_PATH= "$AUPIPE" -i in.wav lv2 eg-amp -o /dev/null 2> /dev/null; echo "empty=$?"
            env -u LV2_PATH "$AUPIPE" -i in.wav lv2 eg-amp -o /dev/null; echo "default=$?"
            env -u LV2_PATH "$AUPIPE" -i in.wav lv2 eg-amp -o /dev/null; echo "indexed=$?"
            """, cwd: dir, environment: ["XDG_CACHE_HOME": dir.appendingPathComponent("cache").path])
        #expect(String(decoding: r.stdout, as: UTF8.self) == "empty=69\ndefault=0\nindexed=0\n", "\(r.stderr)")
    }
}
