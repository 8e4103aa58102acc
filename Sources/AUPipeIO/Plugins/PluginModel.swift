import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// The host/plugin split, as LADSPA draws it: a *backend* knows one plugin standard (how to
/// find plugins, read their ports and make instances); the *host unit* (`PluginUnit`) knows
/// aupipe's stream (channels, blocks, latency, live control) and nothing of the standard. Both
/// standards meet in these types, so `lv2` and `ladspa` are one unit shape with two backends.

/// The plugin standard a plugin comes from.
public enum PluginStandard: String, Sendable, CaseIterable {
    case lv2
    case ladspa
}

/// What a plugin port carries, as the host sees it.
public enum PluginPortKind: Sendable, Equatable {
    /// One channel of audio, 32-bit float, `frames` samples per `run`.
    case audioInput
    case audioOutput
    /// One 32-bit float the host sets before `run` (a parameter).
    case controlInput
    /// One 32-bit float the plugin writes during `run` (a meter, a gain reduction, the latency).
    case controlOutput
    /// An LV2 atom sequence (events, MIDI, patch messages). The *backend's instance* connects
    /// these itself (an empty sequence to inputs, a buffer reset every block to outputs); the host
    /// unit never touches them.
    case atomInput
    case atomOutput
    /// A port type the host does not serve (CV, an unknown class), described in words
    /// ("CV input"): a plugin with such a port that is not connection-optional is refused.
    case unsupported(String)
}

/// A labelled value of a control port (`lv2:scalePoint`): "Off" = 0, "Low shelf" = 1.
public struct PluginScalePoint: Sendable, Equatable {
    public var label: String
    public var value: Float

    public init(label: String, value: Float) {
        self.label = label
        self.value = value
    }
}

/// One port of a plugin.
public struct PluginPort: Sendable {
    /// The port's index as the plugin numbers it (`connect_port`'s index).
    public var index: UInt32
    /// The name `--control` and `symbol=value` use: LV2's `lv2:symbol`; for LADSPA the port
    /// name in lowercase with every character other than a-z and 0-9 as `_`, runs of `_`
    /// collapsed and `_` trimmed at the ends ("Gain" → `gain`, "Gain (dB)" → `gain_db`); a
    /// symbol that starts with a digit gets a leading `_`, and a repeated symbol `_2`, `_3`.
    public var symbol: String
    /// The port's human name ("Gain").
    public var name: String
    public var kind: PluginPortKind
    /// The range and default of a control port, in the port's own unit; nil if unstated. Where
    /// the plugin says so (LADSPA's `HINT_SAMPLE_RATE`) fractions of the rate until
    /// `resolved(atSampleRate:)` multiplies them (see `isSampleRateRelative`).
    public var minimum: Float?
    public var maximum: Float?
    public var defaultValue: Float?
    /// The unit's symbol ("dB", "Hz", "ms", "%"), if the plugin states one.
    public var unit: String?
    public var scalePoints: [PluginScalePoint]
    /// The value is a whole number (`lv2:integer`, `HINT_INTEGER`).
    public var isInteger: Bool
    /// The value is on/off, 0 or 1 (`lv2:toggled`, `HINT_TOGGLED`).
    public var isToggled: Bool
    /// The range is best shown logarithmically (`pprops:logarithmic`, `HINT_LOGARITHMIC`).
    public var isLogarithmic: Bool
    /// An output control port that reports the plugin's latency in frames (`lv2:latency`
    /// designation or `lv2:reportsLatency`; a LADSPA output control port named "latency").
    public var isLatency: Bool
    /// The plugin runs with this port unconnected (`lv2:connectionOptional`).
    public var isConnectionOptional: Bool
    /// LADSPA's `HINT_SAMPLE_RATE` or LV2's `lv2:sampleRate` before the rate is known: `minimum`
    /// and `maximum` are fractions of the sample rate (0.5 = Nyquist), as is `defaultValue` when
    /// `isDefaultSampleRateRelative` (LV2: always with the bounds, as swh's cutoffs and Ardour
    /// read it; LADSPA: when the default is derived from the bounds). Discovery knows no rate;
    /// `resolved(atSampleRate:)` gives the port in its own unit once the stream's rate is known.
    public var isSampleRateRelative: Bool = false
    public var isDefaultSampleRateRelative: Bool = false

    public init(index: UInt32, symbol: String, name: String, kind: PluginPortKind,
                minimum: Float? = nil, maximum: Float? = nil, defaultValue: Float? = nil, unit: String? = nil,
                scalePoints: [PluginScalePoint] = [], isInteger: Bool = false, isToggled: Bool = false,
                isLogarithmic: Bool = false, isLatency: Bool = false, isConnectionOptional: Bool = false) {
        self.index = index
        self.symbol = symbol
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.unit = unit
        self.scalePoints = scalePoints
        self.isInteger = isInteger
        self.isToggled = isToggled
        self.isLogarithmic = isLogarithmic
        self.isLatency = isLatency
        self.isConnectionOptional = isConnectionOptional
    }

    /// The port at `rate` frames per second: a sample-rate-relative range and default multiplied
    /// by the rate (`isSampleRateRelative` then false); any other port unchanged.
    public func resolved(atSampleRate rate: Double) -> PluginPort {
        guard isSampleRateRelative || isDefaultSampleRateRelative else { return self }
        var p = self
        let r = Float(rate)
        if isSampleRateRelative {
            p.minimum = minimum.map { $0 * r }
            p.maximum = maximum.map { $0 * r }
        }
        if isDefaultSampleRateRelative { p.defaultValue = defaultValue.map { $0 * r } }
        p.isSampleRateRelative = false
        p.isDefaultSampleRateRelative = false
        return p
    }
}

/// A named preset of an LV2 plugin.
public struct PluginPreset: Sendable, Equatable {
    /// The label users type (`rdfs:label`), e.g. "Vocal".
    public var name: String
    /// The preset's URI.
    public var uri: String

    public init(name: String, uri: String) {
        self.name = name
        self.uri = uri
    }
}

/// An installed plugin, as a backend found it: enough to list it, describe it, check a chain
/// against it and instantiate it. Reading it loads no plugin code.
public struct PluginInfo: Sendable {
    public var standard: PluginStandard
    /// The name users may always use: the LV2 URI, or LADSPA's `library:label` (library file
    /// name without `.so`: `amp:amp_mono`).
    public var identifier: String
    /// The plugin's human name ("Mono Amplifier").
    public var name: String
    /// LADSPA's label (`amp_mono`) and unique ID (1048); nil for LV2.
    public var label: String?
    public var uniqueID: UInt?
    /// The shared object that holds the plugin's code.
    public var libraryPath: String
    /// Every port, in index order.
    public var ports: [PluginPort]
    /// The features (URIs) the plugin requires.
    public var requiredFeatures: [String]
    /// Those of `requiredFeatures` this host does not provide: non-empty means it cannot run.
    public var missingFeatures: [String]
    /// The plugin needs the same number of frames on every `run` (`bufsz:fixedBlockLength`)
    /// and, with `powerOf2BlockLength`, a power of two.
    public var needsFixedBlockLength: Bool
    public var needsPowerOf2BlockLength: Bool
    /// The fewest, most and usual frames per run the plugin states of itself (LV2's
    /// `bufsz:minBlockLength`, `maxBlockLength`, `nominalBlockLength` as properties of the
    /// plugin: convoLV2 states 64 and 8192); nil where it states none. `PluginRunLength`
    /// chooses the run length from them.
    public var minimumBlockLength: Int?
    public var maximumBlockLength: Int?
    public var nominalBlockLength: Int?
    /// The plugin's output buffers must not be its input buffers (`lv2:inPlaceBroken`,
    /// `LADSPA_PROPERTY_INPLACE_BROKEN`).
    public var isInPlaceBroken: Bool
    /// Presets (LV2 only).
    public var presets: [PluginPreset]
    /// The plugin can restore plugin state a preset carries (LV2 `state:interface`).
    public var hasStateInterface: Bool

    public init(standard: PluginStandard, identifier: String, name: String, label: String? = nil, uniqueID: UInt? = nil,
                libraryPath: String, ports: [PluginPort], requiredFeatures: [String] = [], missingFeatures: [String] = [],
                needsFixedBlockLength: Bool = false, needsPowerOf2BlockLength: Bool = false,
                minimumBlockLength: Int? = nil, maximumBlockLength: Int? = nil, nominalBlockLength: Int? = nil,
                isInPlaceBroken: Bool = false, presets: [PluginPreset] = [], hasStateInterface: Bool = false) {
        self.standard = standard
        self.identifier = identifier
        self.name = name
        self.label = label
        self.uniqueID = uniqueID
        self.libraryPath = libraryPath
        self.ports = ports.map(Self.withSaneBounds)
        self.requiredFeatures = requiredFeatures
        self.missingFeatures = missingFeatures
        self.needsFixedBlockLength = needsFixedBlockLength
        self.needsPowerOf2BlockLength = needsPowerOf2BlockLength
        self.minimumBlockLength = minimumBlockLength
        self.maximumBlockLength = maximumBlockLength
        self.nominalBlockLength = nominalBlockLength
        self.isInPlaceBroken = isInPlaceBroken
        self.presets = presets
        self.hasStateInterface = hasStateInterface
    }

    /// `port` with bounds a value can meet: a bound that is not a number dropped, and a lower
    /// bound above the upper (a faulty plugin's hint) swapped with it, so that the port is
    /// usable rather than refusing every value, its default included.
    package static func withSaneBounds(_ port: PluginPort) -> PluginPort {
        var p = port
        if p.minimum?.isNaN == true { p.minimum = nil }
        if p.maximum?.isNaN == true { p.maximum = nil }
        if let lo = p.minimum, let hi = p.maximum, lo > hi { p.minimum = hi; p.maximum = lo }
        return p
    }

    public var audioInputs: [PluginPort] { ports.filter { $0.kind == .audioInput } }
    public var audioOutputs: [PluginPort] { ports.filter { $0.kind == .audioOutput } }
    public var controlInputs: [PluginPort] { ports.filter { $0.kind == .controlInput } }
    public var controlOutputs: [PluginPort] { ports.filter { $0.kind == .controlOutput } }
    /// The output control port that reports latency, if any.
    public var latencyPort: PluginPort? { ports.first { $0.isLatency && $0.kind == .controlOutput } }
}

/// Plugin state a preset carries (LV2 `state:state`: an impulse response's file, a sample, a
/// table), restored into every instance before it is activated.
public struct PluginState: Sendable, Equatable {
    /// The preset's name and URI.
    public var preset: PluginPreset
    /// How many properties of state it carries (1 or more).
    public var properties: Int

    public init(preset: PluginPreset, properties: Int) {
        self.preset = preset
        self.properties = properties
    }
}

/// What an instance is made for: the stream it will see.
public struct PluginHostSettings: Sendable, Equatable {
    /// Frames per second, 1...768000.
    public var sampleRate: Double
    /// The fewest and most frames one `run` will be given (LV2 `bufsz:minBlockLength` /
    /// `maxBlockLength`); with a fixed block length both equal `nominalBlockLength`.
    public var minBlockLength: Int
    public var maxBlockLength: Int
    /// The usual frames per `run` (`bufsz:nominalBlockLength`).
    public var nominalBlockLength: Int

    public init(sampleRate: Double, minBlockLength: Int, maxBlockLength: Int, nominalBlockLength: Int) {
        self.sampleRate = sampleRate
        self.minBlockLength = minBlockLength
        self.maxBlockLength = maxBlockLength
        self.nominalBlockLength = nominalBlockLength
    }
}

/// One running plugin instance. The host unit connects every audio and control port (atom
/// ports are the backend's), activates once, runs block after block, deactivates at the end.
/// `run` is called from the audio path: it must not allocate, lock or block (an LV2 worker is
/// run synchronously inside it, on buffers allocated at instantiation).
public protocol PluginInstance: AnyObject {
    /// Connects port `index` to `data`: `frames` floats for an audio port, one float for a
    /// control port. Called before `activate` and whenever a buffer moves.
    func connect(port index: UInt32, to data: UnsafeMutablePointer<Float>)
    func activate()
    /// Restores `state` (before `activate`); throws `.unavailable` naming why it cannot.
    func restore(_ state: PluginState) throws
    /// Processes `frames` frames (`minBlockLength...maxBlockLength` of its settings).
    func run(frames: Int)
    func deactivate()
}

/// One plugin standard: finds plugins and makes instances of them.
public protocol PluginBackend: Sendable {
    var standard: PluginStandard { get }

    /// The installed plugins, in a stable order (by identifier). Throws `.unavailable` (69)
    /// naming the package to install when the standard's library is missing (lilv for LV2).
    func discover() throws -> [PluginInfo]

    /// Loads the plugin's code and makes an instance for `settings`. Throws `.unavailable`
    /// naming a missing feature, `.software` if the plugin refuses to instantiate.
    func instantiate(_ plugin: PluginInfo, settings: PluginHostSettings) throws -> any PluginInstance

    /// The plugin state a preset carries, to restore into every instance; nil when it carries
    /// none. Throws `.unavailable` (69) when it carries state the plugin cannot restore (it has
    /// no state interface), naming why. Optional: the default is nil (no preset carries state).
    func presetState(of plugin: PluginInfo, preset: String) throws -> PluginState?

    /// The control values a preset sets, by port symbol. Throws `.usage` with the preset names
    /// when `preset` is not one of the plugin's (matched case-insensitively by name or URI).
    func presetValues(of plugin: PluginInfo, preset: String) throws -> [String: Float]

    /// The plugin whose identifier is exactly `identifier`, found without discovering every
    /// plugin (LADSPA's `library:label` opens only that library), or nil to let the host
    /// discover them all. Optional: the default is nil.
    func plugin(withIdentifier identifier: String) -> PluginInfo?

    /// The plugin `word` names (as `PluginLookup` finds it), found without discovering every
    /// plugin (LV2 through its index of the installed plugins, `LV2Index`), or nil to let the
    /// host discover them all. Throws what `PluginLookup.find` throws. Optional: the default is nil.
    func plugin(named word: String) throws -> PluginInfo?
}

extension PluginBackend {
    public func plugin(withIdentifier identifier: String) -> PluginInfo? { nil }
    public func plugin(named word: String) throws -> PluginInfo? { nil }
    public func presetState(of plugin: PluginInfo, preset: String) throws -> PluginState? { nil }
}

extension PluginInstance {
    public func restore(_ state: PluginState) throws {
        throw AUPipeError(.unavailable, "preset '\(state.preset.name)' carries plugin state, which this plugin standard cannot restore")
    }
}
