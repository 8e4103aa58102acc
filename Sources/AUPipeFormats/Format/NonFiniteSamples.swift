/// Non-finite samples (NaN, +inf, -inf) found in a stream: how many, and where the first was.
/// `aupipe compare` keeps one per input; a run keeps one for what reached a float output.
public struct NonFiniteSamples: Equatable, Sendable {
    /// Samples found (not frames: two channels of one frame count twice).
    public private(set) var count: Int64 = 0
    /// The frame (from 0) and channel of the first one; nil while `count` is 0.
    public private(set) var first: Place?

    public struct Place: Equatable, Sendable {
        public var frame: Int64
        public var channel: Int
    }

    public init() {}

    /// Counts `count` more, the first of which (when none came before) is at `frame`, `channel`.
    package mutating func note(frame: Int64, channel: Int, count more: Int64 = 1) {
        if first == nil { first = Place(frame: frame, channel: channel) }
        count += more
    }

    /// `3 samples, the first at frame 10, channel 0`, or `none`.
    package var text: String {
        guard let first else { return "none" }
        return "\(counted(Int(count), "sample")), the first at frame \(first.frame), channel \(first.channel)"
    }

    /// Non-finite samples among `count` encoded float samples at `data` (f32 or f64 of either
    /// byte order; 0 for any other encoding): their exponent bits are all ones. Branch-free
    /// and allocation-free, for the audio path.
    package static func count(in data: UnsafeRawPointer, samples count: Int, encoding e: SampleEncoding) -> Int {
        guard e.kind == .float else { return 0 }
        var found = 0
        if e.bits == 32 {
            let mask: UInt32 = e.isBigEndian ? UInt32(0x7F80_0000).byteSwapped : 0x7F80_0000
            for i in 0..<count { found &+= data.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self) & mask == mask ? 1 : 0 }
        } else {
            let mask: UInt64 = e.isBigEndian ? UInt64(0x7FF0_0000_0000_0000).byteSwapped : 0x7FF0_0000_0000_0000
            for i in 0..<count { found &+= data.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self) & mask == mask ? 1 : 0 }
        }
        return found
    }

    /// The index of the first non-finite sample among `count` encoded float samples at `data`.
    package static func firstIndex(in data: UnsafeRawPointer, samples count: Int, encoding e: SampleEncoding) -> Int? {
        guard e.kind == .float else { return nil }
        for i in 0..<count where Self.count(in: data + i * e.bytesPerSample, samples: 1, encoding: e) == 1 { return i }
        return nil
    }
}
