import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `aupipe manual` makes the manual page from the descriptors and the templates; man/aupipe.1
/// is its committed output (`aupipe manual > man/aupipe.1`).
@Suite struct ManualPageTests {
    static let manURL = CLI.packageRoot.appendingPathComponent("man/aupipe.1")

    @Test func manualIsTheCommittedPageByteForByte() throws {
        let r = try CLI.aupipe(["manual"])
        #expect(r.status == 0, "\(r.stderr)")
        let committed = try Data(contentsOf: Self.manURL)
        #expect(r.stdout == committed, "man/aupipe.1 is not what 'aupipe manual' prints: run 'aupipe manual > man/aupipe.1'")
    }

    @Test func manualTakesNoArguments() throws {
        let r = try CLI.aupipe(["manual", "aec"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("aupipe: manual takes no arguments"))
    }

    @Test func theTitleCarriesTheVersionAndAFixedDate() {
        let th = ManualPage.roff().split(separator: "\n").first { $0.hasPrefix(".TH ") }
        #expect(th.map(String.init) == ".TH AUPIPE 1 \(ManualPage.date) \"\(HelpText.version)\" \"User Commands\"")
    }

    @Test func everyUnitAndOptionHasItsPlace() {
        let page = ManualPage.roff()
        for d in UnitRegistry.all { #expect(page.contains("\n.SS \(d.name)\n"), "no section for \(d.name)") }
        for o in RunOption.all where o.manual == nil { Issue.record("\(o.synopsis) has no manual paragraph") }
    }

    /// A unit without manual text gets a section made from its descriptor: a new unit needs
    /// no hand-written roff.
    @Test func aUnitWithoutManualTextGetsASectionFromItsDescriptor() {
        let d = UnitDescriptor(name: "invert", summary: "flip the polarity", details: "Multiplies every sample by -1.",
                               parameters: [GainUnit.Keys.db], primary: "db", example: "aupipe invert < a.wav > b.wav",
                               make: { _ in throw AUPipeError.usage("test") })
        let section = ManualPage.unitSection(d)
        #expect(section.hasPrefix(".SS invert\nFlip the polarity.\nMultiplies every sample by \\-1."))
        #expect(section.contains(".TP\n.BI db= VALUE\n(bare value)\n"))
        #expect(section.contains("aupipe invert < a.wav > b.wav"))
    }

    @Test(.needs("groff")) func groffFindsNothingToWarnAbout() throws {
        let r = try CLI.shell("groff -man -Tutf8 -ww \"$MANPAGE\" > /dev/null", environment: ["MANPAGE": Self.manURL.path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }
}
