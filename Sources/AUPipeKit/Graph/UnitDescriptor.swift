/// What `aupipe units` lists for a unit, and how to build it from the command line.
public struct UnitDescriptor: Sendable {
    public let name: String
    /// One line: what the unit does.
    public let summary: String
    /// Longer help for `aupipe help UNIT`: behaviour, length and rounding rules.
    public let details: String
    public let parameters: [ParameterDescriptor]
    /// The parameter a bare value sets (`resample 16000` sets `rate`), if any.
    public let primary: String?
    /// An example invocation for the help text.
    public let example: String
    let make: @Sendable (ParameterValues) throws -> any AudioUnit

    public init(name: String, summary: String, details: String, parameters: [ParameterDescriptor], primary: String?,
                example: String, make: @escaping @Sendable (ParameterValues) throws -> any AudioUnit) {
        self.name = name
        self.summary = summary
        self.details = details
        self.parameters = parameters
        self.primary = primary
        self.example = example
        self.make = make
    }

    /// Parses `arguments` (`key=value` or a bare value for the primary parameter) into values,
    /// filling in defaults. Unknown keys get a did-you-mean; repeated keys are refused.
    public func parseArguments(_ arguments: [String]) throws -> ParameterValues {
        var values: [String: ParameterValue] = [:]
        var explicit: Set<String> = []
        for argument in arguments {
            let key: String, text: String
            if let eq = argument.firstIndex(of: "=") {
                key = String(argument[..<eq]).lowercased()
                text = String(argument[argument.index(after: eq)...])
            } else {
                guard let primary else {
                    throw AUPipeError.usage("\(name): '\(argument)' needs a key, as key=value; \(name)'s parameters are \(parameterList)")
                }
                key = primary
                text = argument
            }
            guard let descriptor = parameters.first(where: { $0.name == key }) else {
                let hint = suggestion(for: key, among: parameters.map(\.name)).map { "; did you mean '\($0)'?" } ?? "; \(name)'s parameters are \(parameterList)"
                throw AUPipeError.usage("\(name): unknown parameter '\(key)'\(hint)")
            }
            guard !explicit.contains(key) else {
                throw AUPipeError.usage("\(name): \(key) is given twice; give it once")
            }
            guard !text.isEmpty else {
                throw AUPipeError.usage("\(name): \(key)= has no value; expected \(descriptor.typeDescription)")
            }
            values[key] = try descriptor.parse(text, unit: name)
            explicit.insert(key)
        }
        for p in parameters where values[p.name] == nil {
            if let d = p.defaultValue { values[p.name] = try p.parse(d, unit: name) }
        }
        return ParameterValues(unit: name, values: values, explicit: explicit)
    }

    /// Builds a unit from command-line arguments.
    public func instantiate(_ arguments: [String]) throws -> any AudioUnit {
        try make(try parseArguments(arguments))
    }

    private var parameterList: String {
        parameters.isEmpty ? "(none)" : parameters.map(\.name).joined(separator: ", ")
    }
}

/// The closest of `candidates` to `word` within a small edit distance, for did-you-mean hints.
public func suggestion(for word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let limit = max(1, min(3, best.0.count / 3 + 1))
    if best.1 <= limit { return best.0 }
    return candidates.first { $0.hasPrefix(word.lowercased()) && word.count >= 2 }
}

/// Levenshtein distance between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
