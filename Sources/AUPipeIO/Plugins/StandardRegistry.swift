import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

extension UnitRegistry {
    /// The registry the command line uses: aupipe's own units, then the plugins found at run
    /// time. First use installs the I/O layer's `StreamServices`, which units open their side
    /// streams through.
    public static let standard: UnitRegistry = {
        StreamServices.install()
        let registry = UnitRegistry(providers: [BuiltInUnits(), PluginUnits.standard])
        UnitRegistry.knownNames = { registry.everyUnit().map(\.name) }
        return registry
    }()

    /// Every unit of the standard registry.
    public static var all: [UnitDescriptor] { standard.everyUnit() }

    /// A unit of the standard registry, or a usage error with a did-you-mean.
    public static func descriptor(named name: String) throws -> UnitDescriptor {
        try standard.descriptor(named: name)
    }
}

