import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import Glibc
import Synchronization

/// A plugin found through the index of installed plugins (`LV2Index`): named by a word or a URI,
/// it is described from a world of its own bundles only, and instantiated there.
extension LV2Backend {
    /// The index of this backend's search path, read once per process; nil without one that
    /// holds for the bundles installed now, or when the backend uses none.
    package var index: LV2Index? {
        guard let store = indexStore else { return nil }
        return Self.indexes.withLock { indexes in
            if let known = indexes[store.file] { return known }
            let loaded = store.load()
            indexes[store.file] = .some(loaded)
            return loaded
        }
    }

    /// Where this backend's index is kept; nil when it uses none.
    package var indexStore: LV2Index.Store? {
        usesIndex ? LV2Index.Store(searchPath: searchPath ?? getenv("LV2_PATH").map { String(cString: $0) }) : nil
    }

    /// The plugin `word` names, looked up among the index's URIs and names as among every
    /// plugin's (`PluginLookup`, with the same errors), then described from its own bundles.
    /// nil without an index.
    public func plugin(named word: String) throws -> PluginInfo? {
        guard let index else { return nil }
        let stubs = index.entries.map { PluginInfo(standard: .lv2, identifier: $0.uri, name: $0.name, libraryPath: "", ports: []) }
        let found = try PluginLookup.find(word, in: stubs, standard: .lv2)
        return index.entries.first { $0.uri == found.identifier }.flatMap(describe)
    }

    /// The plugin of `entry`, described from a world of its bundles, which is then its home.
    package func describe(_ entry: LV2Index.Entry) -> PluginInfo? {
        guard let world = try? LV2World.world(bundles: entry.bundles), let found = world.plugin(entry.uri) else { return nil }
        Self.homes.withLock { $0[homeKey(entry.uri)] = world }
        return found
    }

    /// The world `plugin` was described from: its bundles' when found through the index, else
    /// the whole search path's.
    package func world(of plugin: PluginInfo) throws -> LV2World {
        if let home = Self.homes.withLock({ $0[homeKey(plugin.identifier)] }) { return home }
        return try LV2World.world(searchPath: searchPath)
    }

    /// Writes the index of `plugins` (every plugin of `world`) when the one kept does not hold
    /// (and each plugin's bundles are known).
    package func saveIndex(of plugins: [PluginInfo], in world: LV2World) {
        guard let store = indexStore, index == nil else { return }
        let entries = plugins.map { LV2Index.Entry(uri: $0.identifier, name: $0.name, bundles: world.bundles(of: $0.identifier)) }
        guard entries.allSatisfy({ !$0.bundles.isEmpty }) else { return }
        store.save(LV2Index(entries: entries))
    }

    private func homeKey(_ uri: String) -> String { (searchPath ?? "\u{0}") + "\n" + uri }

    private static let indexes = Mutex<[String: LV2Index?]>([:])
    private static let homes = Mutex<[String: LV2World]>([:])
}
