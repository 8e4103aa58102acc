/// `aupipe plugins [lv2|ladspa] [WORD]`: the installed plugins, one row each: standard,
/// identifier (what the unit's first argument may always be), name, audio inputs and outputs,
/// "reports latency" for a plugin with a latency port, and any feature it requires that aupipe
/// lacks. WORD keeps the rows whose identifier or name contains it (case-insensitive).
public enum PluginsCommand {
    public static func run(standard: PluginStandard?, word: String?, registry: UnitRegistry, console: any Console) throws {
        let hosts = registry.providers.compactMap { $0 as? PluginUnits }.flatMap(\.catalogs)
            .sorted { $0.backend.standard.rawValue < $1.backend.standard.rawValue }
        let chosen = hosts.filter { standard == nil || $0.backend.standard == standard }
        if let standard, chosen.isEmpty {
            throw AUPipeError(.unavailable, "plugins: this aupipe has no \(standard.rawValue) host")
        }
        var rows: [[String]] = []
        for catalog in chosen {
            let plugins: [PluginInfo]
            do {
                plugins = try catalog.plugins()
            } catch let e as AUPipeError where standard == nil {
                // Listing every standard: one missing library (lilv) does not hide the others.
                console.err("aupipe: \(e.message)")
                continue
            }
            rows += plugins.filter { matches($0, word) }.map(row)
            if let lv2 = catalog.backend as? LV2Backend, let problem = lv2.loadProblem { console.err("aupipe: \(problem)") }
        }
        if rows.isEmpty {
            console.err("aupipe: plugins: none installed" + (word.map { " match '\($0)'" } ?? "")
                        + (standard.map { " (\($0.rawValue))" } ?? ""))
            return
        }
        console.out(table(rows))
    }

    /// Whether WORD is part of the plugin's identifier or name (always, without a WORD).
    package static func matches(_ p: PluginInfo, _ word: String?) -> Bool {
        guard let w = word?.lowercased() else { return true }
        return p.identifier.lowercased().contains(w) || p.name.lowercased().contains(w)
    }

    /// One plugin's row.
    package static func row(_ p: PluginInfo) -> [String] {
        var notes: [String] = []
        if p.latencyPort != nil { notes.append("reports latency") }
        if !p.missingFeatures.isEmpty { notes.append("missing " + p.missingFeatures.joined(separator: ", ")) }
        let unsupported = p.ports.filter { if case .unsupported = $0.kind { return !$0.isConnectionOptional }; return false }
        if !unsupported.isEmpty { notes.append("unsupported ports " + unsupported.map(\.symbol).joined(separator: ",")) }
        return [p.standard.rawValue, p.identifier, p.name, "\(p.audioInputs.count) in \(p.audioOutputs.count) out", notes.joined(separator: "; ")]
    }

    /// Rows in aligned columns (the last one as it is).
    package static func table(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { r in
            r.enumerated().map { c, cell in c == r.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    package func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
