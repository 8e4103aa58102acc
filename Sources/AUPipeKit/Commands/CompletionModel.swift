/// What `aupipe completions SHELL` completes, gathered from the same descriptors as the help
/// texts: the commands, the options of each, the units of a `UnitRegistry` (so units of any
/// provider, such as plugins, appear without a change here), their parameters and choices,
/// gen's signals and the format tokens. The per-shell generators only print this.
public struct CompletionModel: Sendable {
    /// What the value of a parameter or option completes to.
    public enum Values: Equatable, Sendable {
        /// Nothing in particular (a number, a duration, a device name).
        case none
        /// One of these words.
        case words([String])
        /// A format token (`s16le`, `f32le`, `mulaw`).
        case formats
        /// A file name.
        case files
    }

    /// A unit or a signal: its name, a one-line summary, and its `key=` parameters. The plugin
    /// units' plugins and ports are not here: the scripts ask `pluginWords` while completing,
    /// so that they are the plugins installed then.
    public struct Entry: Sendable {
        public let name: String
        public let summary: String
        public let parameters: [(name: String, values: Values)]
    }

    /// The shells `aupipe completions` writes for.
    public static let shells = ["bash", "zsh", "fish"]
    /// The commands that may stand first, in the order of `aupipe --help`, and `completions`.
    public static let commands = ["units", "help", "plugins", "info", "demo", "gen", "compare", "completions", "version", "manual"]

    /// The chain's options (`aupipe --help`, Options:); those of `valueOptions` take a value.
    public let chainOptions: [String]
    public let genOptions = ["-o", "--output", "-t", "--type", "--out-format", "--dither", "--stats"]
    public let infoOptions = ["--in-format"]
    /// compare's options, as `aupipe help compare` lists them.
    public let compareOptions: [String]
    /// What each value option's value completes to.
    public let optionValues: [String: Values]
    public let units: [Entry]
    /// The plugin-host units (`lv2`, `ladspa`): what `aupipe plugins` takes first.
    public let pluginUnits: [String]
    public let signals: [Entry]
    public let formatTokens: [String]

    /// The model for the units of `registry`: every provider's units, plugins included.
    public init(registry: UnitRegistry = .standard) {
        chainOptions = RunOption.all.flatMap(\.names)
        compareOptions = Self.longOptions(in: HelpText.compare)
        formatTokens = SampleEncoding.all.map(\.token)
        var values: [String: Values] = [:]
        for option in RunOption.all where option.completion != .none {
            for name in option.names { values[name] = option.completion }
        }
        optionValues = values
        pluginUnits = registry.all.filter(\.isSpecializing).map(\.name)
        units = registry.all.map { d in
            Entry(name: d.name, summary: d.summary, parameters: d.parameters.map { ($0.name, Self.values(of: $0.kind)) } + [("name", .none)])
        }
        signals = SignalRegistry.all.map { d in
            Entry(name: d.name, summary: d.summary, parameters: d.allParameters.map { ($0.name, Self.values(of: $0.kind)) })
        }
    }

    /// `aupipe completions --list UNIT [PLUGIN]`, one word a line, for the completion scripts:
    /// the plugins installed now for a plugin unit (LADSPA labels where unique, else
    /// `library:label`; LV2 URIs), or with PLUGIN the `key=` words of its arguments (its input
    /// control ports, `preset=` where it has presets, `name=`). Throws the lookup's error for
    /// an unknown plugin, a usage error for a unit that is not a plugin host.
    public static func pluginWords(unit: String, plugin: String?, registry: UnitRegistry) throws -> [String] {
        let descriptor = try registry.descriptor(named: unit)
        guard descriptor.isSpecializing else {
            throw AUPipeError.usage("completions: --list takes a plugin unit (\(registry.all.filter(\.isSpecializing).map(\.name).joined(separator: ", "))), not '\(unit)'")
        }
        guard let plugin else {
            return registry.providers.compactMap { $0 as? PluginUnits }.flatMap { $0.completionWords(unit: descriptor.name) }
        }
        var seen = Set<String>()
        return (try descriptor.specialized(for: [plugin]).descriptor.parameters.map(\.name) + ["name"])
            .filter { seen.insert($0).inserted }.map { $0 + "=" }
    }

    /// Whether `option` takes a value as the next word (`-o PATH`) rather than only `=VALUE`.
    public func takesValue(_ option: String) -> Bool {
        CommandLineParser.valueOptions.contains(option) || ["--max-lsb", "--max-diff-db", "--min-snr"].contains(option)
    }

    /// What a parameter of `kind` completes to.
    package static func values(of kind: ParameterDescriptor.Kind) -> Values {
        switch kind {
        case .choice(let words): return .words(words)
        case .integerOrChoice(_, let words): return .words(words)
        case .numberOrChoice(_, _, let words): return .words(words)
        case .boolean: return .words(["0", "1"])
        case .encoding: return .formats
        case .path: return .files
        case .custom(let kind): return kind.isPath ? .files : .none
        default: return .none
        }
    }

    /// Every `--name` in a help text.
    package static func longOptions(in text: String) -> [String] {
        var seen = Set<String>()
        return text.matches(of: #/--[a-z][a-z0-9-]*/#).map { String($0.output) }.filter { seen.insert($0).inserted }
    }

    /// `aupipe completions SHELL`: the script, or a usage error naming the shells.
    public func script(for shell: String) throws -> String {
        switch shell {
        case "bash": return BashCompletion(model: self).script
        case "zsh": return ZshCompletion(model: self).script
        case "fish": return FishCompletion(model: self).script
        default: throw AUPipeError.usage("completions: unknown shell '\(shell)'; use bash, zsh or fish")
        }
    }
}
