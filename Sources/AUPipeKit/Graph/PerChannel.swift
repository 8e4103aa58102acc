/// A processor of one channel's samples: `PerChannel` runs one instance per channel.
public protocol ChannelProcessor: AnyObject {
    /// Processes `frames` samples of one channel in place (1...the `maxFrames` its
    /// `PerChannel` was made for; a fixed-frame processor is always given its frame).
    func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) throws
}

/// Runs a mono processor on every channel of an interleaved stream: N instances on N channels,
/// each seeing only its own channel (`denoise` and `agc` run speex's preprocessor this way).
///
/// Each block is split into one plane per channel, each instance processes its plane, and the
/// planes are interleaved back. The planes are allocated when it is made (in a unit's
/// `prepare`); nothing is allocated per block.
public final class PerChannel<Processor: ChannelProcessor> {
    /// The instances, instance c for channel c.
    public let instances: [Processor]
    public var channels: Int { instances.count }
    /// The most frames one `run` is given.
    public let maxFrames: Int
    /// One plane of `maxFrames` samples per channel.
    private let planes: UnsafeMutablePointer<Float>

    /// `channels` (1...64) instances, `make(c)` the one for channel c, for blocks of up to
    /// `maxFrames` frames.
    public init(channels: Int, maxFrames: Int, make: (_ channel: Int) throws -> Processor) rethrows {
        precondition(channels >= 1 && maxFrames >= 1)
        instances = try (0..<channels).map(make)
        self.maxFrames = maxFrames
        planes = .allocate(capacity: channels * maxFrames)
        planes.initialize(repeating: 0, count: channels * maxFrames)
    }

    deinit { planes.deallocate() }

    /// Runs `frames` interleaved frames (1...maxFrames) of `input` through the instances into
    /// `output`, which may be `input` itself.
    public func run(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws {
        precondition(frames <= maxFrames, "PerChannel: \(frames) frames, made for \(maxFrames)")
        let ch = channels
        for c in 0..<ch {
            let plane = planes + c * maxFrames
            for f in 0..<frames { plane[f] = input[f &* ch &+ c] }
        }
        for c in 0..<ch { try instances[c].process(planes + c * maxFrames, frames: frames) }
        for c in 0..<ch {
            let plane = planes + c * maxFrames
            for f in 0..<frames { output[f &* ch &+ c] = plane[f] }
        }
    }
}
