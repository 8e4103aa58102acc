import AUPipeFormats
import Synchronization

/// Where units come from: aupipe's own, and (later) plugin hosts that find units at run time.
/// A provider lists descriptors; the registry asks its providers in order, so a unit a provider
/// finds is listed by `aupipe units`, described by `aupipe help`, suggested by did-you-mean,
/// built in a chain and reached by `--control` exactly as a built-in is.
public protocol UnitProvider: Sendable {
    /// The units this provider offers, in the order `aupipe units` lists them.
    var descriptors: [UnitDescriptor] { get }

    /// The unit named `name` (lowercase) among `descriptors`, or nil. A provider whose
    /// descriptors are costly to build all at once answers without building the others.
    func descriptor(named name: String) -> UnitDescriptor?
}

extension UnitProvider {
    public func descriptor(named name: String) -> UnitDescriptor? {
        descriptors.first { $0.name == name }
    }
}

/// The units a run can use, by command-line name, from a list of providers. The first
/// provider that offers a name wins.
public struct UnitRegistry: Sendable {
    public let providers: [any UnitProvider]

    public init(providers: [any UnitProvider]) {
        self.providers = providers
    }

    /// Every unit, each name once.
    public var all: [UnitDescriptor] {
        var seen: Set<String> = []
        return providers.flatMap(\.descriptors).filter { seen.insert($0.name).inserted }
    }

    /// `all`, by a name that a static `all` in an extension (AUPipeIO's `UnitRegistry.all`, the
    /// standard registry's) does not shadow.
    package func everyUnit() -> [UnitDescriptor] { all }

    /// The descriptor named `name`, or a usage error with a did-you-mean.
    public func descriptor(named name: String) throws -> UnitDescriptor {
        // The first provider that offers the name wins, as in `all`.
        for provider in providers {
            if let d = provider.descriptor(named: name.lowercased()) { return d }
        }
        let all = self.all
        let names = all.map(\.name)
        let suggested = suggestion(for: name, among: names)
        let hint = suggested.map { "; did you mean '\($0)'?" } ?? ""
        throw AUPipeError(.usage, "unknown unit '\(name)'\(hint) (units: \(names.joined(separator: ", ")); see 'aupipe units')",
                          cause: .unknownUnit(name, suggestion: suggested))
    }

    /// The names of every unit a run can use (the standard registry's, which installs this when
    /// first used), for the wording of parameter errors (`gain -6 gain -3`: a missing `:`). Read
    /// only when an error is worded; behind a lock, as `UnitStreams.opener` is.
    package static var knownNames: @Sendable () -> [String] {
        get { namesOfTheStandardRegistry.withLock { $0 } }
        set { namesOfTheStandardRegistry.withLock { $0 = newValue } }
    }

    private static let namesOfTheStandardRegistry = Mutex<@Sendable () -> [String]>({ [] })
}
