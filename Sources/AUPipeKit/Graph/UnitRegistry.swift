/// Where units come from: aupipe's own, and (later) plugin hosts that find units at run time.
/// A provider lists descriptors; the registry asks its providers in order, so a unit a provider
/// finds is listed by `aupipe units`, described by `aupipe help`, suggested by did-you-mean,
/// built in a chain and reached by `--control` exactly as a built-in is.
public protocol UnitProvider: Sendable {
    /// The units this provider offers, in the order `aupipe units` lists them.
    var descriptors: [UnitDescriptor] { get }
}

/// The units aupipe is built with.
public struct BuiltInUnits: UnitProvider {
    public init() {}

    public var descriptors: [UnitDescriptor] {
        [
            EchoCancellerUnit.descriptor,
            PreprocessUnit.agcDescriptor,
            CompressorUnit.descriptor,
            ConvertUnit.descriptor,
            PreprocessUnit.denoiseDescriptor,
            GainUnit.descriptor,
            GateUnit.descriptor,
            LimiterUnit.descriptor,
            LoudnormUnit.descriptor,
            MeterUnit.descriptor,
            MixUnit.descriptor,
            MuteUnit.descriptor,
            ResampleUnit.descriptor,
            SpectrogramUnit.descriptor,
            TeeUnit.descriptor,
        ]
    }
}

/// The units a run can use, by command-line name, from a list of providers. The first
/// provider that offers a name wins.
public struct UnitRegistry: Sendable {
    public let providers: [any UnitProvider]

    public init(providers: [any UnitProvider]) {
        self.providers = providers
    }

    /// The registry the command line uses.
    public static let standard = UnitRegistry(providers: [BuiltInUnits(), PluginUnits.standard])

    /// Every unit, each name once.
    public var all: [UnitDescriptor] {
        var seen: Set<String> = []
        return providers.flatMap(\.descriptors).filter { seen.insert($0.name).inserted }
    }

    /// The descriptor named `name`, or a usage error with a did-you-mean.
    public func descriptor(named name: String) throws -> UnitDescriptor {
        let all = self.all
        if let d = all.first(where: { $0.name == name.lowercased() }) { return d }
        let names = all.map(\.name)
        let suggested = suggestion(for: name, among: names)
        let hint = suggested.map { "; did you mean '\($0)'?" } ?? ""
        throw AUPipeError(.usage, "unknown unit '\(name)'\(hint) (units: \(names.joined(separator: ", ")); see 'aupipe units')",
                          cause: .unknownUnit(name, suggestion: suggested))
    }

    /// Every unit of the standard registry.
    public static var all: [UnitDescriptor] { standard.all }

    /// A unit of the standard registry, or a usage error with a did-you-mean.
    public static func descriptor(named name: String) throws -> UnitDescriptor {
        try standard.descriptor(named: name)
    }
}
