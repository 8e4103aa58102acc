import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// The plugin hosts as units: one unit per backend (`lv2`, `ladspa`), named after its
/// standard. Listing them scans nothing; a chain, `aupipe help UNIT PLUGIN` or `aupipe plugins`
/// makes the backend discover its plugins, once.
public struct PluginUnits: UnitProvider {
    public let catalogs: [PluginCatalog]

    /// The plugin hosts of this build.
    public static let standard = PluginUnits(backends: [LV2Backend(), LADSPABackend()])

    public init(backends: [any PluginBackend]) {
        catalogs = backends.map(PluginCatalog.init(backend:))
    }

    /// The catalog of `standard`, if this build hosts it.
    public func catalog(_ standard: PluginStandard) -> PluginCatalog? {
        catalogs.first { $0.backend.standard == standard }
    }

    /// What `aupipe completions` offers as the first argument of `unit`: the installed plugins
    /// (LADSPA labels where unique, else `library:label`; LV2 URIs, then the last segments of
    /// those that name one plugin alone). None when discovery fails.
    public func completionWords(unit: String) -> [String] {
        guard let standard = PluginStandard(rawValue: unit), let catalog = catalog(standard),
              let plugins = try? catalog.plugins() else { return [] }
        var labelCount: [String: Int] = [:]
        for p in plugins { if let l = p.label { labelCount[l, default: 0] += 1 } }
        // An LV2 URI's last segment too (eg-amp, dpl#mono) where it names that plugin alone.
        let short = plugins.compactMap { p in
            p.identifierWords.first.flatMap { w in (try? PluginLookup.find(w, in: plugins, standard: standard))?.identifier == p.identifier ? w : nil }
        }
        return plugins.map { p in p.label.flatMap { labelCount[$0] == 1 ? $0 : nil } ?? p.identifier } + short
    }

    public var descriptors: [UnitDescriptor] {
        catalogs.sorted { $0.backend.standard.rawValue < $1.backend.standard.rawValue }.map(Self.descriptor)
    }

    /// The unit of one standard: its first argument names the plugin, the rest set its ports.
    package static func descriptor(_ catalog: PluginCatalog) -> UnitDescriptor {
        let standard = catalog.backend.standard
        let unit = standard.rawValue
        let isLV2 = standard == .lv2
        let synopsis = isLV2 ? "URI|NAME [symbol=value]... [preset=NAME]" : "LABEL|LIBRARY:LABEL|ID [port=value]..."
        let summary = isLV2 ? "run an installed LV2 plugin (aupipe plugins lv2 lists them)"
                            : "run an installed LADSPA plugin (aupipe plugins ladspa lists them)"
        let naming = isLV2
            ? "The first argument names the plugin: its URI, or a unique case-insensitive part of its URI or name. LV2 is loaded at run time through liblilv (Debian: liblilv-0-0), which finds plugins on LV2_PATH."
            : "The first argument names the plugin: LIBRARY:LABEL (amp:amp_mono), its label (amp_mono), its unique ID (1048), or a unique case-insensitive part of its identifier or name. Libraries are searched in LADSPA_PATH, else /usr/lib/ladspa, /usr/local/lib/ladspa and /usr/lib/\(LADSPABackend.multiarchTriplet)/ladspa."
        let ports = isLV2
            ? "The other arguments set input control ports by lv2:symbol (symbol=value); preset=NAME loads one of the plugin's presets first."
            : "The other arguments set input control ports by symbol: the port's name in lowercase with other characters as _ (\"Gain\" is gain, \"Delay (Seconds)\" is delay_seconds)."
        let details = """
            \(naming)
            \(ports) Values are range-checked against the port's bounds; 'aupipe help \(unit) PLUGIN' lists them with ranges, defaults and units.
            A plugin whose audio inputs and outputs match the stream's channels runs once; a mono plugin on N channels runs as N instances, one per channel; any other count is refused before audio.
            Latency a plugin reports is compensated (the output keeps the input's length and timing; the tail is flushed at the end). Every plugin runs on one length for the whole stream, within the limits it states, whatever --block: the block size never changes the bytes.
            Every input port is live (--control: set \(unit).SYMBOL VALUE, from the plugin's next run); output ports (meters, gain reduction) are read with get \(unit).SYMBOL and printed by --stats.
            """
        let example = isLV2 ? "aupipe lv2 eg-amp gain=-6 < in.wav > out.wav" : "aupipe ladspa amp_mono gain=0.5 < in.wav > out.wav"
        return UnitDescriptor(name: unit, summary: summary, details: details, synopsis: synopsis, example: example,
                              exercise: UnitExercise([UnitExercise.plugin]),
                              manual: isLV2 ? lv2Manual : ladspaManual,
                              frameNeeds: PluginUnit.frameNeeds(perChannel: true, latency: true)) { arguments in
            guard let first = arguments.first, !first.contains("=") else {
                throw AUPipeError.usage("\(unit) needs the plugin first: \(unit) \(synopsis); 'aupipe plugins \(unit)' lists them")
            }
            let plugin = try catalog.plugin(named: first)
            return (PluginUnit.descriptor(for: plugin, backend: catalog.backend), Array(arguments.dropFirst()))
        }
    }
}

extension PluginUnit {
    /// The descriptor of one plugin: its input control ports as live parameters (and `preset`
    /// where it has presets), its facts as the help's details.
    public static func descriptor(for plugin: PluginInfo, backend: any PluginBackend) -> UnitDescriptor {
        let unit = plugin.standard.rawValue
        var parameters: [ParameterDescriptor] = plugin.controlInputs.map { p in
            var help = p.name
            if p.isLogarithmic { help += " (logarithmic)" }
            let def: String? = p.isDefaultSampleRateRelative ? nil : format(defaultValue(of: p))
            // A default that is a fraction of the sample rate is a value only once the rate is known.
            let note = p.isDefaultSampleRateRelative ? p.defaultValue.map { "\(format($0)) × the sample rate" } : nil
            return ParameterDescriptor(p.symbol, .custom(PluginControlRange(p)), default: def, help: help, live: true, defaultNote: note)
        }
        if !plugin.presets.isEmpty {
            parameters.append(ParameterDescriptor("preset", .choice(plugin.presets.map { $0.name.lowercased() }), default: nil,
                                                  help: "load one of the plugin's presets; ports given on the command line override it"))
        }
        var lines = ["Plugin: \(plugin.name) (\(plugin.identifier))"]
        if let label = plugin.label { lines.append("Label: \(label)" + (plugin.uniqueID.map { ", unique ID \($0)" } ?? "")) }
        lines.append("Library: \(plugin.libraryPath)")
        let ins = plugin.audioInputs.count, outs = plugin.audioOutputs.count
        lines.append("Audio: \(counted(ins, "input")), \(counted(outs, "output"))" + (ins == 1 && outs == 1 ? " (on N channels it runs as N instances)" : ""))
        if plugin.latencyPort != nil { lines.append("Latency: reports latency; aupipe compensates it (same length, same timing)") }
        let kind = plugin.needsPowerOf2BlockLength ? "power-of-two runs" : plugin.needsFixedBlockLength ? "runs of one length" : "runs"
        let range: String? = switch (plugin.minimumBlockLength, plugin.maximumBlockLength) {
        case (let lo?, let hi?): "of \(lo) to \(hi) frames"
        case (let lo?, nil): "of at least \(lo) frames"
        case (nil, let hi?): "of at most \(hi) frames"
        case (nil, nil): nil
        }
        if range != nil || plugin.needsFixedBlockLength || plugin.needsPowerOf2BlockLength {
            lines.append("Blocks: needs \(kind)\(range.map { " " + $0 } ?? ""); aupipe runs every plugin on one length, chosen to fit")
        }
        let outputs = plugin.controlOutputs.filter { !$0.isLatency }
        if !outputs.isEmpty {
            lines.append("Outputs (--control get \(unit).SYMBOL; --stats prints them): "
                + outputs.map { "\($0.symbol) (\($0.name)\($0.unit.map { ", " + $0 } ?? ""))" }.joined(separator: ", "))
        }
        let unsupported = plugin.ports.compactMap { p -> String? in
            if case .unsupported(let what) = p.kind, !p.isConnectionOptional { return "\(p.symbol): \(what)" }
            return nil
        }
        if !unsupported.isEmpty { lines.append("Cannot run: unsupported ports \(unsupported.joined(separator: "; "))") }
        if !plugin.missingFeatures.isEmpty { lines.append("Cannot run: requires \(plugin.missingFeatures.joined(separator: ", ")), which aupipe lacks") }
        let exampleArgs = parameters.first { $0.defaultValue != nil }.map { " \($0.name)=\($0.defaultValue!)" } ?? ""
        let shortName = plugin.label ?? plugin.identifier
        return UnitDescriptor(name: unit, summary: plugin.name, details: lines.joined(separator: "\n"), parameters: parameters, primary: nil,
                              example: "aupipe \(unit) \(shortName)\(exampleArgs) < in.wav > out.wav",
                              frameNeeds: PluginUnit.frameNeeds(perChannel: plugin.audioInputs.count == 1 && plugin.audioOutputs.count == 1,
                                                                latency: plugin.controlOutputs.contains { $0.isLatency })) { values in
            try PluginUnit(plugin: plugin, backend: backend, values: values, unitName: unit)
        }
    }
}
