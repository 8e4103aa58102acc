import Glibc
import Synchronization

import CAUPipeSupport

/// A loaded lilv world and the plugins it found, made once per search path for the process:
/// loading every bundle's Turtle is the expensive part of discovery.
final class LV2World: @unchecked Sendable {
    /// The C world (`aupipe_lv2_world`); its calls serialise on one lock in C.
    let pointer: OpaquePointer
    /// Every plugin, sorted by URI.
    let plugins: [PluginInfo]
    /// What lilv said on stderr while loading (bundles whose Turtle does not parse, skipped),
    /// in one line for `aupipe plugins`; nil when it said nothing. Kept off stderr so that one
    /// broken bundle does not print lines on every run (`AUPIPE_LV2_LOG=1` lets them through).
    let loadProblem: String?

    /// Describes every plugin of the world; lilv's messages from loading it, summarised.
    private init(pointer: OpaquePointer, captured: () -> String?) {
        self.pointer = pointer
        var plugins: [PluginInfo] = []
        for index in 0..<aupipe_lv2_world_plugin_count(pointer) {
            guard let info = aupipe_lv2_describe(pointer, index) else { continue }
            let plugin = Self.pluginInfo(info.pointee)
            plugins.append(plugin)
            aupipe_lv2_plugin_info_free(info)
        }
        self.plugins = plugins.sorted { $0.identifier < $1.identifier }
        loadProblem = captured().flatMap(Self.summary)
    }

    private static let worlds = Mutex<[String?: LV2World]>([:])

    /// The world for `searchPath` (nil: `LV2_PATH` from the environment, or lilv's default
    /// directories), loading lilv and the world on first use.
    static func world(searchPath: String?) throws -> LV2World {
        try LV2Library.load()
        let path = searchPath ?? getenv("LV2_PATH").map { String(cString: $0) }
        return try worlds.withLock { worlds in
            if let world = worlds[path] { return world }
            // lilv's messages while it reads every bundle (and each plugin's data, at the first
            // query: in `init`) are captured, not printed; see `loadProblem`.
            aupipe_lv2_stderr_capture_begin()
            func captured() -> String? {
                guard let text = aupipe_lv2_stderr_capture_end() else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
            guard let pointer = aupipe_lv2_world_open(path) else {
                _ = captured()
                throw AUPipeError(.software, "lv2: lilv could not load its world of plugins")
            }
            let world = LV2World(pointer: pointer, captured: captured)
            worlds[path] = world
            return world
        }
    }

    /// lilv's messages as one line: the first error (serd's `error: FILE:LINE:COL: what`) and
    /// how many lines there were.
    static func summary(_ messages: String) -> String? {
        let lines = messages.split(separator: "\n").filter { $0.contains { !$0.isWhitespace } }
        guard let first = lines.first(where: { $0.hasPrefix("error: ") }) ?? lines.first else { return nil }
        let text = first.hasPrefix("error: ") ? String(first.dropFirst(7)) : String(first)
        return "lv2: lilv could not read some bundles and skipped them (\(text)"
            + (lines.count > 1 ? "; \(lines.count - 1) more lines" : "") + "); fix or remove the bundle, AUPIPE_LV2_LOG=1 shows lilv's messages"
    }

    /// The plugin with this URI.
    func plugin(_ uri: String) -> PluginInfo? {
        plugins.first { $0.identifier == uri }
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
            isInPlaceBroken: info.in_place_broken != 0, presets: presets)
    }

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
