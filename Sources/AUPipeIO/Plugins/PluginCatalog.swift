import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import Synchronization

/// The plugins of one backend, discovered once, when first asked for: a run whose chain has no
/// plugin never scans (and never loads lilv).
public final class PluginCatalog: Sendable {
    public let backend: any PluginBackend
    private let found = Mutex<[PluginInfo]?>(nil)

    public init(backend: any PluginBackend) {
        self.backend = backend
    }

    /// The backend's plugins (`discover` runs on the first call only; an error is not kept).
    public func plugins() throws -> [PluginInfo] {
        if let list = found.withLock({ $0 }) { return list }
        let list = try backend.discover().map { $0.withHostSymbols() }
        found.withLock { $0 = list }
        return list
    }

    /// The plugin `word` names, as the `lv2`/`ladspa` unit's first argument; see `PluginLookup`.
    public func plugin(named word: String) throws -> PluginInfo {
        // An exact identifier wins the lookup anyway: the backend may find it without a scan,
        // and a word too where it keeps an index of its plugins.
        if found.withLock({ $0 }) == nil {
            if let p = backend.plugin(withIdentifier: word) { return p.withHostSymbols() }
            if let p = try backend.plugin(named: word) { return p.withHostSymbols() }
        }
        return try PluginLookup.find(word, in: try plugins(), standard: backend.standard)
    }
}

extension PluginInfo {
    /// The short words that name an LV2 plugin as users type them, for a did-you-mean: its URI's
    /// last path segment (`eg-amp`, `dpl#mono`, `butthigh_iir`) and that segment's part before a
    /// `#` (`dpl`); none for LADSPA, whose label serves.
    package var identifierWords: [String] {
        guard standard == .lv2, let slash = identifier.lastIndex(of: "/") else { return [] }
        let tail = String(identifier[identifier.index(after: slash)...])
        guard !tail.isEmpty else { return [] }
        if let hash = tail.firstIndex(of: "#"), hash != tail.startIndex { return [tail, String(tail[..<hash])] }
        return [tail]
    }

    /// The words every plugin unit takes for itself: `name=LABEL` (any unit's label for
    /// `--control`) and `preset=NAME` (where the plugin has presets).
    package static func hostKeys(presets: Bool) -> Set<String> { presets ? ["name", "preset"] : ["name"] }

    /// The plugin with ports whose symbol is one of the host's keys renamed `SYMBOL_port`
    /// (`_port2`, ... should that be taken too), so that every port can be set: done here,
    /// where a plugin of any standard enters the host.
    package func withHostSymbols() -> PluginInfo {
        let reserved = Self.hostKeys(presets: !presets.isEmpty)
        guard ports.contains(where: { reserved.contains($0.symbol) }) else { return self }
        var copy = self
        var taken = Set(ports.map(\.symbol))
        for i in copy.ports.indices where reserved.contains(copy.ports[i].symbol) {
            var symbol = copy.ports[i].symbol + "_port", n = 2
            while taken.contains(symbol) { symbol = copy.ports[i].symbol + "_port\(n)"; n += 1 }
            taken.insert(symbol)
            copy.ports[i].symbol = symbol
        }
        return copy
    }
}

/// How a plugin is named on the command line: its identifier (an LV2 URI, LADSPA's
/// `library:label`), LADSPA's label or unique ID, its name, or any unique case-insensitive part
/// of its identifier or name. An unknown word gets a did-you-mean, an ambiguous one the
/// candidates, both as usage errors (64).
public enum PluginLookup {
    public static func find(_ word: String, in plugins: [PluginInfo], standard: PluginStandard) throws -> PluginInfo {
        let unit = standard.rawValue
        let w = word.lowercased()
        func one(_ matches: [PluginInfo]) throws -> PluginInfo? {
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw ambiguous(word, matches, unit: unit) }
            return nil
        }
        if let p = try one(plugins.filter { $0.identifier.lowercased() == w }) { return p }
        if let id = UInt(word), let p = try one(plugins.filter { $0.uniqueID == id }) { return p }
        if let p = try one(plugins.filter { $0.label?.lowercased() == w }) { return p }
        if let p = try one(plugins.filter { $0.name.lowercased() == w }) { return p }
        if let p = try one(plugins.filter { $0.identifier.lowercased().contains(w) || $0.name.lowercased().contains(w) }) { return p }
        guard !plugins.isEmpty else {
            throw AUPipeError(.unavailable, "\(unit): no \(standard == .lv2 ? "LV2" : "LADSPA") plugins are installed; "
                + (standard == .lv2 ? "install some (lv2-examples, x42-plugins, swh-lv2) or set LV2_PATH"
                                    : "install some (ladspa-sdk, swh-plugins, tap-plugins) or set LADSPA_PATH"))
        }
        let names = plugins.flatMap { [$0.label ?? $0.identifier] + $0.identifierWords + [$0.identifier, $0.name] }
        let hint = suggestion(for: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw AUPipeError(.usage, "\(unit): no plugin '\(word)'\(hint) ('aupipe plugins \(unit)' lists the installed ones)")
    }

    package static func ambiguous(_ word: String, _ matches: [PluginInfo], unit: String) -> AUPipeError {
        let shown = matches.prefix(8).map { "\($0.identifier) (\($0.name))" }
        let more = matches.count > 8 ? " and \(matches.count - 8) more" : ""
        return .usage("\(unit): '\(word)' matches \(matches.count) plugins: \(shown.joined(separator: ", "))\(more); name one of them")
    }
}
