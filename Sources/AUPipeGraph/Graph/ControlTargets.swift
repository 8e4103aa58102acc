import AUPipeFormats

/// The units a control line can reach, and how it names them.
///
/// An address is `UNIT.PARAMETER`, where UNIT is a unit's name when the chain has only one of
/// that name (`gain.db`), the name with its position among units of that name (`gain#2.db`),
/// its position in the chain (`3.db`, from 1), or the label given with `name=` (`voice.db`).
package struct ControlTargets {
    package struct Entry {
        package let name: String
        package let label: String?
        package let descriptor: UnitDescriptor
        package let unit: any AudioUnit

        package init(name: String, label: String?, descriptor: UnitDescriptor, unit: any AudioUnit) {
            (self.name, self.label, self.descriptor, self.unit) = (name, label, descriptor, unit)
        }
        /// The unit's live side, when it has one.
        package var live: (any LiveControllable)? { unit as? any LiveControllable }
        /// Names of live parameters the descriptor does not list (`mix`'s `bus1.gain`).
        package var extraLiveNames: [String] { live?.liveParameterNames ?? [] }
        /// Figures `get` reads that are not parameters (a meter's, a plugin's output ports).
        package var figures: [String] { live?.readableFigures ?? [] }
        package func value(_ name: String) -> String? { live?.parameterValue(name) }

        /// The figure `name` names (any case) when it is one and no parameter is: read-only.
        package func figure(_ name: String) -> String? {
            guard !descriptor.parameters.contains(where: { $0.name.lowercased() == name }), live?.liveParameter(name) == nil else { return nil }
            return figures.first { $0.lowercased() == name }
        }
    }

    package let entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    /// Runs one command line and returns its reply: `set ADDRESS VALUE`, `get ADDRESS`, `list`.
    package func execute(_ line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return "" }
        do {
            switch verb {
            case "set":
                guard words.count == 3 else { throw AUPipeError.usage("usage: set UNIT.PARAMETER VALUE") }
                let (target, name) = try resolveAny(words[1])
                if target.figure(name) != nil {
                    throw AUPipeError.usage("\(words[1]) is read-only: a figure \(target.name) reports, not a parameter; read it with get \(words[1])")
                }
                let (entry, parameter) = try resolve(words[1])
                guard parameter.isLive else {
                    throw AUPipeError.usage("\(words[1]) cannot change while running; \(Self.liveList(entry))")
                }
                let value = try parameter.parse(words[2], unit: entry.name)
                guard let live = entry.live else { throw AUPipeError.usage("\(words[1]) cannot change while running") }
                try live.setParameter(parameter.name, to: value)
                return "ok \(words[1]) \(entry.value(parameter.name) ?? words[2])"
            case "get":
                guard words.count == 2 else { throw AUPipeError.usage("usage: get UNIT.PARAMETER") }
                let (entry, name) = try resolveAny(words[1])
                guard let value = entry.value(name) else {
                    // A figure not measured yet, a parameter that exists but is not live, or
                    // nothing of that name (then the unit's figures are listed).
                    if entry.figure(name) != nil { throw AUPipeError.usage("\(words[1]) has no value to report yet") }
                    let parameter: ParameterDescriptor
                    do { parameter = try resolve(words[1]).1 } catch let e as AUPipeError where !entry.figures.isEmpty {
                        throw AUPipeError.usage(Self.unknownForGet(entry, name, fallback: e.message))
                    }
                    guard parameter.isLive else { throw AUPipeError.usage("\(words[1]) is not live; \(Self.liveList(entry))") }
                    throw AUPipeError.usage("\(words[1]) has no value to report")
                }
                return "\(words[1]) \(value)"
            case "list":
                var out: [String] = []
                for (i, e) in entries.enumerated() {
                    for name in e.descriptor.parameters.filter(\.isLive).map(\.name) + e.extraLiveNames {
                        out.append("\(i + 1).\(name) (\(e.label ?? e.name)) \(e.value(name) ?? "?")")
                    }
                }
                return out.isEmpty ? "no live parameters in this chain" : out.joined(separator: "; ")
            default:
                throw AUPipeError.usage("unknown command '\(verb)'; use set UNIT.PARAMETER VALUE, get UNIT.PARAMETER or list")
            }
        } catch let e as AUPipeError {
            return "error: \(e.message)"
        } catch {
            return "error: \(error)"
        }
    }

    /// `gain's live parameters: db`, for messages about a parameter that is not live.
    package static func liveList(_ entry: Entry) -> String {
        let live = entry.descriptor.parameters.filter(\.isLive).map(\.name) + entry.extraLiveNames
        return "\(entry.name)'s live parameters: \(live.isEmpty ? "none" : live.joined(separator: ", "))"
    }

    /// `meter has no parameter or figure 'foo'; get reads its figures integrated, ...`: a name
    /// `get` cannot read on a unit that has figures; `fallback` (the parameter message) where a
    /// parameter is the likely meaning.
    package static func unknownForGet(_ entry: Entry, _ name: String, fallback: String) -> String {
        let figures = entry.figures
        if let near = suggestion(for: name, among: figures) {
            return "\(entry.name) has no parameter or figure '\(name)'; did you mean '\(near)'? (get reads its figures \(figures.joined(separator: ", ")))"
        }
        if suggestion(for: name, among: entry.descriptor.parameters.map(\.name) + entry.extraLiveNames) != nil { return fallback }
        let live = entry.descriptor.parameters.filter(\.isLive).map(\.name) + entry.extraLiveNames
        return "\(entry.name) has no parameter or figure '\(name)'; get reads its figures \(figures.joined(separator: ", "))"
            + (live.isEmpty ? "" : " and its live parameters \(live.joined(separator: ", "))")
    }

    /// The unit and declared parameter an address names.
    package func resolve(_ address: String) throws -> (Entry, ParameterDescriptor) {
        let (entry, name) = try resolveAny(address)
        // Plugin port symbols may hold capitals (LV2); the address is lowercased.
        guard let p = entry.descriptor.parameters.first(where: { $0.name == name })
                ?? entry.descriptor.parameters.first(where: { $0.name.lowercased() == name })
                ?? entry.live?.liveParameter(name) else {
            let known = entry.descriptor.parameters.map(\.name) + entry.extraLiveNames
            let hint = suggestion(for: name, among: known).map { "; did you mean '\($0)'?" } ?? "; its parameters: \(known.joined(separator: ", "))"
            throw AUPipeError.usage("\(entry.name) has no parameter '\(name)'\(hint)")
        }
        return (entry, p)
    }

    /// The unit an address names, and the text after its dot.
    package func resolveAny(_ address: String) throws -> (Entry, String) {
        // Unit addresses hold no dot, so the first one ends it (`mix.bus1.gain`: unit `mix`, `bus1.gain`).
        guard let dot = address.firstIndex(of: "."), dot != address.startIndex, address.index(after: dot) != address.endIndex else {
            throw AUPipeError.usage("'\(address)' is not UNIT.PARAMETER (e.g. gain.db, gain#2.db, 2.db)")
        }
        let unit = String(address[..<dot]), name = String(address[address.index(after: dot)...]).lowercased()
        if let position = Int(unit) {
            guard position >= 1, position <= entries.count else { throw AUPipeError.usage("there is no unit \(position); the chain has \(entries.count)") }
            return (entries[position - 1], name)
        }
        if let e = entries.first(where: { $0.label == unit }) { return (e, name) }
        let parts = unit.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard !parts[0].isEmpty else { throw AUPipeError.usage("'\(address)' names no unit before '#' (e.g. gain#2.db)") }
        let same = entries.filter { $0.name == parts[0].lowercased() }
        if parts.count == 2 {
            guard let k = Int(parts[1]), (1...max(1, same.count)).contains(k), !same.isEmpty else {
                throw AUPipeError.usage("there is no \(unit): the chain has \(counted(same.count, "\(parts[0]) unit"))")
            }
            return (same[k - 1], name)
        }
        guard !same.isEmpty else {
            let known = entries.map { $0.label ?? $0.name }
            let hint = suggestion(for: unit, among: known).map { "; did you mean '\($0)'?" } ?? ""
            throw AUPipeError.usage("no unit '\(unit)' in the chain\(hint) (units: \(known.joined(separator: ", ")))")
        }
        guard same.count == 1 else {
            throw AUPipeError.usage("'\(unit)' is ambiguous: the chain has \(same.count); say \(unit)#1 ... \(unit)#\(same.count), or give them name= labels")
        }
        return (same[0], name)
    }
}
