import Foundation
import Testing

/// A mistyped plugin name gets a did-you-mean for LV2 as for LADSPA, in the words users type (an
/// LV2 URI's last segment), whether the lookup goes through the index of installed plugins or
/// reads every bundle.
@Suite struct PluginLookupTests {
    @Test(.needsFile("/usr/lib/lv2/eg-amp.lv2", "/usr/lib/lv2/dpl.lv2", "/usr/lib/lv2/butterworth-swh.lv2"),
          arguments: [("eg-amo", "eg-amp"), ("eg_amp", "eg-amp"), ("dpl#mnoo", "dpl#mono"), ("butthigh_iri", "butthigh_iir")])
    func aMistypedLV2PluginGetsADidYouMean(typed: String, meant: String) throws {
        let dir = try CLI.temporaryDirectory()
        // Twice: the first run reads every bundle and writes the index, the second uses it.
        for run in ["first", "indexed"] {
            let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.01 | \"$AUPIPE\" lv2 \(CLI.quote(typed))",
                                  environment: ["LV2_PATH": "/usr/lib/lv2", "XDG_CACHE_HOME": dir.path])
            #expect(r.status == 64, "\(run): \(r.stderr)")
            #expect(r.stderr == "aupipe: lv2: no plugin '\(typed)'; did you mean '\(meant)'? ('aupipe plugins lv2' lists the installed ones)\n", "\(run)")
        }
    }
}
