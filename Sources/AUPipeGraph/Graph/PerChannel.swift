import AUPipeFormats

/// A processor of one channel's samples: `PerChannel` runs one instance per channel.
public protocol ChannelProcessor: AnyObject {
    /// Processes `frames` samples of one channel in place (1...the `maxFrames` its
    /// `PerChannel` was made for; a fixed-frame processor is always given its frame).
    func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) throws
}

/// A processor of one channel that reads one plane and writes another (a plugin's audio ports,
/// never the same buffer): `PerChannel.runPlanar` runs one instance per channel on planar
/// frames (`FixedFrames(layout: .planar)`).
public protocol PlanarChannelProcessor: AnyObject {
    /// Processes `frames` samples of one channel from `input` into `output` (separate planes).
    func process(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int) throws
}

/// Runs a mono processor on every channel of a stream: N instances on N channels, each seeing
/// only its own channel (`denoise` and `agc` run speex's preprocessor this way, and
/// `lv2`/`ladspa` a mono plugin on a stream of several channels).
///
/// A `ChannelProcessor` is given interleaved blocks (`run`): each block is split into one plane
/// per channel (`ChannelPlanes`), each instance processes its plane, and the planes are
/// interleaved back. A `PlanarChannelProcessor` is given planar frames as they are
/// (`runPlanar`). The planes are allocated when it is made (in a unit's `prepare`); nothing is
/// allocated per block.
public final class PerChannel<Processor: AnyObject> {
    /// The instances, instance c for channel c.
    public let instances: [Processor]
    public var channels: Int { instances.count }
    /// The most frames one `run` is given.
    public var maxFrames: Int { planes.maxFrames }
    /// One plane of `maxFrames` samples per channel.
    private let planes: ChannelPlanes

    /// `channels` (1...64) instances, `make(c)` the one for channel c, for blocks of up to
    /// `maxFrames` frames.
    public init(channels: Int, maxFrames: Int, make: (_ channel: Int) throws -> Processor) rethrows {
        precondition(channels >= 1 && maxFrames >= 1)
        instances = try (0..<channels).map(make)
        planes = ChannelPlanes(channels: channels, maxFrames: maxFrames)
    }
}

extension PerChannel where Processor: ChannelProcessor {
    /// Runs `frames` interleaved frames (1...maxFrames) of `input` through the instances into
    /// `output`, which may be `input` itself.
    public func run(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws {
        precondition(frames <= maxFrames, "PerChannel: \(frames) frames, made for \(maxFrames)")
        planes.split(input, frames: frames)
        for c in 0..<instances.count { try instances[c].process(planes.plane(c), frames: frames) }
        planes.join(frames: frames, into: output)
    }

}

extension PerChannel where Processor: PlanarChannelProcessor {
    /// Runs instance c from plane c of `input` into plane c of `output`, `frames` samples
    /// each, the planes `stride` samples apart: for frames that are already planar
    /// (`FixedFrames(layout: .planar)`), with no split or join.
    public func runPlanar(_ input: UnsafeMutablePointer<Float>, into output: UnsafeMutablePointer<Float>, stride: Int, frames: Int) throws {
        precondition(frames <= stride)
        for c in 0..<instances.count { try instances[c].process(input + c * stride, into: output + c * stride, frames: frames) }
    }
}

/// One plane of samples per channel, for DSP that works on planar audio (a plugin's ports, a
/// mono processor per channel): `split` de-interleaves a block into the planes, `join`
/// interleaves them back. A plane's address never changes, so it can be connected once (a
/// plugin's port). Allocated in `init`; nothing per block.
public final class ChannelPlanes {
    public let channels: Int
    /// Samples per plane.
    public let maxFrames: Int
    private let samples: UnsafeMutablePointer<Float>

    /// `channels` planes (≥ 1) of `maxFrames` samples (≥ 1), zeroed.
    public init(channels: Int, maxFrames: Int) {
        precondition(channels >= 1 && maxFrames >= 1)
        self.channels = channels
        self.maxFrames = maxFrames
        samples = .allocate(capacity: channels * maxFrames)
        samples.initialize(repeating: 0, count: channels * maxFrames)
    }

    deinit { samples.deallocate() }

    /// Channel c's plane (c in 0..<channels).
    @inline(__always)
    public func plane(_ c: Int) -> UnsafeMutablePointer<Float> { samples + c * maxFrames }

    /// De-interleaves `frames` frames (≤ maxFrames) of `input` into the planes.
    public func split(_ input: UnsafePointer<Float>, frames: Int) {
        let ch = channels
        for c in 0..<ch {
            let plane = samples + c * maxFrames
            for f in 0..<frames { plane[f] = input[f &* ch &+ c] }
        }
    }

    /// Interleaves `frames` frames (≤ maxFrames) of the planes into `output`.
    public func join(frames: Int, into output: UnsafeMutablePointer<Float>) {
        let ch = channels
        for c in 0..<ch {
            let plane = samples + c * maxFrames
            for f in 0..<frames { output[f &* ch &+ c] = plane[f] }
        }
    }
}
