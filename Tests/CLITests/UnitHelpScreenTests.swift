import Foundation
import Testing
import AUPipeKit

/// `aupipe help UNIT` fits a screen: what a table cannot say is in the unit's manual section.
@Suite struct UnitHelpScreenTests {
    @Test(arguments: UnitRegistry.all.map(\.name))
    func helpFitsAScreen(unit: String) throws {
        let r = try CLI.aupipe(["help", unit])
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.stdout.count < 4096, "aupipe help \(unit) is \(r.stdout.count) bytes")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        #expect(lines.count <= 60, "aupipe help \(unit) has \(lines.count) lines")
        for line in lines where line.count > 100 {
            Issue.record("aupipe help \(unit): a line of \(line.count) columns: \(line)")
        }
        #expect(text.contains("Parameters:") && text.contains("Example:"))
        #expect(text.contains("the \(unit) section of UNITS in 'man aupipe'"))
    }

    @Test func aLongLineIsWrappedAtSpacesAndAnExampleWithBackslashes() {
        let words = Array(repeating: "word", count: 40).joined(separator: " ")
        let lines = HelpText.wrapped("  " + words, indent: "      ", continuation: " \\")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= HelpText.width })
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" \\") })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("      word") })
        #expect(lines.joined(separator: " ").replacing(" \\", with: "").split(separator: " ").count == 40)
        #expect(HelpText.wrapped("short", indent: "  ") == ["short"])
    }
}
