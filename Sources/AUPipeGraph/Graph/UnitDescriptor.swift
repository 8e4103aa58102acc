import AUPipeFormats

/// What `aupipe units` lists for a unit, and how to build it from the command line.
public struct UnitDescriptor: Sendable {
    public let name: String
    /// One line: what the unit does.
    public let summary: String
    /// Longer help for `aupipe help UNIT`: behaviour, length and rounding rules.
    public let details: String
    /// What a screen of help cannot say (a file grammar, an events format, a rule, the reasons
    /// behind the defaults): the unit's section of the manual page, in roff, after its `.SS`
    /// line. Nil: `aupipe manual` writes the section from the summary, the details and the
    /// parameters.
    public let manual: String?
    /// The parameters as the parser, the help and `--control` see them.
    public let parameters: [ParameterDescriptor]
    /// The parameters as declared: the unit's typed keys (`GainUnit.Keys.db`), or descriptors.
    public let declarations: [any AnyParameter]
    /// The parameter a bare value sets (`resample 16000` sets `rate`), if any.
    public let primary: String?
    /// An example invocation for the help text.
    public let example: String
    /// Arguments that make the unit do real work and the output length they give, for the test
    /// that runs every registered unit through block sizes; nil fails that test.
    public let exercise: UnitExercise?
    /// What the unit needs of the chain's frame services: fixed frames, an instance per
    /// channel, a latency trimmed (`FrameNeeds`); `.none` for most units.
    public let frameNeeds: FrameNeeds
    package let make: @Sendable (ParameterValues) throws -> any AudioUnit
    /// For a unit whose parameters depend on its first argument (a plugin host: `ladspa amp_mono
    /// gain=0.5`): from the arguments, the descriptor of that one instance (its parameters, its
    /// help) and the arguments left for it. Nil for a unit with fixed parameters.
    package let specializer: (@Sendable ([String]) throws -> (UnitDescriptor, [String]))?
    /// How `aupipe units` shows the arguments of a specializing unit
    /// (`LABEL|LIBRARY:LABEL|ID [port=value]...`); nil for a unit with fixed parameters.
    public let synopsis: String?

    /// - Parameters:
    ///   - parameters: the unit's typed keys (`[Keys.db]`), or `ParameterDescriptor`s built at run time.
    ///   - frameNeeds: fixed frames, an instance per channel, a latency trimmed (`FrameNeeds`).
    ///   - make: builds the unit from the parsed values; read them with the typed keys (`$0[Keys.db]`).
    ///   - manual: the unit's manual section in roff (see `manual`), nil to have it written from the rest.
    public init(name: String, summary: String, details: String, parameters: [any AnyParameter], primary: String?,
                example: String, exercise: UnitExercise? = nil, manual: String? = nil, frameNeeds: FrameNeeds = .none, make: @escaping @Sendable (ParameterValues) throws -> any AudioUnit) {
        self.name = name
        self.summary = summary
        self.details = details
        self.manual = manual
        declarations = parameters
        self.parameters = parameters.map(\.descriptor)
        self.primary = primary
        self.example = example
        self.exercise = exercise
        self.frameNeeds = frameNeeds
        self.make = make
        specializer = nil
        synopsis = nil
    }

    /// A unit whose parameters are known only once its first arguments are read (`lv2`,
    /// `ladspa`): `specialize` turns the arguments into the descriptor of the instance they
    /// name and the arguments left for its parameters. `aupipe units` shows `synopsis`.
    /// `frameNeeds` is what every instance may need (the instance's descriptor says it exactly).
    public init(name: String, summary: String, details: String, synopsis: String, example: String, exercise: UnitExercise? = nil, manual: String? = nil,
                frameNeeds: FrameNeeds = .none,
                specialize: @escaping @Sendable ([String]) throws -> (UnitDescriptor, [String])) {
        self.name = name
        self.summary = summary
        self.details = details
        self.manual = manual
        declarations = []
        parameters = []
        primary = nil
        self.example = example
        self.exercise = exercise
        self.frameNeeds = frameNeeds
        make = { _ in throw AUPipeError.usage("\(name) needs its first argument; see 'aupipe help \(name)'") }
        specializer = specialize
        self.synopsis = synopsis
    }

    /// Whether the parameters depend on the arguments (a plugin host).
    public var isSpecializing: Bool { specializer != nil }

    /// The descriptor for these arguments and the arguments left for it: for a specializing
    /// unit, that of the instance they name; for any other, this one and all the arguments.
    public func specialized(for arguments: [String]) throws -> (descriptor: UnitDescriptor, arguments: [String]) {
        guard let specializer else { return (self, arguments) }
        return try specializer(arguments)
    }

    /// Parses `arguments` (`key=value` or a bare value for the primary parameter) into values.
    public func parseArguments(_ arguments: [String]) throws -> ParameterValues {
        try ParameterDescriptor.parse(arguments, parameters: parameters, primary: primary, owner: name)
    }

    /// Builds a unit from command-line arguments.
    public func instantiate(_ arguments: [String]) throws -> any AudioUnit {
        let (descriptor, rest) = try specialized(for: arguments)
        return try descriptor.make(try descriptor.parseArguments(rest))
    }
}
