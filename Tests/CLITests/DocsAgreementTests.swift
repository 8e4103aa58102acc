import AUPipeKit
import Foundation
import Testing

/// The manual page (man/aupipe.1) and the program must tell the same story. The page is made by
/// `aupipe manual` (ManualPageTests holds it equal to the committed file), so that a section
/// for every unit and option, and the version, hold by construction; what is checked here is
/// the hand-written roff inside it: each unit's parameter paragraphs (defaults, ranges, bare
/// value), the options the prose mentions, the commands, gen's signals, compare's options and
/// the exit statuses.
@Suite struct DocsAgreementTests {
    static let manURL = CLI.packageRoot.appendingPathComponent("man/aupipe.1")

    static func loadPage() throws -> ManPage {
        guard FileManager.default.fileExists(atPath: manURL.path) else {
            Issue.record("the manual page \(manURL.path) does not exist")
            throw ManPage.Missing()
        }
        return ManPage(try String(contentsOf: manURL, encoding: .utf8))
    }

    // MARK: units and parameters

    /// Records an issue for every registered name the page lacks and every documented name the code lacks.
    static func expectSameNames(documented: [String], registered: [String], missing: (String) -> String, extra: (String) -> String) {
        for name in registered where !documented.contains(name) { Issue.record(Comment(rawValue: missing(name))) }
        for name in documented where !registered.contains(name) { Issue.record(Comment(rawValue: extra(name))) }
    }

    /// A unit's descriptor and the tagged parameter paragraphs of its `.SS` section.
    static func unitSection(_ name: String) throws -> (UnitDescriptor, [String: [String]]) {
        let d = try UnitRegistry.descriptor(named: name)
        let units = try #require(try loadPage().section("UNITS"), "man/aupipe.1 has no UNITS section")
        let body = try #require(ManPage.subsections(units).first { $0.name == name }?.lines,
                                "unit '\(name)' has no '.SS \(name)' section in man/aupipe.1")
        return (d, ManPage.parameterTags(body))
    }

    @Test(arguments: UnitRegistry.all.map(\.name))
    func everyParameterIsDocumentedInItsUnitsSection(unit name: String) throws {
        let (d, tags) = try Self.unitSection(name)
        Self.expectSameNames(documented: Array(tags.keys), registered: d.parameters.map(\.name),
                             missing: { "\(name): parameter '\($0)' has no tagged paragraph ('.TP' then '.BI \($0)= ...') in the man page's '\(name)' section" },
                             extra: { "\(name): the man page documents a parameter '\($0)=' that the unit does not have (it has \(d.parameters.map(\.name).joined(separator: ", ")))" })
    }

    @Test(arguments: UnitRegistry.all.map(\.name))
    func parameterDefaultsRangesAndBareValueAgree(unit name: String) throws {
        let (d, tags) = try Self.unitSection(name)
        for p in d.parameters {
            guard let paragraph = tags[p.name] else { continue } // reported by the test above
            let text = ManPage.plainText(paragraph)
            let isPrimary = p.name == d.primary
            if isPrimary != text.contains("(bare value)") {
                Issue.record("\(name) \(p.name)=: the man page \(isPrimary ? "does not say" : "says") '(bare value)', but the code's primary parameter is \(d.primary ?? "none")")
            }
            if let def = p.defaultValue {
                if !Self.says(text, default: def) {
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
        case .integerOrChoice(let r, _): return "\(r.lowerBound) to \(r.upperBound)"
        case .numberOrChoice(let r, _, _): return "\(number(r.lowerBound)) to \(number(r.upperBound))"
        case .rate: return "1 to 768000"
        case .duration(let r, _): return "\(number(r.lowerBound * 1000)) to \(number(r.upperBound * 1000)) ms"
        case .boolean, .encoding, .channelMap, .timeRanges, .choice, .text, .custom, .gainOrFactor, .streamFormat, .path: return nil
        case .durationOrAuto(let r, _): return "\(number(r.lowerBound * 1000)) to \(number(r.upperBound * 1000)) ms"
        case .numberList(let r, _): return "\(number(r.lowerBound)) to \(number(r.upperBound))"
        }
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    // MARK: options

    /// The option column of the "Options:" block of `HelpText.usage`, one term per option:
    /// `-i, --input PATH`, `--stats[=json]`. These are the chain's options.
    static var usageOptionTerms: [String] {
        let lines = HelpText.usage.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "Options:" }) else { return [] }
        var terms: [String] = []
        for line in lines[(start + 1)...] {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            // An option's line starts with two spaces and a dash; its term ends at the next two
            // spaces. Continuation lines of a description are indented further.
            guard line.hasPrefix("  -") else { continue }
            let body = line.dropFirst(2)
            terms.append(body.range(of: "  ").map { String(body[..<$0.lowerBound]) } ?? String(body))
        }
        return terms
    }

    static func longOptions(inHelp text: String) -> Set<String> {
        Set(text.matches(of: try! Regex(#"--[a-z][a-z0-9-]*"#)).map { String($0.output[0].substring!) })
    }

    /// The chain's long options: those of the "Options:" block of `HelpText.usage`.
    static var usageLongOptions: Set<String> {
        longOptions(inHelp: usageOptionTerms.joined(separator: " "))
    }

    /// The chain's short options: the `-x` of the block's `-x, --name` terms.
    static var usageShortOptions: Set<String> {
        let pattern = try! Regex(#"^(-[A-Za-z]),"#)
        return Set(usageOptionTerms.compactMap { term in
            term.firstMatch(of: pattern).flatMap { $0.output[1].substring }.map(String.init)
        })
    }

    /// `aupipe compare`'s options: every `--name` in `HelpText.compare` (`aupipe help compare`).
    static var compareOptions: Set<String> { longOptions(inHelp: HelpText.compare) }

    /// `aupipe gen`'s options, long and short: those of the first line of `HelpText.gen`,
    /// `aupipe gen SIGNAL [ARG]... [-o PATH] [-t TYPE] [--out-format SPEC] [--stats]`.
    static var genOptions: Set<String> {
        let line = String(HelpText.gen.split(separator: "\n").first ?? "")
        let short = line.matches(of: try! Regex(#"\[(-[A-Za-z])[ \]]"#)).map { String($0.output[1].substring!) }
        return longOptions(inHelp: line).union(short)
    }

    /// The options on the `aupipe COMMAND` line of `HelpText.usage`.
    static func usageLineOptions(_ command: String) -> Set<String> {
        let line = HelpText.usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("aupipe \(command) ") } ?? ""
        return longOptions(inHelp: line)
    }

    @Test func usageHasOptionsToCompare() {
        // Guards the tests below against a regex that silently finds nothing.
        #expect(Self.usageLongOptions.count >= 5, "found only \(Self.usageLongOptions.sorted()) as long options in the 'Options:' block of HelpText.usage")
        #expect(Self.usageShortOptions.contains("-i"), "found no '-i, --input' in HelpText.usage; found \(Self.usageShortOptions.sorted())")
        #expect(Self.compareOptions.count >= 5, "found only \(Self.compareOptions.sorted()) as options in HelpText.compare")
        #expect(Self.genOptions.contains("--out-format") && Self.genOptions.contains("-o"),
                "found only \(Self.genOptions.sorted()) as options on the first line of HelpText.gen")
        // The compare options are not the chain's: the "Options:" block must not have swallowed them.
        #expect(!Self.usageLongOptions.contains("--max-lsb"), "the chain's options (HelpText.usage 'Options:') include --max-lsb: \(Self.usageLongOptions.sorted())")
    }

    @Test func everyLongOptionTheManPageMentionsExists() throws {
        let page = try Self.loadPage()
        let known = Self.usageLongOptions.union(Self.compareOptions).union(Self.genOptions)
        // Prose outside EXAMPLES speaks only of aupipe's own options.
        for (name, lines) in page.sections where name != "EXAMPLES" {
            for line in lines {
                for o in ManPage.longOptions(line) where !known.contains(o) {
                    Issue.record("man/aupipe.1 (\(name)) mentions \(o), which neither 'aupipe --help' (Options:) nor 'aupipe help compare' lists: \(line)")
                }
            }
        }
        // The compare subsection speaks of compare's options only.
        if let compare = try? Self.commandSubsection(page, "compare") {
            for line in compare {
                for o in ManPage.longOptions(line) where !Self.compareOptions.contains(o) {
                    Issue.record("the man page's compare subsection mentions \(o), which 'aupipe help compare' (HelpText.compare) does not list: \(line)")
                }
            }
        }
        // In EXAMPLES, the aupipe commands of each pipeline (other tools have options of their own).
        let examples = try #require(page.section("EXAMPLES"), "man/aupipe.1 has no EXAMPLES section")
        let commands = ManPage.exampleCommands(examples)
        #expect(!commands.isEmpty, "the EXAMPLES section has no .EX/.EE block with an aupipe command")
        for command in commands {
            let words = Self.commandWords(command)
            let isCompare = words.dropFirst().first == "compare"
            let allowed = isCompare ? Self.compareOptions : Self.usageLongOptions
            for o in ManPage.longOptions(command) where !allowed.contains(o) {
                Issue.record("an example runs aupipe with \(o), which \(isCompare ? "'aupipe help compare'" : "the 'Options:' of 'aupipe --help'") does not list: \(command)")
            }
            if let unknownUnit = Self.unknownUnits(in: command).first {
                Issue.record("an example runs aupipe with unit '\(unknownUnit)', which UnitRegistry.all does not have: \(command)")
            }
            // The command line parser must take it, and gen's signal its arguments.
            do {
                if case .gen(let signal, let arguments, _) = try CommandLineParser.parse(Array(words.dropFirst())) {
                    _ = try SignalRegistry.descriptor(named: signal).parseArguments(arguments)
                }
            } catch {
                Issue.record("an example's aupipe command is refused: \(error): \(command)")
            }
        }
    }

    /// An example command as words, without shell redirections (`> out.wav`, `< in.wav`).
    static func commandWords(_ command: String) -> [String] {
        var words = ManPage.plainText([command]).split(separator: " ").map(String.init)
        while let i = words.firstIndex(where: { $0 == ">" || $0 == "<" }) {
            words.removeSubrange(i..<min(i + 2, words.count))
        }
        return words
    }

    /// The commands of `HelpText.usage` (`info`, `gen`, ...): the word after `aupipe` on its
    /// usage lines.
    static var usageCommands: [String] {
        HelpText.usage.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("aupipe ") }
            .compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
            .filter { $0.allSatisfy(\.isLetter) }
    }

    /// Words right after the start of a chain or a `:` that name no unit (none for commands
    /// such as `gen` and `compare`, which run no chain).
    static func unknownUnits(in command: String) -> [String] {
        let words = commandWords(command)
        if let first = words.dropFirst().first, usageCommands.contains(first) { return [] }
        let names = Set(UnitRegistry.all.map(\.name))
        var result: [String] = []
        var i = 1
        var expectUnit = true
        let valueOptions = Set(CommandLineParser.valueOptions)
        while i < words.count {
            let w = words[i]
            i += 1
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
        let commands = Self.usageCommands
        #expect(!commands.isEmpty, "found no 'aupipe COMMAND' lines in HelpText.usage")
        for c in commands where !synopsis.contains(".B aupipe \(c)") {
            Issue.record("'aupipe \(c)' is in HelpText.usage but the man page's SYNOPSIS has no '.B aupipe \(c)' line")
        }
    }

    /// The SYNOPSIS lines of `aupipe COMMAND`: from `.B aupipe COMMAND` to the next `.br`.
    static func synopsisEntry(_ synopsis: [String], _ command: String) -> [String]? {
        guard let start = synopsis.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == ".B aupipe \(command)" }) else { return nil }
        return Array(synopsis[start...].prefix { $0 != ".br" })
    }

    @Test func synopsisOfGenAndCompareListsTheirOptions() throws {
        let page = try Self.loadPage()
        let synopsis = try #require(page.section("SYNOPSIS"), "man/aupipe.1 has no SYNOPSIS section")
        for (command, options) in [("gen", Self.genOptions), ("compare", Self.compareOptions)] {
            guard let entry = Self.synopsisEntry(synopsis, command) else {
                Issue.record("the man page's SYNOPSIS has no '.B aupipe \(command)' line")
                continue
            }
            let listed = Set(entry.flatMap(ManPage.longOptions) + entry.flatMap(ManPage.shortOptions))
            for o in options.sorted() where !listed.contains(o) {
                Issue.record("option \(o) of 'aupipe \(command)' (HelpText.\(command)) is missing from the SYNOPSIS line of 'aupipe \(command)'")
            }
            for o in listed.sorted() where !options.contains(o) {
                Issue.record("the SYNOPSIS line of 'aupipe \(command)' lists \(o), which HelpText.\(command) does not")
            }
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
        for status: AUPipeKit.ExitStatus in [.ok, .differs, .usage, .dataError, .noInput, .unavailable, .software, .cannotCreate, .ioError, .interrupted, .terminated]
            where !documented.contains(status.rawValue) {
            Issue.record("exit status \(status.rawValue) (\(status)) is not listed in the man page's EXIT STATUS section")
        }
    }

    // MARK: gen

    /// The `.SS NAME` subsection of COMMANDS.
    static func commandSubsection(_ page: ManPage, _ name: String) throws -> [String] {
        let commands = try #require(page.section("COMMANDS"), "man/aupipe.1 has no COMMANDS section")
        return try #require(ManPage.subsections(commands).first { $0.name == name }?.lines,
                            "man/aupipe.1 has no '.SS \(name)' subsection under COMMANDS")
    }

    /// The gen subsection split at its signal entries: a `.TP` whose tag is `.B NAME` (one
    /// word) starts a signal's entry, which runs to the next one; before the first is the
    /// introduction (options and `duration=`).
    static func signalEntries(_ lines: [String]) -> (intro: [String], signals: [(name: String, lines: [String])]) {
        let tag = try! Regex(#"^\.B\s+([a-z][a-z0-9]*)\s*$"#)
        var intro: [String] = []
        var signals: [(String, [String])] = []
        var i = 0
        while i < lines.count {
            if lines[i].hasPrefix(".TP"), i + 1 < lines.count, let m = lines[i + 1].firstMatch(of: tag), let name = m.output[1].substring {
                signals.append((String(name), []))
                i += 2
                continue
            }
            if signals.isEmpty { intro.append(lines[i]) } else { signals[signals.count - 1].1.append(lines[i]) }
            i += 1
        }
        return (intro, signals)
    }

    @Test func everySignalHasAnEntryAndNoOtherSignalIsDocumented() throws {
        let gen = try Self.commandSubsection(try Self.loadPage(), "gen")
        Self.expectSameNames(documented: Self.signalEntries(gen).signals.map(\.name), registered: SignalRegistry.all.map(\.name),
                             missing: { "signal '\($0)' (SignalRegistry.all) has no entry ('.TP' then '.B \($0)') in the man page's gen subsection" },
                             extra: { "the man page's gen subsection documents a signal '\($0)' that SignalRegistry.all does not have" })
    }

    @Test(arguments: SignalRegistry.all.map(\.name))
    func everySignalParameterIsDocumentedWithItsTypeRangeAndDefault(signal name: String) throws {
        let d = try SignalRegistry.descriptor(named: name)
        let gen = try Self.commandSubsection(try Self.loadPage(), "gen")
        let body = try #require(Self.signalEntries(gen).signals.first { $0.name == name }?.lines,
                                "signal '\(name)' has no entry ('.TP' then '.B \(name)') in the man page's gen subsection")
        let tags = ManPage.parameterTags(body)
        for p in d.parameters where tags[p.name] == nil {
            Issue.record("gen \(name): parameter '\(p.name)' has no tagged paragraph ('.TP' then '.BI \(p.name)= ...') in the man page's '\(name)' entry")
        }
        let real = Set(d.parameters.map(\.name))
        for documented in tags.keys where !real.contains(documented) {
            Issue.record("gen \(name): the man page documents a parameter '\(documented)=' that the signal does not have (it has \(d.parameters.map(\.name).joined(separator: ", ")); duration= is common to all)")
        }
        if !ManPage.plainText(body).contains("duration=") {
            Issue.record("gen \(name): the man page's '\(name)' entry does not say what duration= means for it (its length without duration=)")
        }
        for p in d.parameters {
            guard let paragraph = tags[p.name] else { continue }
            let text = ManPage.plainText(paragraph)
            let isPrimary = p.name == d.primary
            if isPrimary != text.contains("(bare value)") {
                Issue.record("gen \(name) \(p.name)=: the man page \(isPrimary ? "does not say" : "says") '(bare value)', but the code's primary parameter is \(d.primary ?? "none")")
            }
            if let def = p.defaultValue {
                if !Self.says(text, default: def) {
                    Issue.record("gen \(name) \(p.name)=: the code's default is \(def), but the man page's paragraph does not say 'Default \(def)': \(text)")
                }
            } else if !text.contains("No default") {
                Issue.record("gen \(name) \(p.name)=: the code has no default, but the man page's paragraph does not say 'No default': \(text)")
            }
            for (what, expected) in Self.typeTexts(p.kind) where !text.contains(expected) {
                Issue.record("gen \(name) \(p.name)=: the code's type is \(p.typeDescription), but the man page's paragraph does not give its \(what) '\(expected)': \(text)")
            }
        }
    }

    @Test func durationIsDocumentedOnceForEverySignal() throws {
        let gen = try Self.commandSubsection(try Self.loadPage(), "gen")
        let tags = ManPage.parameterTags(Self.signalEntries(gen).intro)
        let p = SignalDescriptor.duration
        let paragraph = try #require(tags[p.name], "the man page's gen subsection has no '.TP' '.BI \(p.name)= ...' paragraph before the signals (the parameter every signal takes)")
        let text = ManPage.plainText(paragraph)
        for (what, expected) in Self.typeTexts(p.kind) where !text.contains(expected) {
            Issue.record("gen duration=: the code's type is \(p.typeDescription), but the man page's paragraph does not give its \(what) '\(expected)': \(text)")
        }
        for documented in tags.keys where documented != p.name {
            Issue.record("the man page's gen subsection documents '\(documented)=' before the signals, as if every signal took it; only duration= is common")
        }
    }

    /// What a parameter's paragraph must contain for its kind: its range, unit, choices.
    static func typeTexts(_ kind: ParameterDescriptor.Kind) -> [(String, String)] {
        var result: [(String, String)] = []
        if let range = rangeText(kind) { result.append(("range", range)) }
        switch kind {
        case .number(_, let unit), .numberList(_, let unit):
            if !unit.isEmpty { result.append(("unit", unit)) }
        case .choice(let words):
            result += words.map { ("choice", $0) }
        case .text(let allowed, let maxLength):
            // The length, and the characters that are not letters or digits (those are
            // usually given as ranges: 0 to 9, A to D).
            result.append(("maximum length", String(maxLength)))
            result += allowed.filter { !$0.isLetter && !$0.isNumber }.map { ("allowed character", String($0)) }
        default:
            break
        }
        return result
    }

    /// Whether `text` says `Default VALUE` with nothing more to the value (`Default -3` is not
    /// in `Default -30`, nor `Default 0` in `Default 0.5`).
    static func says(_ text: String, default value: String) -> Bool {
        var rest = Substring(text)
        while let r = rest.range(of: "Default \(value)") {
            let after = rest[r.upperBound...]
            guard let next = after.first else { return true }
            let isContinued = next.isLetter || next.isNumber
                || ((next == "." || next == ",") && after.dropFirst().first?.isNumber == true)
            if !isContinued { return true }
            rest = after
        }
        return false
    }

    // MARK: compare

    @Test func everyCompareOptionIsInTheManPagesCompareSubsectionAndViceVersa() throws {
        let compare = try Self.commandSubsection(try Self.loadPage(), "compare")
        let documented = Set(ManPage.tagLines(compare).flatMap(ManPage.longOptions))
        for o in Self.compareOptions.sorted() where !documented.contains(o) {
            Issue.record("compare option \(o) ('aupipe help compare', HelpText.compare) has no entry (.TP tag) in the man page's compare subsection")
        }
        for o in documented.sorted() where !Self.compareOptions.contains(o) {
            Issue.record("the man page's compare subsection documents \(o), which 'aupipe help compare' (HelpText.compare) does not list")
        }
    }

    @Test func theHelpTextsOptionsAreTheOnesTheParserTakes() {
        // compare: an option the parser does not know is an 'unknown option'; a known one
        // either works (flags) or asks for its value.
        for o in Self.compareOptions.sorted() {
            do {
                _ = try CommandLineParser.parse(["compare", "a.wav", "b.wav", o])
            } catch {
                if "\(error)".contains("unknown option") {
                    Issue.record("'aupipe help compare' lists \(o), which 'aupipe compare' refuses: \(error)")
                }
            }
        }
        for o in Self.usageLineOptions("compare").sorted() where !Self.compareOptions.contains(o) {
            Issue.record("the 'aupipe compare' line of HelpText.usage has \(o), which 'aupipe help compare' does not list")
        }
        // gen: every option of its help line is taken with a value after it.
        for o in Self.genOptions.sorted() {
            do {
                _ = try CommandLineParser.parse(["gen", "sine", o, "x"])
            } catch {
                Issue.record("'aupipe help gen' lists \(o), which 'aupipe gen' refuses: \(error)")
            }
        }
        for o in Self.usageLineOptions("gen").sorted() where !Self.genOptions.contains(o) {
            Issue.record("the 'aupipe gen' line of HelpText.usage has \(o), which the first line of 'aupipe help gen' does not list")
        }
    }

    @Test func genOptionsAreInTheManPagesGenSubsectionAndTakenByGen() throws {
        let gen = try Self.commandSubsection(try Self.loadPage(), "gen")
        let tagLines = ManPage.tagLines(Self.signalEntries(gen).intro)
        let documented = Set(tagLines.flatMap(ManPage.longOptions) + tagLines.flatMap(ManPage.shortOptions))
        for o in Self.genOptions.sorted() where !documented.contains(o) {
            Issue.record("gen option \(o) (first line of 'aupipe help gen') has no entry (.TP tag) in the man page's gen subsection")
        }
        for o in documented.sorted() {
            do {
                _ = try CommandLineParser.parse(["gen", "sine", o, "x"])
            } catch {
                Issue.record("the man page's gen subsection documents \(o), which 'aupipe gen' refuses: \(error)")
            }
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

    /// A unit section's parameters: for each tag `.BI name= ...`, the paragraph under it. A
    /// hyphen in the name may be written as roff's `\-` (`.BI main\-gain= DB`).
    static func parameterTags(_ lines: [String]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let tag = try! Regex(#"^\.(?:B|BI|BR)\s+"?([a-z](?:[a-z0-9-]|\\-)*)="#)
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
            result[String(name).replacingOccurrences(of: "\\-", with: "-")] = body
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
    /// its process substitutions are taken out as commands of their own, it is split at `|`
    /// and `&&`, and the pieces that start with `aupipe` are kept.
    static func exampleCommands(_ lines: [String]) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            if line.hasPrefix(".EX") { current = []; continue }
            if line.hasPrefix(".EE") { if let c = current { blocks.append(c.joined(separator: " ")) }; current = nil; continue }
            current?.append(line)
        }
        return blocks.flatMap(processSubstitutions).flatMap { block in
            block.replacingOccurrences(of: "&&", with: "|").split(separator: "|")
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("aupipe ") }
        }
    }

    /// A command line with every process substitution, `<(command)` or `>(command)`, replaced
    /// by the path the shell passes in its place (`/dev/fd/63`), followed by the commands that
    /// were substituted (and those nested in them), so that each is checked as a command of
    /// its own: `aupipe mix input=<(ffmpeg -i a.mp3 -f caf -)` gives
    /// `aupipe mix input=/dev/fd/63` and `ffmpeg -i a.mp3 -f caf -`.
    static func processSubstitutions(_ line: String) -> [String] {
        var outer = ""
        var inner: [String] = []
        var rest = Substring(line)
        while let open = rest.firstRange(of: try! Regex(#"[<>]\("#)) {
            outer += rest[..<open.lowerBound]
            var depth = 1
            var end = open.upperBound
            while end < rest.endIndex && depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            guard depth == 0 else { outer += rest[open.lowerBound...]; rest = ""; break } // unbalanced: left as it is
            inner += processSubstitutions(String(rest[open.upperBound..<rest.index(before: end)]))
            outer += "/dev/fd/63"
            rest = rest[end...]
        }
        return [outer + rest] + inner
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
