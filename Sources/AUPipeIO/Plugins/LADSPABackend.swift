import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// LADSPA, the older Linux plugin standard: a plugin library is a shared object exporting
/// `ladspa_descriptor(i)`, one `LADSPA_Descriptor` per plugin. Nothing beyond libc is needed:
/// the structs are declared in `aupipe_ladspa.h`, the libraries opened with dlopen.
///
/// Libraries are looked for in the directories of `LADSPA_PATH` (colon-separated), else in
/// `/usr/lib/ladspa`, `/usr/local/lib/ladspa` and the multiarch directory of this build
/// (`/usr/lib/x86_64-linux-gnu/ladspa`). A library name found twice is taken from the first
/// directory. Libraries stay loaded for the life of the process (plugins are not written to
/// be unloaded).
public struct LADSPABackend: PluginBackend {
    public var standard: PluginStandard { .ladspa }
    /// The directories searched, in order.
    public let directories: [String]

    /// The backend over `directories`, or the default search path.
    public init(directories: [String]? = nil) {
        self.directories = directories ?? Self.searchPath(environment: getenv("LADSPA_PATH").map { String(cString: $0) })
    }

    /// `LADSPA_PATH`'s directories when it is set and not empty, else Debian's.
    public static func searchPath(environment: String?) -> [String] {
        if let environment, !environment.isEmpty {
            return environment.split(separator: ":").map(String.init)
        }
        return ["/usr/lib/ladspa", "/usr/local/lib/ladspa", "/usr/lib/\(multiarchTriplet)/ladspa"]
    }

    /// Debian's multiarch directory name for the architecture aupipe was built for.
    package static var multiarchTriplet: String {
        #if arch(x86_64)
        return "x86_64-linux-gnu"
        #elseif arch(arm64)
        return "aarch64-linux-gnu"
        #elseif arch(i386)
        return "i386-linux-gnu"
        #elseif arch(arm)
        return "arm-linux-gnueabihf"
        #elseif arch(powerpc64le)
        return "powerpc64le-linux-gnu"
        #elseif arch(s390x)
        return "s390x-linux-gnu"
        #else
        return "unknown-linux-gnu"
        #endif
    }

    public func discover() throws -> [PluginInfo] {
        var seen: Set<String> = []
        var plugins: [PluginInfo] = []
        for directory in directories {
            for file in Self.libraries(in: directory) where seen.insert(file).inserted {
                let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
                guard let function = Self.descriptorFunction(path) else { continue }
                let library = String(file.dropLast(3))
                var index: UInt = 0
                while let d = function(index) {
                    if let info = Self.info(d.pointee, library: library, path: path) { plugins.append(info) }
                    index += 1
                    if index > 10_000 { break }
                }
            }
        }
        return plugins.sorted { $0.identifier < $1.identifier }
    }

    public func instantiate(_ plugin: PluginInfo, settings: PluginHostSettings) throws -> any PluginInstance {
        guard let function = Self.descriptorFunction(plugin.libraryPath) else {
            throw AUPipeError(.unavailable, "ladspa: \(plugin.libraryPath) cannot be loaded any more: \(Self.lastError())")
        }
        var index: UInt = 0
        while let d = function(index), index < 10_000 {
            // A descriptor without a label (discovery skips it) is never read.
            if let label = d.pointee.Label, String(cString: label) == plugin.label, UInt(d.pointee.UniqueID) == plugin.uniqueID {
                return try LADSPAInstance(descriptor: d, plugin: plugin, sampleRate: settings.sampleRate)
            }
            index += 1
        }
        throw AUPipeError(.unavailable, "ladspa: \(plugin.identifier) is no longer in \(plugin.libraryPath)")
    }

    /// `library:label`: opens only the first `library.so` of the search path (the one discovery
    /// would take) and looks for the label in it.
    public func plugin(withIdentifier identifier: String) -> PluginInfo? {
        let parts = identifier.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[0].contains("/") else { return nil }
        let file = parts[0] + ".so"
        for directory in directories {
            let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
            guard access(path, F_OK) == 0 else { continue }
            guard let function = Self.descriptorFunction(path) else { return nil }
            var index: UInt = 0
            while let d = function(index), index < 10_000 {
                if let info = Self.info(d.pointee, library: parts[0], path: path), info.label == parts[1] { return info }
                index += 1
            }
            return nil
        }
        return nil
    }

    public func presetValues(of plugin: PluginInfo, preset: String) throws -> [String: Float] {
        throw AUPipeError.usage("ladspa: \(plugin.identifier) has no presets (LADSPA plugins have none); set its ports instead")
    }

    /// The `.so` files of `directory`, sorted; none if it cannot be read.
    package static func libraries(in directory: String) -> [String] {
        DirectoryNames.sorted(in: directory).filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }
    }

    /// The library's `ladspa_descriptor`, or nil when it does not load or has none.
    package static func descriptorFunction(_ path: String) -> LADSPA_Descriptor_Function? {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { return nil }
        guard let symbol = dlsym(handle, "ladspa_descriptor") else { return nil }
        return unsafeBitCast(symbol, to: LADSPA_Descriptor_Function.self)
    }

    package static func lastError() -> String { dlerror().map { String(cString: $0) } ?? "unknown error" }

    /// A descriptor as a `PluginInfo`; nil for one without a label or name.
    package static func info(_ d: LADSPA_Descriptor, library: String, path: String) -> PluginInfo? {
        guard let label = d.Label.map({ String(cString: $0) }), let name = d.Name.map({ String(cString: $0) }) else { return nil }
        var ports: [PluginPort] = []
        var names: [String] = []
        for i in 0..<Int(d.PortCount) {
            names.append(d.PortNames?[i].map { String(cString: $0) } ?? "port \(i)")
        }
        let symbols = PluginPort.symbols(forNames: names)
        for i in 0..<Int(d.PortCount) {
            let kind = Self.kind(d.PortDescriptors?[i] ?? 0)
            var port = PluginPort(index: UInt32(i), symbol: symbols[i], name: names[i], kind: kind)
            if kind == .controlInput || kind == .controlOutput, let hint = d.PortRangeHints?[i] {
                Self.applyHint(hint, to: &port)
            }
            port.isLatency = kind == .controlOutput && port.symbol == "latency"
            ports.append(port)
        }
        return PluginInfo(standard: .ladspa, identifier: "\(library):\(label)", name: name, label: label,
                          uniqueID: UInt(d.UniqueID), libraryPath: path, ports: ports,
                          isInPlaceBroken: d.Properties & LADSPA_PROPERTY_INPLACE_BROKEN != 0)
    }

    /// What a port descriptor says the port is.
    package static func kind(_ p: LADSPA_PortDescriptor) -> PluginPortKind {
        let input = p & LADSPA_PORT_INPUT != 0, output = p & LADSPA_PORT_OUTPUT != 0
        let audio = p & LADSPA_PORT_AUDIO != 0, control = p & LADSPA_PORT_CONTROL != 0
        switch (input, output, audio, control) {
        case (true, false, true, false): return .audioInput
        case (false, true, true, false): return .audioOutput
        case (true, false, false, true): return .controlInput
        case (false, true, false, true): return .controlOutput
        default: return .unsupported("port that is not exactly one of input/output and audio/control (descriptor \(p))")
        }
    }

    /// Range, default and flags from a range hint (LADSPA 1.1's default rules: LOW, MIDDLE and
    /// HIGH interpolate the bounds, geometrically for a logarithmic port).
    package static func applyHint(_ hint: LADSPA_PortRangeHint, to port: inout PluginPort) {
        let h = hint.HintDescriptor
        let lower: Float? = h & LADSPA_HINT_BOUNDED_BELOW != 0 ? hint.LowerBound : nil
        let upper: Float? = h & LADSPA_HINT_BOUNDED_ABOVE != 0 ? hint.UpperBound : nil
        port.minimum = lower
        port.maximum = upper
        port.isToggled = h & LADSPA_HINT_TOGGLED != 0
        port.isInteger = h & LADSPA_HINT_INTEGER != 0
        port.isLogarithmic = h & LADSPA_HINT_LOGARITHMIC != 0
        let relative = h & LADSPA_HINT_SAMPLE_RATE != 0
        port.isSampleRateRelative = relative
        // In doubles from the bounds as written (0.0001, 0.49), so that the middle of those is
        // the float nearest 0.007, not 0.0069999984 (float arithmetic's rounding).
        func between(_ w: Double) -> Float? {
            guard let l = lower, let h = upper else { return lower ?? upper }
            let lo = PluginControlRange.double(l), hi = PluginControlRange.double(h)
            if port.isLogarithmic, lo > 0, hi > 0 { return Float(exp(log(lo) * (1 - w) + log(hi) * w)) }
            return Float(lo * (1 - w) + hi * w)
        }
        var fromBounds = true
        switch h & LADSPA_HINT_DEFAULT_MASK {
        case LADSPA_HINT_DEFAULT_MINIMUM: port.defaultValue = lower
        case LADSPA_HINT_DEFAULT_LOW: port.defaultValue = between(0.25)
        case LADSPA_HINT_DEFAULT_MIDDLE: port.defaultValue = between(0.5)
        case LADSPA_HINT_DEFAULT_HIGH: port.defaultValue = between(0.75)
        case LADSPA_HINT_DEFAULT_MAXIMUM: port.defaultValue = upper
        case LADSPA_HINT_DEFAULT_0: port.defaultValue = 0; fromBounds = false
        case LADSPA_HINT_DEFAULT_1: port.defaultValue = 1; fromBounds = false
        case LADSPA_HINT_DEFAULT_100: port.defaultValue = 100; fromBounds = false
        case LADSPA_HINT_DEFAULT_440: port.defaultValue = 440; fromBounds = false
        default: port.defaultValue = nil
        }
        if port.isInteger, let v = port.defaultValue { port.defaultValue = v.rounded() }
        port.isDefaultSampleRateRelative = relative && fromBounds && port.defaultValue != nil
    }
}

/// One instance of a LADSPA plugin: the descriptor's function pointers on its handle.
package final class LADSPAInstance: PluginInstance {
    private let descriptor: UnsafePointer<LADSPA_Descriptor>
    private let handle: LADSPA_Handle
    private let runFunction: @convention(c) (LADSPA_Handle?, UInt) -> Void

    package init(descriptor: UnsafePointer<LADSPA_Descriptor>, plugin: PluginInfo, sampleRate: Double) throws {
        self.descriptor = descriptor
        guard let instantiate = descriptor.pointee.instantiate, let run = descriptor.pointee.run,
              descriptor.pointee.connect_port != nil else {
            throw AUPipeError(.software, "ladspa: \(plugin.identifier) lacks instantiate, connect_port or run")
        }
        guard let handle = instantiate(descriptor, UInt(sampleRate.rounded())) else {
            throw AUPipeError(.software, "ladspa: \(plugin.identifier) refused to instantiate at \(formatNumber(sampleRate)) Hz")
        }
        self.handle = handle
        runFunction = run
    }

    deinit { descriptor.pointee.cleanup?(handle) }

    package func connect(port index: UInt32, to data: UnsafeMutablePointer<Float>) {
        descriptor.pointee.connect_port?(handle, UInt(index), data)
    }

    package func activate() { descriptor.pointee.activate?(handle) }
    package func run(frames: Int) { runFunction(handle, UInt(frames)) }
    package func deactivate() { descriptor.pointee.deactivate?(handle) }
}

extension PluginPort {
    /// LADSPA port symbols from port names: lowercase, every character other than a-z and 0-9
    /// as `_`, runs of `_` collapsed, `_` trimmed at the ends ("Gain (dB)" → `gain_db`); a leading
    /// `_` before a digit; a repeated symbol gets `_2`, `_3`; an empty one is `port`. (The
    /// host's own keys, `name` and `preset`, are moved aside for every standard where a plugin
    /// enters the host: `PluginInfo.withHostSymbols`.)
    public static func symbols(forNames names: [String]) -> [String] {
        var used: [String: Int] = [:]
        var result: [String] = []
        for name in names {
            var s = ""
            for ch in name.lowercased().unicodeScalars {
                let ok = (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9")
                if ok { s.unicodeScalars.append(ch) } else if !s.hasSuffix("_") { s += "_" }
            }
            while s.hasSuffix("_") { s.removeLast() }
            while s.hasPrefix("_") { s.removeFirst() }
            if s.isEmpty { s = "port" }
            if s.first!.isNumber { s = "_" + s }
            var symbol = s
            if let n = used[s] {
                var k = n + 1
                while used[s + "_\(k)"] != nil || result.contains(s + "_\(k)") { k += 1 }
                used[s] = k
                symbol = s + "_\(k)"
            } else {
                used[s] = 1
            }
            result.append(symbol)
        }
        return result
    }
}
