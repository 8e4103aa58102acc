/// Every unit aupipe has, by command-line name.
public enum UnitRegistry {
    public static let all: [UnitDescriptor] = [
        EchoCancellerUnit.descriptor,
        PreprocessUnit.agcDescriptor,
        ConvertUnit.descriptor,
        PreprocessUnit.denoiseDescriptor,
        GainUnit.descriptor,
        MixUnit.descriptor,
        MuteUnit.descriptor,
        ResampleUnit.descriptor,
    ]

    /// The descriptor named `name`, or a usage error with a did-you-mean.
    public static func descriptor(named name: String) throws -> UnitDescriptor {
        if let d = all.first(where: { $0.name == name.lowercased() }) { return d }
        let names = all.map(\.name)
        let hint = suggestion(for: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        throw AUPipeError.usage("unknown unit '\(name)'\(hint) (units: \(names.joined(separator: ", ")); see 'aupipe units')")
    }
}
