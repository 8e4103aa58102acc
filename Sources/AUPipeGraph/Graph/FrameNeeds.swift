import AUPipeFormats

/// What a unit needs of the chain's frame services, declared in its descriptor
/// (`UnitDescriptor.frameNeeds`): fixed frames (`FixedFrames`: gathered, the last one padded
/// with zeros), one instance per channel (`PerChannel`), a latency trimmed with the flushed
/// tail (`LatencyTrim`). The unit takes the services from `Graph/` in `prepare`
/// (`fixedFrames(_:channels:outputChannels:latency:)` checks the size against this
/// declaration); a reader, and the block-size tests, learn from it what the unit does with
/// frames without reading its code. Whatever it declares, a unit's output never depends on the
/// blocks it is given.
public struct FrameNeeds: Sendable, Equatable {
    /// How a unit's DSP takes its input.
    public enum Frames: Sendable, Equatable {
        /// Any block the chain gives (1...maxFrames frames).
        case any
        /// Fixed frames of one size for the whole run, chosen in `prepare` (from a parameter,
        /// the rate, a plugin's limits), within these bounds in frames.
        case fixed(ClosedRange<Int>)
        /// Fixed frames of a power of two within these bounds.
        case powerOfTwo(ClosedRange<Int>)
    }

    public var frames: Frames
    /// One instance of the DSP per channel, each seeing only its own (always, or, for a
    /// plugin host, when the plugin is mono).
    public var perChannel: Bool
    /// The DSP delays its output (a look-ahead, a frame held back, a filter's group delay)
    /// and the unit trims it, flushing the tail: an impulse stays on its frame, and the length
    /// is exact (or, for `resample`, round(N × out / in)).
    public var latency: Bool

    public init(frames: Frames = .any, perChannel: Bool = false, latency: Bool = false) {
        self.frames = frames
        self.perChannel = perChannel
        self.latency = latency
    }

    /// Any block, one instance, no latency: most units.
    public static let none = FrameNeeds()

    /// Whether `frameFrames` is a frame size this declaration allows.
    public func allows(frameFrames n: Int) -> Bool {
        switch frames {
        case .any: return false
        case .fixed(let bounds): return bounds.contains(n)
        case .powerOfTwo(let bounds): return bounds.contains(n) && n & (n - 1) == 0
        }
    }

    /// The fixed frames of `frameFrames` (which the declaration must allow: the unit checked
    /// its parameters in `prepare`), `channels` in and `outputChannels` (default: the same)
    /// out, trimming `latency` frames (a latency learned while running: `setLatency`), laid out
    /// as `layout`.
    public func fixedFrames(_ frameFrames: Int, channels: Int, outputChannels: Int? = nil, latency: Int = 0,
                            layout: FixedFrames.Layout = .interleaved) -> FixedFrames {
        precondition(allows(frameFrames: frameFrames), "\(frameFrames)-frame frames where \(frames) is declared")
        return FixedFrames(frameFrames: frameFrames, channels: channels, outputChannels: outputChannels ?? channels, latency: latency,
                           layout: layout)
    }
}
