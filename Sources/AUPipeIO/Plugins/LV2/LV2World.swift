import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
import Glibc
import Synchronization

import CAUPipeSupport

/// A loaded lilv world and the plugins it found, made once per search path for the process
/// (`world(searchPath:)`), or once per list of bundles for a plugin found through the index of
/// installed plugins (`world(bundles:)`, see `LV2Index`). Loading reads every bundle's manifest
/// (URIs and where their data lies); describing a plugin reads its data (the expensive part:
/// about 60 ms for all of Debian's 231). So a plugin named by its URI is described alone
/// (`plugin(_:)`), and every plugin only when a lookup by name without an index, a listing or a
/// completion needs them all (`plugins`).
package final class LV2World: @unchecked Sendable {
    /// The C world (`aupipe_lv2_world`); its calls serialise on one lock in C.
    package let pointer: OpaquePointer
    /// Every plugin, sorted by URI (described on first use), the plugins described one by one
    /// so far, and what lilv said on stderr while loading or describing (see `loadProblem`).
    private let described = Mutex<(all: [PluginInfo]?, one: [String: PluginInfo], messages: String)>((nil, [:], ""))

    private init(pointer: OpaquePointer, messages: String?) {
        self.pointer = pointer
        described.withLock { $0.messages = messages ?? "" }
    }

    /// Every plugin of the world, sorted by URI.
    package var plugins: [PluginInfo] {
        described.withLock { state in
            if let all = state.all { return all }
            let (all, messages) = Self.capturing {
                (0..<aupipe_lv2_world_plugin_count(pointer)).compactMap { describe($0) }.sorted { $0.identifier < $1.identifier }
            }
            state.all = all
            state.messages += messages ?? ""
            return all
        }
    }

    /// Whether every plugin has been described (a lookup by name, a listing), and how many one
    /// by one.
    package var describedEvery: Bool { described.withLock { $0.all != nil } }
    package var describedAlone: Int { described.withLock { $0.one.count } }

    /// The plugin with this URI, described alone unless every plugin has been.
    package func plugin(_ uri: String) -> PluginInfo? {
        described.withLock { state in
            if let all = state.all { return all.first { $0.identifier == uri } }
            if let one = state.one[uri] { return one }
            let index = aupipe_lv2_world_plugin_index(pointer, uri)
            guard index != UInt32.max else { return nil }
            let (found, messages) = Self.capturing { describe(index) }
            state.messages += messages ?? ""
            state.one[uri] = found
            return found
        }
    }

    /// What lilv said on stderr while loading and describing (bundles whose Turtle does not
    /// parse, skipped), in one line for `aupipe plugins`; nil when it said nothing. Kept off
    /// stderr so that one broken bundle does not print lines on every run (`AUPIPE_LV2_LOG=1`
    /// lets them through).
    package var loadProblem: String? { described.withLock { Self.summary($0.messages) } }

    private func describe(_ index: UInt32) -> PluginInfo? {
        guard let info = aupipe_lv2_describe(pointer, index) else { return nil }
        defer { aupipe_lv2_plugin_info_free(info) }
        return Self.pluginInfo(info.pointee)
    }

    /// `body`'s result and what was written on stderr meanwhile (lilv's messages), serialised
    /// with every other capture.
    private static func capturing<T>(_ body: () -> T) -> (T, String?) {
        captureLock.withLock { _ in
            aupipe_lv2_stderr_capture_begin()
            let result = body()
            guard let text = aupipe_lv2_stderr_capture_end() else { return (result, nil) }
            defer { free(text) }
            return (result, String(cString: text))
        }
    }
    private static let captureLock = Mutex<Void>(())

    private static let worlds = Mutex<[String?: LV2World]>([:])

    /// The world for `searchPath` (nil: `LV2_PATH` from the environment, or lilv's default
    /// directories), loading lilv and the world on first use.
    package static func world(searchPath: String?) throws -> LV2World {
        try LV2Library.load()
        let path = searchPath ?? getenv("LV2_PATH").map { String(cString: $0) }
        return try worlds.withLock { worlds in
            if let world = worlds[path] { return world }
            // lilv's messages while it reads every bundle are captured, not printed; see
            // `loadProblem`.
            let (opened, messages) = capturing { aupipe_lv2_world_open(path) }
            guard let pointer = opened else {
                throw AUPipeError(.software, "lv2: lilv could not load its world of plugins")
            }
            let world = LV2World(pointer: pointer, messages: messages)
            worlds[path] = world
            return world
        }
    }

    private static let bundleWorlds = Mutex<[[String]: LV2World]>([:])

    /// A world of these bundles only (directories; see `LV2Index`), made once per list.
    package static func world(bundles: [String]) throws -> LV2World {
        try LV2Library.load()
        return try bundleWorlds.withLock { worlds in
            if let world = worlds[bundles] { return world }
            let (opened, messages) = capturing {
                let paths = bundles.map { strdup($0) }
                defer { paths.forEach { free($0) } }
                return paths.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                        aupipe_lv2_world_open_bundles($0.baseAddress, UInt32($0.count))
                    }
                }
            }
            guard let pointer = opened else {
                throw AUPipeError(.software, "lv2: lilv could not load its world of plugins")
            }
            let world = LV2World(pointer: pointer, messages: messages)
            worlds[bundles] = world
            return world
        }
    }

    /// The directories of the bundles the plugin with this URI needs (its own first; see
    /// `aupipe_lv2_world_plugin_bundles`), or none if the world has no such plugin.
    package func bundles(of uri: String) -> [String] {
        let index = aupipe_lv2_world_plugin_index(pointer, uri)
        guard index != UInt32.max, let text = aupipe_lv2_world_plugin_bundles(pointer, index) else { return [] }
        defer { free(text) }
        return String(cString: text).split(separator: "\n").map(String.init)
    }

    /// lilv's messages as one line: the first error (serd's `error: FILE:LINE:COL: what`) and
    /// how many lines there were.
    package static func summary(_ messages: String) -> String? {
        let lines = messages.split(separator: "\n").filter { $0.contains { !$0.isWhitespace } }
        guard let first = lines.first(where: { $0.hasPrefix("error: ") }) ?? lines.first else { return nil }
        let text = first.hasPrefix("error: ") ? String(first.dropFirst(7)) : String(first)
        return "lv2: lilv could not read some bundles and skipped them (\(text)"
            + (lines.count > 1 ? "; \(lines.count - 1) more lines" : "") + "); fix or remove the bundle, AUPIPE_LV2_LOG=1 shows lilv's messages"
    }

    private static func string(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        text.map { String(cString: $0) }
    }

    private static func strings(_ texts: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ count: UInt32) -> [String] {
        guard let texts else { return [] }
        return (0..<Int(count)).compactMap { string(texts[$0]) }
    }

    private static func pluginInfo(_ info: aupipe_lv2_plugin_info) -> PluginInfo {
        let uri = string(info.uri) ?? ""
        let ports = (0..<Int(info.port_count)).map { port(info.ports[$0]) }
        let required = strings(info.required_features, info.required_feature_count)
        let labels = strings(info.preset_labels, info.preset_count)
        let presetURIs = strings(info.preset_uris, info.preset_count)
        let presets = zip(labels, presetURIs).map { PluginPreset(name: $0, uri: $1) }
            .sorted { ($0.name, $0.uri) < ($1.name, $1.uri) }
        return PluginInfo(
            standard: .lv2, identifier: uri, name: string(info.name) ?? uri,
            libraryPath: string(info.library_path) ?? "", ports: ports,
            requiredFeatures: required, missingFeatures: required.filter { aupipe_lv2_feature_is_provided($0) == 0 },
            needsFixedBlockLength: info.fixed_block_length != 0, needsPowerOf2BlockLength: info.power_of_2_block_length != 0,
            minimumBlockLength: length(info.min_block_length), maximumBlockLength: length(info.max_block_length),
            nominalBlockLength: length(info.nominal_block_length),
            isInPlaceBroken: info.in_place_broken != 0, presets: presets, hasStateInterface: info.has_state_interface != 0)
    }

    /// A block length the plugin states, or nil for C's 0 (none).
    private static func length(_ frames: Int32) -> Int? { frames > 0 ? Int(frames) : nil }

    private static func port(_ port: aupipe_lv2_port_info) -> PluginPort {
        let kind: PluginPortKind
        switch Int(port.kind) {
        case Int(AUPIPE_LV2_PORT_AUDIO_IN): kind = .audioInput
        case Int(AUPIPE_LV2_PORT_AUDIO_OUT): kind = .audioOutput
        case Int(AUPIPE_LV2_PORT_CONTROL_IN): kind = .controlInput
        case Int(AUPIPE_LV2_PORT_CONTROL_OUT): kind = .controlOutput
        case Int(AUPIPE_LV2_PORT_ATOM_IN): kind = .atomInput
        case Int(AUPIPE_LV2_PORT_ATOM_OUT): kind = .atomOutput
        default: kind = .unsupported(string(port.unsupported) ?? "unknown port")
        }
        var points: [PluginScalePoint] = []
        for i in 0..<Int(port.scale_point_count) {
            guard let label = string(port.scale_point_labels[i]) else { continue }
            points.append(PluginScalePoint(label: label, value: port.scale_point_values[i]))
        }
        let symbol = string(port.symbol) ?? "port\(port.index)"
        var p = PluginPort(
            index: port.index, symbol: symbol, name: string(port.name) ?? symbol, kind: kind,
            minimum: port.has_minimum != 0 ? port.minimum : nil,
            maximum: port.has_maximum != 0 ? port.maximum : nil,
            defaultValue: port.has_default != 0 ? port.default_value : nil,
            unit: string(port.unit), scalePoints: points.sorted { ($0.value, $0.label) < ($1.value, $1.label) },
            isInteger: port.is_integer != 0, isToggled: port.is_toggled != 0, isLogarithmic: port.is_logarithmic != 0,
            isLatency: port.is_latency != 0, isConnectionOptional: port.is_optional != 0)
        // lv2:sampleRate: the range and the default are fractions of the rate (swh's filter
        // cutoffs, 0.0001...0.45); the host multiplies them once the stream's rate is known.
        p.isSampleRateRelative = port.is_sample_rate != 0
        p.isDefaultSampleRateRelative = p.isSampleRateRelative
        return p
    }
}
