/// One option of a processing run, declared once: how it is spelled, what value it takes, what
/// `aupipe --help` says of it, what its value completes to, where the scan records it and how its
/// value is parsed into the run's `PipelineOptions`. The parser, `PipelineOptionsText.parsed()`,
/// `--help`, the completion scripts and the manual all read `RunOption.all`, so adding an option
/// is one declaration there, the `PipelineOptionsText` field that records it as typed and the
/// `PipelineOptions` field its value becomes (a rule between options, such as "--control-reply
/// needs --control", in `RunOptionRules`; a manual paragraph longer than its help in `RunOptionManual`).
public struct RunOption: Sendable {
    /// What follows the option's name.
    public enum Value: Sendable, Equatable {
        /// Nothing: a flag (`--check`); `--check=x` is a usage error.
        case none
        /// A value, as the next word or after `=` (`-o PATH`, `--block=20ms`); the metavariable
        /// names it in `--help` and the manual.
        case required(String)
        /// An optional value, only after `=` (`--stats[=json]`); alone the option means `implied`.
        case optional(String, implied: String)
    }

    /// What the option does once scanned.
    public enum Action: Sendable {
        /// Records the value (or `implied`) as typed in `field`; `parsed()` then hands it to
        /// `parse`, which checks it and sets the run's option.
        case value(_ field: WritableKeyPath<PipelineOptionsText, String?> & Sendable,
                   parse: @Sendable (_ options: inout PipelineOptions, _ text: String) throws -> Void)
        /// Records a flag in `field`; `parsed()` then calls `parse` once.
        case flag(_ field: WritableKeyPath<PipelineOptionsText, Bool> & Sendable, parse: @Sendable (_ options: inout PipelineOptions) -> Void)
        /// Ends the scan with this invocation (`--help`, `--version`).
        case early(Invocation)
    }

    /// The spellings, short first (`-i`, `--input`).
    public let names: [String]
    public let value: Value
    /// The `--help` description, one string a line of at most 54 columns.
    public let help: [String]
    /// What the value completes to in the shells.
    public let completion: CompletionModel.Values
    public let action: Action
    /// The option's paragraphs in the manual page's OPTIONS, in roff, from its `.TP` line
    /// (`RunOptionManual`); "" for an option told in another's paragraph; nil to have
    /// `aupipe manual` make one from `synopsis` and `help`.
    public let manual: String?

    public init(_ names: [String], _ value: Value = .none, help: [String], completion: CompletionModel.Values = .none,
                manual: String? = nil, _ action: Action) {
        self.names = names
        self.value = value
        self.help = help
        self.completion = completion
        self.action = action
        self.manual = manual
    }

    /// The option as `--help` spells it: `-i, --input PATH`, `--stats[=json]`.
    public var synopsis: String {
        let spelled = names.joined(separator: ", ")
        switch value {
        case .none: return spelled
        case .required(let meta): return spelled + " " + meta
        case .optional(let meta, _): return spelled + "[=" + meta + "]"
        }
    }

    /// Whether the value may be the next word (`-o PATH`), not only `=VALUE`.
    public var takesValue: Bool {
        if case .required = value { return true }
        return false
    }

    /// The option's lines in `aupipe --help`: the synopsis in 24 columns, then the description.
    package var helpLines: [String] {
        ["  " + HelpText.padded(synopsis, 24) + help[0]] + help.dropFirst().map { String(repeating: " ", count: 26) + $0 }
    }
}

extension RunOption {
    /// The option spelled `name` (any of its spellings), if there is one.
    public static func named(_ name: String) -> RunOption? {
        all.first { $0.names.contains(name) }
    }

    /// Every spelling of the options that take a value as the next word.
    public static var valueSpellings: [String] { all.filter(\.takesValue).flatMap(\.names) }
    /// Every spelling of the flags and of the options whose value only follows `=`.
    public static var flagSpellings: [String] { all.filter { !$0.takesValue }.flatMap(\.names) }
}
