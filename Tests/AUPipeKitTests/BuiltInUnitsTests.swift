import Testing
@testable import AUPipeKit
@testable import AUPipeUnits
@testable import AUPipeGraph

/// `BuiltInUnits`' lines: each name is its descriptor's, once, so that a lookup by name (which
/// builds one descriptor) finds what the full list (which builds them all) holds.
@Suite struct BuiltInUnitsTests {
    @Test("every line's name is its descriptor's name, and no name is listed twice")
    func namesMatchDescriptors() {
        var seen: Set<String> = []
        for line in BuiltInUnits.lines {
            #expect(line.descriptor().name == line.name, "the line for \(line.descriptor().name) says \(line.name)")
            #expect(seen.insert(line.name).inserted, "\(line.name) is listed twice")
        }
        #expect(BuiltInUnits().descriptors.map(\.name) == BuiltInUnits.lines.map(\.name).sorted())
    }

    @Test("a lookup by name gives the descriptor the list has, for every unit, in any case; unknown names fall through")
    func lookupAgreesWithTheList() throws {
        let units = BuiltInUnits()
        for d in units.descriptors {
            #expect(units.descriptor(named: d.name)?.name == d.name)
            #expect(try UnitRegistry(providers: [units]).descriptor(named: d.name.uppercased()).name == d.name)
        }
        #expect(units.descriptor(named: "no-such-unit") == nil)
        #expect(throws: AUPipeError.self) { try UnitRegistry(providers: [units]).descriptor(named: "no-such-unit") }
    }
}
