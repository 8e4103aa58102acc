import AUPipeKit
import Foundation
import Testing

/// Claims of the manual and the README checked against what the binary does: `--control`'s
/// `list`, agc's and denoise's clip counts, 32-bit and f64 precision, the README's unit table.
@Suite struct DocsClaimsTests {
    /// The lines of the `.TP` item of `section` whose tag line is `tag` (up to the next `.TP`,
    /// `.RE`, `.PP` or `.SS`), as plain text.
    static func item(_ tag: String, in section: String) throws -> String {
        let lines = try #require(try DocsAgreementTests.loadPage().section(section), "no \(section) section")
        let start = try #require(lines.indices.first { lines[$0] == tag && $0 > 0 && lines[$0 - 1] == ".TP" }, "no '.TP' item '\(tag)' in \(section)")
        let end = lines[(start + 1)...].firstIndex { [".TP", ".RE", ".PP", ".SS"].contains(where: $0.hasPrefix) } ?? lines.endIndex
        return ManPage.plainText(Array(lines[start..<end]))
    }

    /// A unit's `.SS` subsection under UNITS, as plain text.
    static func unitText(_ name: String) throws -> String {
        let units = try #require(try DocsAgreementTests.loadPage().section("UNITS"))
        return ManPage.plainText(try #require(ManPage.subsections(units).first { $0.name == name }?.lines, "no .SS \(name)"))
    }

    @Test func readmeUnitTableNamesEveryParameter() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for d in UnitRegistry.all {
            let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `\(d.name)` |") }, "README has no table row for \(d.name)")
            for p in d.parameters where !row.contains("`\(p.name)=") {
                Issue.record("README's table row for \(d.name) lacks `\(p.name)=`: \(row)")
            }
        }
    }

    /// `list` shows mix's per-bus addresses, and the manual says so; `get` of a parameter that
    /// is not live says that, not "no value".
    @Test func controlListShowsBusAddressesAsTheManualSays() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen silence duration=3 --out-format s16le:16000:1 -o bed.wav
            (\(LiveTests.pacedWriter(chunks: 60))) | "$AUPIPE" --in-format s16le:16000:1 -t raw --control ctl gain -3 : mix input=bed.wav name=m : mute on=0 > /dev/null 2> err.txt &
            for i in $(seq 100); do [ -p ctl ] && break; sleep 0.01; done
            echo "list" > ctl; echo "get mute.ramp" > ctl; echo "get mute.rmp" > ctl
            wait; cat err.txt
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("aupipe: control: 1.db (gain) -3; 2.main-gain (m) 0; 2.main-mute (m) 0; 2.out-gain (m) 0; 2.bus1.gain (m) 0; 2.bus1.mute (m) 0; 2.bus1.pan (m) none; 3.on (mute) 0\n"),
                "\(text) \(r.stderr)")
        #expect(text.contains("aupipe: control: error: mute.ramp is not live; mute's live parameters: on\n"), "\(text)")
        #expect(text.contains("aupipe: control: error: mute has no parameter 'rmp'; did you mean 'ramp'?\n"), "\(text)")

        let list = try Self.item(".B list", in: "OPTIONS")
        for address in ["busK.gain", "busK.mute", "busK.pan"] {
            #expect(list.contains(address), "the manual's --control list item does not say that list shows \(address): \(list)")
        }
        #expect(!list.contains("not listed)"), "the manual says list leaves out mix's bus addresses: \(list)")
        let mix = try Self.unitText("mix")
        #expect(!mix.contains("out-gain only"), "the manual's mix section says list shows main-gain, main-mute and out-gain only")
    }

    /// agc and denoise count the samples they clip going into speex's 16 bits, as the manual says.
    @Test(arguments: ["agc", "denoise"])
    func preprocessorClipsAreCountedAsTheManualSays(_ unit: String) throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine level=-1 duration=0.1 --out-format f32le:16000:1 | \"$AUPIPE\" --stats gain 6 : \(unit) -o /dev/null")
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stderr.split(separator: "\n").first { $0.contains(" \(unit): in ") }, "\(r.stderr)")
        let clipped = try #require(line.firstMatch(of: /clipped (\d+)/).map { Int($0.1)! })
        #expect(clipped > 0, "a sine 5 dB over full scale: \(line)")
        let text = try Self.unitText(unit)
        #expect(!text.contains("without being counted"), "the manual's \(unit) section says its clips are not counted")
        #expect(text.contains("these clips are counted in the unit's clipped figure of --stats"), "\(unit): \(text)")
        #expect(try UnitRegistry.descriptor(named: unit).details.contains("counted in --stats"), "aupipe help \(unit) does not say its clips are counted")
    }

    /// s32 and f64 keep every bit through a change of byte order with --stats, as the manual
    /// and the README say.
    @Test(arguments: [("s32le", "s32be"), ("f64le", "f64be")])
    func wideSamplesSurviveAByteOrderChangeWithStats(_ token: String, _ swapped: String) throws {
        let d = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            head -c 48000 /dev/urandom > in.raw
            "$AUPIPE" --in-format \(token):48000:2 --out-format \(swapped) --stats -t raw < in.raw 2>/dev/null \
              | "$AUPIPE" --in-format \(swapped):48000:2 --out-format \(token) --stats -t raw > out.raw 2>/dev/null
            cmp in.raw out.raw && echo same
            """, cwd: d)
        #expect(String(decoding: r.stdout, as: UTF8.self) == "same\n", "\(r.stderr)")
        let lines = try #require(try DocsAgreementTests.loadPage().section("SAMPLE CONVERSION"))
        let text = ManPage.plainText(lines)
        #expect(!text.contains("counts as a change"), "the manual says a byte-order change loses bits")
        #expect(text.contains("swapped for a change of byte order"), "\(text)")
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("(a change of byte order and `--stats` included)"))
    }
}
