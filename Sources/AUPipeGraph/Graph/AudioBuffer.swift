import AUPipeFormats

/// Interleaved Float32 frames, owned by the graph and allocated once in `prepare`.
///
/// Samples are nominally in [-1, 1); units may leave values outside that range (the encoder
/// at the end of the chain clips and counts them). Capacity never changes after creation.
public final class AudioBuffer {
    public let channels: Int
    /// Room for this many frames.
    public let capacity: Int
    public let samples: UnsafeMutablePointer<Float>

    public init(channels: Int, capacity: Int) {
        precondition(channels > 0 && capacity >= 0)
        self.channels = channels
        self.capacity = capacity
        samples = .allocate(capacity: max(1, channels * capacity))
        samples.initialize(repeating: 0, count: max(1, channels * capacity))
    }

    deinit { samples.deallocate() }
}
