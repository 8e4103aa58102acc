import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import CAUPipeSupport

/// LV2 plugins through lilv, loaded at run time: discovery (`lilv_world_load_all`, which honours
/// `LV2_PATH`), instances with the host features aupipe provides (`providedFeatures`), presets.
///
/// Nothing is loaded until `discover`, `instantiate` or `presetValues` is called; then the world
/// is kept for the process (discovering the 231 plugins of lv2-examples, x42-plugins and
/// swh-lv2 takes about 0.1 s: lilv parses every plugin's Turtle). A plugin named by a word or a
/// URI is found through the index of installed plugins when one holds (`LV2Index`,
/// `LV2IndexedLookup.swift`), and only its own bundles are loaded.
///
/// The environment: `LV2_PATH` (lilv's search path), `AUPIPE_LILV_LIBRARY` (the library to
/// load instead of `liblilv-0.so.0`), `AUPIPE_LV2_LOG=1` (show a plugin's log:Note and
/// log:Trace messages too; errors and warnings always reach stderr, prefixed
/// `aupipe: lv2 URI:`).
///
/// A host connects every audio and control port of an instance (LV2 requires it); the
/// instance connects its atom ports and leaves other connection-optional ports unconnected.
public struct LV2Backend: PluginBackend {
    public let standard = PluginStandard.lv2
    /// The directories to search, `:`-separated as `LV2_PATH`; nil: `LV2_PATH` from the
    /// environment, or lilv's default directories.
    public let searchPath: String?
    /// Whether plugins are looked up through the index kept between runs (`LV2Index`).
    package let usesIndex: Bool

    /// The backend of the command line: `LV2_PATH` or lilv's default directories, with the index.
    public init() {
        searchPath = nil
        usesIndex = true
    }

    /// A backend that searches only `searchPath` (`:`-separated directories), whatever `LV2_PATH`
    /// says; with `usesIndex`, through the index kept for that path between runs.
    public init(searchPath: String, usesIndex: Bool = false) {
        self.searchPath = searchPath
        self.usesIndex = usesIndex
    }

    /// The feature URIs aupipe gives a plugin: urid:map and unmap, options:options (sample rate,
    /// block lengths, sequence size), bufsz:boundedBlockLength, fixedBlockLength,
    /// powerOf2BlockLength and coarseBlockLength (the host unit runs every plugin on one length,
    /// a power of two where its limits allow), log:log and worker:schedule. `missingFeatures` is a plugin's required features not in this list
    /// (nor lv2:isLive, lv2:hardRTCapable or lv2:inPlaceBroken, properties some plugins list as
    /// features, which need nothing from a host).
    public static var providedFeatures: [String] {
        var features: [String] = []
        var cursor = aupipe_lv2_provided_features()
        while let feature = cursor?.pointee {
            features.append(String(cString: feature))
            cursor = cursor?.advanced(by: 1)
        }
        return features
    }

    /// What lilv could not read while discovering, in one line (nil: nothing; see `LV2World.loadProblem`).
    package var loadProblem: String? { (try? LV2World.world(searchPath: searchPath))?.loadProblem }

    public func discover() throws -> [PluginInfo] {
        let world = try LV2World.world(searchPath: searchPath)
        let all = world.plugins
        saveIndex(of: all, in: world)
        return all
    }

    /// A plugin named by its full URI, described alone: from its own bundles only when the index
    /// holds (nil when it has no such URI), else from a world of every bundle's manifest (no
    /// other plugin's data is read).
    public func plugin(withIdentifier identifier: String) -> PluginInfo? {
        if let index {
            guard let entry = index.entries.first(where: { $0.uri == identifier }) else { return nil }
            if let found = describe(entry) { return found }
        }
        return (try? LV2World.world(searchPath: searchPath))?.plugin(identifier)
    }

    public func instantiate(_ plugin: PluginInfo, settings: PluginHostSettings) throws -> any PluginInstance {
        let world = try world(of: plugin)
        if !plugin.missingFeatures.isEmpty {
            let names = plugin.missingFeatures.joined(separator: ", ")
            throw AUPipeError(.unavailable, "lv2 \(plugin.identifier) needs \(names) which aupipe does not provide")
        }
        if let port = plugin.ports.first(where: { if case .unsupported = $0.kind { return !$0.isConnectionOptional } else { return false } }),
           case .unsupported(let what) = port.kind {
            throw AUPipeError(.unavailable, "lv2 \(plugin.identifier) has a \(what) port (\(port.symbol)) that aupipe cannot connect")
        }
        var error = [CChar](repeating: 0, count: 1024)
        var failure: Int32 = 0
        let instance = error.withUnsafeMutableBufferPointer { buffer in
            aupipe_lv2_instantiate(world.pointer, plugin.identifier, settings.sampleRate,
                                   Int32(clamping: settings.minBlockLength), Int32(clamping: settings.maxBlockLength),
                                   Int32(clamping: settings.nominalBlockLength), &failure, buffer.baseAddress, buffer.count)
        }
        guard let instance else {
            let why = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .split(whereSeparator: \.isNewline).joined(separator: " ")
            if failure == AUPIPE_LV2_NO_LIBRARY {
                throw AUPipeError(.unavailable, "lv2 \(plugin.identifier): its library does not load (\(why)); the plugin's package is broken or lacks a dependency")
            }
            // A plugin that refuses these settings cannot run here: unavailable, with its reason.
            throw AUPipeError(failure == AUPIPE_LV2_REFUSED ? .unavailable : .software, "lv2 \(plugin.identifier): \(why)")
        }
        return LV2Instance(instance, world: world, uri: plugin.identifier)
    }

    public func presetValues(of plugin: PluginInfo, preset: String) throws -> [String: Float] {
        try load(preset, of: plugin).1.values
    }

    /// A preset's `state:state`: restored into every instance (zeroconvolv's impulse response
    /// file). A plugin that declares no state interface cannot take it: refused, naming why.
    public func presetState(of plugin: PluginInfo, preset: String) throws -> PluginState? {
        let (found, content) = try load(preset, of: plugin)
        guard content.stateProperties > 0 else { return nil }
        guard plugin.hasStateInterface else {
            throw AUPipeError(.unavailable, "lv2 \(plugin.identifier): preset '\(found.name)' carries plugin state "
                              + "(\(content.stateProperties == 1 ? "1 property" : "\(content.stateProperties) properties")), and the plugin has no state:interface to restore it; "
                              + "use another preset, or set the ports by hand")
        }
        return PluginState(preset: found, properties: content.stateProperties)
    }

    /// The preset named `preset` (by name or URI, any case) and what lilv reads of it.
    private func load(_ preset: String, of plugin: PluginInfo) throws -> (PluginPreset, PresetContent) {
        let world = try world(of: plugin)
        let wanted = preset.lowercased()
        guard let found = plugin.presets.first(where: { $0.name.lowercased() == wanted || $0.uri.lowercased() == wanted }) else {
            let names = plugin.presets.map { "'\($0.name)'" }.joined(separator: ", ")
            let known = plugin.presets.isEmpty ? "it has no presets" : "its presets: \(names)"
            throw AUPipeError(.usage, "lv2 \(plugin.identifier): no preset '\(preset)'; \(known)")
        }
        let content = PresetContent()
        var properties: UInt32 = 0
        let status = withExtendedLifetime(content) {
            aupipe_lv2_preset_values(world.pointer, found.uri, { context, symbol, value in
                guard let context, let symbol else { return }
                Unmanaged<PresetContent>.fromOpaque(context).takeUnretainedValue().values[String(cString: symbol)] = value
            }, Unmanaged.passUnretained(content).toOpaque(), &properties)
        }
        guard status == 0 else {
            throw AUPipeError(.dataError, "lv2 \(plugin.identifier): preset '\(found.name)' (\(found.uri)) cannot be loaded")
        }
        content.stateProperties = Int(properties)
        return (found, content)
    }
}

/// What a preset holds: the port values it sets (gathered from lilv's callback) and how many
/// properties of plugin state it carries.
private final class PresetContent {
    package var values: [String: Float] = [:]
    package var stateProperties = 0
}
