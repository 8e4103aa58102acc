/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    /// Run a chain: each element is a unit name and its arguments.
    case run(chain: [[String]], options: PipelineOptionsText)
    /// `aupipe info [FILE|-]`
    case info(path: String, inFormat: String?)
    /// `aupipe units`
    case units
    /// `aupipe manual`: the manual page in roff.
    case manual
    /// `aupipe help [UNIT]`, `--help`
    case help(unit: String?)
    /// `aupipe help lv2 URI`, `aupipe help ladspa LABEL`: one plugin's ports.
    case pluginHelp(unit: String, plugin: String)
    /// `aupipe plugins [lv2|ladspa] [WORD]`
    case plugins(standard: PluginStandard?, word: String?)
    /// `aupipe demo [-o PATH]`; without `-o`, nil (stdout when it is not a terminal, else demo.wav).
    case demo(output: String?)
    /// `aupipe gen SIGNAL [ARG]... [-o PATH] [-t TYPE] [--out-format SPEC] [--dither TYPE] [--stats]`
    case gen(signal: String, arguments: [String], options: PipelineOptionsText)
    /// `aupipe compare A B [OPTIONS]`
    case compare(CompareOptions)
    /// `aupipe completions SHELL`
    case completions(shell: String)
    /// `aupipe completions --list UNIT [PLUGIN]` (not in the help: the completion scripts call
    /// it): the installed plugins of a plugin unit, or the words PLUGIN's arguments start with.
    case completionWords(unit: String, plugin: String?)
    /// `--version`
    case version
    /// `aupipe version`: the version and the libraries in use.
    case versionReport
}

/// The run options as typed, parsed into `PipelineOptions` once the whole line is known.
public struct PipelineOptionsText: Equatable, Sendable {
    public var input: String?
    public var output: String?
    public var inFormat: String?
    public var outFormat: String?
    public var container: String?
    public var block: String?
    public var stats: String?
    public var check = false
    public var control: String?
    public var controlReply: String?
    /// `--progress` ("auto") or `--progress=force`.
    public var progress: String?
    public var duration: String?
    /// The sound-device options (ALSA).
    public var capture: String?
    public var captureFormat: String?
    public var monitor: String?
    public var play: String?
    public var period: String?
    public var buffer: String?
    /// `--reconnect` ("forever") or `--reconnect=TIMEOUT`.
    public var reconnect: String?
    /// `--live`: the run is real time (`RealTimePolicy`).
    public var live = false
    /// `--dither=auto|off|tpdf|shaped`.
    public var dither: String?

    public init() {}

    /// Parses and checks every option's value, as `RunOption.all` declares it, then the rules
    /// between options (`RunOptionRules`).
    public func parsed() throws -> PipelineOptions {
        var o = PipelineOptions()
        for option in RunOption.all {
            switch option.action {
            case .value(let field, let parse): if let text = self[keyPath: field] { try parse(&o, text) }
            case .flag(let field, let parse): if self[keyPath: field] { parse(&o) }
            case .early: break
            }
        }
        try RunOptionRules.check(self, into: &o)
        return o
    }
}

/// Turns `argv` (without the program name) into an `Invocation`.
///
/// Options may stand before the chain or anywhere in it; in the chain, a word that starts with
/// `-` and is not a number (`gain -6`) is an option. A lone `:` separates units. `--` ends
/// option parsing: everything after it belongs to the chain.
public enum CommandLineParser {
    /// The options that take a value (the next word, or `=VALUE`), from `RunOption.all`.
    public static var valueOptions: [String] { RunOption.valueSpellings }
    /// The flags, and the options whose value only follows `=`.
    package static var flagOptions: [String] { RunOption.flagSpellings }

    public static func parse(_ args: [String]) throws -> Invocation {
        guard let first = args.first else { return .run(chain: [], options: PipelineOptionsText()) }
        switch first {
        case "units":
            guard args.count == 1 else { throw AUPipeError.usage("units takes no arguments; for one unit use 'aupipe help \(args[1])'") }
            return .units
        case "manual":
            guard args.count == 1 else { throw AUPipeError.usage("manual takes no arguments; read it with 'aupipe manual | man -l -'") }
            return .manual
        case "help":
            if args.count == 3 { return .pluginHelp(unit: args[1], plugin: args[2]) }
            guard args.count <= 2 else { throw AUPipeError.usage("help takes one unit name, e.g. 'aupipe help resample' (or a plugin unit and a plugin: 'aupipe help ladspa amp_mono')") }
            return .help(unit: args.count == 2 ? args[1] : nil)
        case "plugins":
            var rest = Array(args.dropFirst())
            var standard: PluginStandard?
            if let s = rest.first.flatMap({ PluginStandard(rawValue: $0.lowercased()) }) {
                standard = s
                rest.removeFirst()
            }
            guard rest.count <= 1 else { throw AUPipeError.usage("usage: aupipe plugins [lv2|ladspa] [WORD]") }
            return .plugins(standard: standard, word: rest.first)
        case "version":
            guard args.count == 1 else { throw AUPipeError.usage("version takes no arguments; 'aupipe version' prints the version and the libraries in use") }
            return .versionReport
        case "info": return try parseInfo(Array(args.dropFirst()))
        case "demo": return try parseDemo(Array(args.dropFirst()))
        case "gen": return try parseGen(Array(args.dropFirst()))
        case "completions":
            if args.count >= 3, args.count <= 4, args[1] == "--list" {
                return .completionWords(unit: args[2], plugin: args.count == 4 ? args[3] : nil)
            }
            guard args.count == 2 else { throw AUPipeError.usage("usage: aupipe completions bash|zsh|fish") }
            return .completions(shell: args[1])
        case "spectrogram" where args.count >= 2 && SpectrogramCommand.isInput(args[1]):
            return try SpectrogramCommand.parse(Array(args.dropFirst()), scan: scan)
        case "compare": return try CompareOptions.parse(Array(args.dropFirst())).map { .compare($0) } ?? .help(unit: "compare")
        default: break
        }
        let (options, words, early) = try scan(args)
        if let early { return early }
        var chain: [[String]] = [[]]
        for word in words {
            if word == ":" {
                guard !chain[chain.count - 1].isEmpty else { throw AUPipeError.usage("empty unit in the chain: two ':' in a row, or a ':' first") }
                chain.append([])
            } else {
                chain[chain.count - 1].append(word)
            }
        }
        if chain.last!.isEmpty {
            if chain.count > 1 { throw AUPipeError.usage("the chain ends with ':'; name a unit after it or drop it") }
            chain = []
        }
        return .run(chain: chain, options: options)
    }

    /// `gen SIGNAL [ARG]...` with the output options a generated stream can use.
    private static func parseGen(_ args: [String]) throws -> Invocation {
        let (options, words, early) = try scan(args)
        if let early { return early == .help(unit: nil) ? .help(unit: "gen") : early }
        guard let signal = words.first else {
            throw AUPipeError.usage("gen needs a signal: sine, tones, sweep, noise, impulse, silence or dtmf; see 'aupipe help gen'")
        }
        if words.contains(":") { throw AUPipeError.usage("gen makes one signal; pipe it into aupipe to process it") }
        var allowed = PipelineOptionsText()
        allowed.output = options.output
        allowed.outFormat = options.outFormat
        allowed.container = options.container
        allowed.stats = options.stats
        allowed.dither = options.dither
        guard allowed == options else {
            throw AUPipeError.usage("gen takes -o, -t, --out-format, --dither and --stats; the other options are for processing a stream")
        }
        return .gen(signal: signal, arguments: Array(words.dropFirst()), options: options)
    }

    /// Separates options from the other words (units, arguments, ':'), returning early for
    /// `--help` and `--version`.
    package static func scan(_ args: [String]) throws -> (PipelineOptionsText, [String], Invocation?) {
        var options = PipelineOptionsText()
        var words: [String] = []
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let word = args[i]
            i += 1
            if word == "--" && !optionsEnded { optionsEnded = true; continue }
            if !optionsEnded, Self.isOption(word) {
                var name = word, value: String?
                if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                    name = String(word[..<eq])
                    value = String(word[word.index(after: eq)...])
                }
                guard let option = RunOption.named(name) else {
                    let hint = suggestion(for: name, among: valueOptions + flagOptions).map { "; did you mean \($0)?" } ?? "; see 'aupipe --help'"
                    throw AUPipeError.usage("unknown option \(name)\(hint)")
                }
                switch option.value {
                case .none:
                    if let value { throw AUPipeError.usage("\(name) takes no value (got '\(value)')") }
                case .optional(_, let implied):
                    value = value ?? implied
                case .required:
                    if value == nil {
                        guard i < args.count else { throw AUPipeError.usage("\(name) needs a value; see 'aupipe --help'") }
                        value = args[i]
                        i += 1
                    }
                }
                switch option.action {
                case .early(let invocation): return (options, words, invocation)
                case .value(let field, _): options[keyPath: field] = value ?? ""
                case .flag(let field, _): options[keyPath: field] = true
                }
                continue
            }
            words.append(word)
        }
        return (options, words, nil)
    }

    /// A word is an option when it starts with `-` and is not a value such as `-6`, `-6dB`,
    /// `-.5` or a lone `-` (stdin).
    package static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    private static func parseInfo(_ args: [String]) throws -> Invocation {
        var path: String?, inFormat: String?
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--in-format" || a.hasPrefix("--in-format=") {
                if a.contains("=") { inFormat = String(a.split(separator: "=", maxSplits: 1)[1]) }
                else {
                    guard i < args.count else { throw AUPipeError.usage("--in-format needs a value") }
                    inFormat = args[i]
                    i += 1
                }
            } else if a.hasPrefix("-") && a != "-" {
                throw AUPipeError.usage("info: unknown option \(a); usage: aupipe info [--in-format SPEC] [FILE|-]")
            } else {
                guard path == nil else { throw AUPipeError.usage("info takes one file; usage: aupipe info [FILE|-]") }
                path = a
            }
        }
        return .info(path: path ?? "-", inFormat: inFormat)
    }

    private static func parseDemo(_ args: [String]) throws -> Invocation {
        switch args.count {
        case 0: return .demo(output: nil)
        case 2 where args[0] == "-o": return .demo(output: args[1])
        default: throw AUPipeError.usage("usage: aupipe demo [-o PATH]")
        }
    }
}
