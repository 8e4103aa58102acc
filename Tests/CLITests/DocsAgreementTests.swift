import AUPipeKit
import Foundation
import Testing

/// The manual page (man/aupipe.1) and the program must tell the same story: the same units
/// and parameters (with their defaults, ranges and bare-value parameter), the same options as
/// `aupipe --help`, the same commands, exit statuses and version.
@Suite struct DocsAgreementTests {
    static let manURL = CLI.packageRoot.appendingPathComponent("man/aupipe.1")

    static func loadPage() throws -> ManPage {
        guard FileManager.default.fileExists(atPath: manURL.path) else {
            Issue.record("the manual page \(manURL.path) does not exist")
            throw ManPage.Missing()
        }
        return ManPage(try String(contentsOf: manURL, encoding: .utf8))
    }

    // MARK: version

    @Test func versionInTHLineMatchesHelpText() throws {
        let page = try Self.loadPage()
        let th = try #require(page.lines.first { $0.hasPrefix(".TH ") }, "man/aupipe.1 has no .TH line")
        let args = ManPage.arguments(of: th)
        try #require(args.count >= 4, "the .TH line '\(th)' has \(args.count) arguments; the 4th (source) must be the version")
        #expect(args[0] == "AUPIPE", "the .TH title is '\(args[0])', expected AUPIPE")
        #expect(args[1] == "1", "the .TH section is '\(args[1])', expected 1")
        #expect(args[3] == HelpText.version,
                "the man page's version (.TH source) is '\(args[3])' but HelpText.version is '\(HelpText.version)'")
    }

    // MARK: units and parameters

    @Test func everyUnitHasASectionAndNoOtherUnitIsDocumented() throws {
        let page = try Self.loadPage()
        let units = try #require(page.section("UNITS"), "man/aupipe.1 has no UNITS section (.SH UNITS)")
        let documented = ManPage.subsections(units).map(\.name)
        for d in UnitRegistry.all where !documented.contains(d.name) {
            Issue.record("unit '\(d.name)' (UnitRegistry.all) has no '.SS \(d.name)' section under UNITS in man/aupipe.1")
        }
        let registered = Set(UnitRegistry.all.map(\.name))
        for name in documented where !registered.contains(name) {
            Issue.record("man/aupipe.1 documents a unit '\(name)' under UNITS that UnitRegistry.all does not have")
        }
    }

    @Test(arguments: UnitRegistry.all.map(\.name))
    func everyParameterIsDocumentedInItsUnitsSection(unit name: String) throws {
        let d = try UnitRegistry.descriptor(named: name)
        let page = try Self.loadPage()
        let units = try #require(page.section("UNITS"), "man/aupipe.1 has no UNITS section")
        let body = try #require(ManPage.subsections(units).first { $0.name == name }?.lines,
                                "unit '\(name)' has no '.SS \(name)' section in man/aupipe.1")
        let tags = ManPage.parameterTags(body)
        for p in d.parameters where tags[p.name] == nil {
            Issue.record("\(name): parameter '\(p.name)' has no tagged paragraph ('.TP' then '.BI \(p.name)= ...') in the man page's '\(name)' section")
        }
        let real = Set(d.parameters.map(\.name))
        for documented in tags.keys where !real.contains(documented) {
            Issue.record("\(name): the man page documents a parameter '\(documented)=' that the unit does not have (it has \(d.parameters.map(\.name).joined(separator: ", ")))")
        }
    }

    @Test(arguments: UnitRegistry.all.map(\.name))
    func parameterDefaultsRangesAndBareValueAgree(unit name: String) throws {
        let d = try UnitRegistry.descriptor(named: name)
        let page = try Self.loadPage()
        let units = try #require(page.section("UNITS"), "man/aupipe.1 has no UNITS section")
        let body = try #require(ManPage.subsections(units).first { $0.name == name }?.lines,
                                "unit '\(name)' has no '.SS \(name)' section in man/aupipe.1")
        let tags = ManPage.parameterTags(body)
        for p in d.parameters {
            guard let paragraph = tags[p.name] else { continue } // reported by the test above
            let text = ManPage.plainText(paragraph)
            let isPrimary = p.name == d.primary
            if isPrimary != text.contains("(bare value)") {
                Issue.record("\(name) \(p.name)=: the man page \(isPrimary ? "does not say" : "says") '(bare value)', but the code's primary parameter is \(d.primary ?? "none")")
            }
            if let def = p.defaultValue {
                if !text.contains("Default \(def)") {
                    Issue.record("\(name) \(p.name)=: the code's default is \(def), but the man page's paragraph does not say 'Default \(def)': \(text)")
                }
            } else if !p.help.lowercased().contains("default"), !text.contains("No default") {
                Issue.record("\(name) \(p.name)=: the code has no default, but the man page's paragraph does not say 'No default': \(text)")
            }
            if let range = Self.rangeText(p.kind), !text.contains(range) {
                Issue.record("\(name) \(p.name)=: the code's range is \(p.typeDescription), but the man page's paragraph does not say '\(range)': \(text)")
            }
        }
    }

    /// How the man page writes a parameter's range: `-120 to 60`, `0 to 1000 ms`.
    static func rangeText(_ kind: ParameterDescriptor.Kind) -> String? {
        switch kind {
        case .number(let r, _): return "\(number(r.lowerBound)) to \(number(r.upperBound))"
        case .integer(let r): return "\(r.lowerBound) to \(r.upperBound)"
        case .rate: return "1 to 768000"
        case .duration(let r, _): return "\(number(r.lowerBound * 1000)) to \(number(r.upperBound * 1000)) ms"
        case .boolean, .encoding, .channelMap, .timeRanges, .choice, .text: return nil
        case .numberList(let r, _): return "\(number(r.lowerBound)) to \(number(r.upperBound))"
        }
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    // MARK: options

    /// Long options (`--name`) anywhere in `HelpText.usage`.
    static var usageLongOptions: Set<String> {
        Set(HelpText.usage.matches(of: try! Regex(#"--[a-z][a-z0-9-]*"#)).map { String($0.output[0].substring!) })
    }

    /// Short options (`-x`) that the usage's option list gives as `-x, --name`.
    static var usageShortOptions: Set<String> {
        let pattern = try! Regex(#"^\s+(-[A-Za-z]),\s+--"#)
        return Set(HelpText.usage.split(separator: "\n").compactMap { line in
            line.firstMatch(of: pattern).flatMap { $0.output[1].substring }.map(String.init)
        })
    }

    @Test func usageHasOptionsToCompare() {
        // Guards the tests below against a regex that silently finds nothing.
        #expect(Self.usageLongOptions.count >= 5, "found only \(Self.usageLongOptions.sorted()) as long options in HelpText.usage")
        #expect(Self.usageShortOptions.contains("-i"), "found no '-i, --input' in HelpText.usage; found \(Self.usageShortOptions.sorted())")
    }

    @Test func everyUsageOptionIsInTheManPagesOptionsAndViceVersa() throws {
        let page = try Self.loadPage()
        let options = try #require(page.section("OPTIONS"), "man/aupipe.1 has no OPTIONS section")
        let tagLines = ManPage.tagLines(options)
        let manLong = Set(tagLines.flatMap(ManPage.longOptions))
        let manShort = Set(tagLines.flatMap(ManPage.shortOptions))
        for o in Self.usageLongOptions.sorted() where !manLong.contains(o) {
            Issue.record("option \(o) is in 'aupipe --help' (HelpText.usage) but has no entry (.TP tag) in the man page's OPTIONS section")
        }
        for o in manLong.sorted() where !Self.usageLongOptions.contains(o) {
            Issue.record("the man page's OPTIONS section documents \(o), which 'aupipe --help' (HelpText.usage) does not list")
        }
        for o in Self.usageShortOptions.sorted() where !manShort.contains(o) {
            Issue.record("short option \(o) is in 'aupipe --help' but not in the man page's OPTIONS tags")
        }
        for o in manShort.sorted() where !Self.usageShortOptions.contains(o) {
            Issue.record("the man page's OPTIONS section documents short option \(o), which 'aupipe --help' does not list")
        }
    }

    @Test func everyLongOptionTheManPageMentionsExists() throws {
        let page = try Self.loadPage()
        let known = Self.usageLongOptions
        // Prose outside EXAMPLES speaks only of aupipe's own options.
        for (name, lines) in page.sections where name != "EXAMPLES" {
            for line in lines {
                for o in ManPage.longOptions(line) where !known.contains(o) {
                    Issue.record("man/aupipe.1 (\(name)) mentions \(o), which 'aupipe --help' does not list: \(line)")
                }
            }
        }
        // In EXAMPLES, the aupipe commands of each pipeline (other tools have options of their own).
        let examples = try #require(page.section("EXAMPLES"), "man/aupipe.1 has no EXAMPLES section")
        let commands = ManPage.exampleCommands(examples)
        #expect(!commands.isEmpty, "the EXAMPLES section has no .EX/.EE block with an aupipe command")
        for command in commands {
            for o in ManPage.longOptions(command) where !known.contains(o) {
                Issue.record("an example runs aupipe with \(o), which 'aupipe --help' does not list: \(command)")
            }
            if let unknownUnit = Self.unknownUnits(in: command).first {
                Issue.record("an example runs aupipe with unit '\(unknownUnit)', which UnitRegistry.all does not have: \(command)")
            }
        }
    }

    /// Words right after the start of a chain or a `:` that name no unit.
    static func unknownUnits(in command: String) -> [String] {
        let words = ManPage.plainText([command]).split(separator: " ").map(String.init)
        let names = Set(UnitRegistry.all.map(\.name))
        var result: [String] = []
        var i = 1
        var expectUnit = true
        let valueOptions: Set<String> = ["-i", "--input", "-o", "--output", "--in-format", "--out-format", "-t", "--type", "--block"]
        while i < words.count {
            let w = words[i]
            i += 1
            if w == ">" || w == "<" { i += 1; continue }
            if w.hasPrefix("-"), Double(w) == nil, w.count > 1 {
                if valueOptions.contains(w) { i += 1 }
                continue
            }
            if w == ":" { expectUnit = true; continue }
            if expectUnit {
                if !names.contains(w.lowercased()) { result.append(w) }
                expectUnit = false
            }
        }
        return result
    }

    // MARK: commands and exit statuses

    @Test func synopsisHasEveryCommandOfTheUsage() throws {
        let page = try Self.loadPage()
        let synopsis = try #require(page.section("SYNOPSIS"), "man/aupipe.1 has no SYNOPSIS section")
        let commands = HelpText.usage.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("aupipe ") }
            .compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
            .filter { $0.allSatisfy(\.isLetter) }
        #expect(!commands.isEmpty, "found no 'aupipe COMMAND' lines in HelpText.usage")
        for c in commands where !synopsis.contains(".B aupipe \(c)") {
            Issue.record("'aupipe \(c)' is in HelpText.usage but the man page's SYNOPSIS has no '.B aupipe \(c)' line")
        }
    }

    @Test func exitStatusesAreOnesTheCodeUses() throws {
        let page = try Self.loadPage()
        let section = try #require(page.section("EXIT STATUS"), "man/aupipe.1 has no EXIT STATUS section")
        let documented = ManPage.tagLines(section).compactMap { line -> Int32? in
            guard line.hasPrefix(".B ") else { return nil }
            return Int32(line.dropFirst(3).trimmingCharacters(in: .whitespaces))
        }
        #expect(documented.count >= 6, "the EXIT STATUS section lists only \(documented)")
        for status in documented where AUPipeKit.ExitStatus(rawValue: status) == nil {
            Issue.record("the man page lists exit status \(status), which ExitStatus (AUPipeError.swift) does not have")
        }
        for status: AUPipeKit.ExitStatus in [.ok, .usage, .dataError, .noInput, .software, .cannotCreate, .ioError]
            where !documented.contains(status.rawValue) {
            Issue.record("exit status \(status.rawValue) (\(status)) is not listed in the man page's EXIT STATUS section")
        }
    }
}

/// Just enough of a man(7) reader for the checks above.
struct ManPage {
    struct Missing: Error {}

    let lines: [String]
    /// `.SH` sections in order: name and the lines up to the next `.SH`.
    let sections: [(name: String, lines: [String])]

    init(_ text: String) {
        lines = text.components(separatedBy: "\n")
        var sections: [(String, [String])] = []
        for line in lines {
            if line.hasPrefix(".SH ") {
                sections.append((Self.arguments(of: line).joined(separator: " "), []))
            } else if !sections.isEmpty {
                sections[sections.count - 1].1.append(line)
            }
        }
        self.sections = sections
    }

    func section(_ name: String) -> [String]? {
        sections.first { $0.name == name }?.lines
    }

    /// `.SS` subsections of `lines`: name and the lines up to the next `.SS`.
    static func subsections(_ lines: [String]) -> [(name: String, lines: [String])] {
        var result: [(String, [String])] = []
        for line in lines {
            if line.hasPrefix(".SS ") {
                result.append((arguments(of: line).joined(separator: " "), []))
            } else if !result.isEmpty {
                result[result.count - 1].1.append(line)
            }
        }
        return result
    }

    /// The arguments of a macro line, with roff's double quotes.
    static func arguments(of line: String) -> [String] {
        var args: [String] = []
        var current = ""
        var quoted = false, inWord = false
        for ch in line.drop(while: { $0 != " " }) {
            if ch == "\"" {
                if quoted { args.append(current); current = ""; quoted = false; inWord = false } else { quoted = true; inWord = true }
            } else if ch == " " && !quoted {
                if inWord { args.append(current); current = ""; inWord = false }
            } else {
                current.append(ch)
                inWord = true
            }
        }
        if inWord { args.append(current) }
        return args
    }

    /// The lines that follow `.TP`: the tags of tagged paragraphs.
    static func tagLines(_ lines: [String]) -> [String] {
        zip(lines, lines.dropFirst()).filter { $0.0.hasPrefix(".TP") }.map(\.1)
    }

    /// A unit section's parameters: for each tag `.BI name= ...`, the paragraph under it.
    static func parameterTags(_ lines: [String]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let tag = try! Regex(#"^\.(?:B|BI|BR)\s+"?([a-z][a-z0-9-]*)="#)
        var i = 0
        while i < lines.count {
            defer { i += 1 }
            guard lines[i].hasPrefix(".TP"), i + 1 < lines.count,
                  let m = lines[i + 1].firstMatch(of: tag), let name = m.output[1].substring else { continue }
            var body: [String] = []
            var j = i + 2
            while j < lines.count, !(lines[j].hasPrefix(".TP") || lines[j].hasPrefix(".SS") || lines[j].hasPrefix(".SH") || lines[j].hasPrefix(".PP")) {
                body.append(lines[j])
                j += 1
            }
            result[String(name)] = body
        }
        return result
    }

    /// `\-\-name` in roff, as `--name`.
    static func longOptions(_ line: String) -> [String] {
        line.matches(of: try! Regex(#"\\-\\-([a-z0-9]+(?:\\-[a-z0-9]+)*)"#)).map {
            "--" + String($0.output[1].substring!).replacingOccurrences(of: "\\-", with: "-")
        }
    }

    /// `\-x` in roff (a single letter, not part of a longer word or a long option), as `-x`.
    static func shortOptions(_ line: String) -> [String] {
        let withoutLong = line.replacing(try! Regex(#"\\-\\-[a-z0-9]+(?:\\-[a-z0-9]+)*"#), with: " ")
        return withoutLong.matches(of: try! Regex(#"\\-([A-Za-z])(?![A-Za-z0-9\\])"#)).map { "-" + String($0.output[1].substring!) }
    }

    /// The aupipe commands in the `.EX`/`.EE` blocks: each block is joined into one line,
    /// split at `|` and `&&`, and the pieces that start with `aupipe` are kept.
    static func exampleCommands(_ lines: [String]) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            if line.hasPrefix(".EX") { current = []; continue }
            if line.hasPrefix(".EE") { if let c = current { blocks.append(c.joined(separator: " ")) }; current = nil; continue }
            current?.append(line)
        }
        return blocks.flatMap { block in
            block.replacingOccurrences(of: "&&", with: "|").split(separator: "|")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("aupipe ") }
        }
    }

    /// Roff lines as plain text: font macros' arguments joined, escapes removed.
    static func plainText(_ lines: [String]) -> String {
        var words: [String] = []
        for line in lines {
            if line.hasPrefix(".\\\"") { continue }
            if line.hasPrefix(".") {
                let macro = String(line.dropFirst().prefix { $0 != " " })
                let args = arguments(of: line)
                switch macro {
                case "B", "I", "SM": words.append(args.joined(separator: " "))
                case "BI", "BR", "IB", "IR", "RB", "RI": words.append(args.joined())
                default: words.append("")
                }
            } else {
                words.append(line)
            }
        }
        var text = words.joined(separator: " ")
        for (escape, plain) in [("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\&", ""), ("\\-", "-"), ("\\(mu", "×"), ("\\(+-", "±")] {
            text = text.replacingOccurrences(of: escape, with: plain)
        }
        while text.contains("  ") { text = text.replacingOccurrences(of: "  ", with: " ") }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
