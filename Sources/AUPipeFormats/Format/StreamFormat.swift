/// What a stream of interleaved PCM frames is: sample encoding, rate and channel count.
///
/// This is aupipe's AudioStreamBasicDescription. Its canonical text is the format spec
/// `TOKEN:RATE:CHANNELS`, for example `s16le:48000:2`.
public struct StreamFormat: Hashable, Sendable {
    public var encoding: SampleEncoding
    /// Frames per second, 1...768000 Hz.
    public var sampleRate: Int
    /// Samples per frame, 1...64.
    public var channels: Int

    public static let rateRange = 1...768_000
    public static let channelRange = 1...64

    public init(encoding: SampleEncoding, sampleRate: Int, channels: Int) {
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes in one frame: channels × bytes per sample.
    public var bytesPerFrame: Int { channels * encoding.bytesPerSample }

    /// `TOKEN:RATE:CHANNELS`, the canonical format spec.
    public var spec: String { "\(encoding.token):\(sampleRate):\(channels)" }

    /// Checks rate and channel count against the ranges aupipe handles; `source` names where the
    /// format came from (`--in-format`, `WAV header`) for the message.
    public func validated(source: String) throws -> StreamFormat {
        guard Self.rateRange.contains(sampleRate) else {
            throw AUPipeError.data("\(source): sample rate \(sampleRate) Hz is outside 1...768000 Hz")
        }
        guard Self.channelRange.contains(channels) else {
            throw AUPipeError.data("\(source): \(channels) channels is outside 1...64")
        }
        return self
    }
}

/// The fields of Core Audio's in-memory AudioStreamBasicDescription for a `StreamFormat`.
///
/// These are the in-memory flags (1 float, 2 big-endian, 4 signed integer, 8 packed), not the
/// CAF `desc` flags (1 float, 2 little-endian), which the CAF writer derives separately.
public struct AudioStreamBasicDescription: Equatable, Sendable {
    public var sampleRate: Double
    public var formatID: String
    public var formatFlags: UInt32
    public var bytesPerPacket: UInt32
    public var framesPerPacket: UInt32
    public var bytesPerFrame: UInt32
    public var channelsPerFrame: UInt32
    public var bitsPerChannel: UInt32

    public static let flagIsFloat: UInt32 = 1
    public static let flagIsBigEndian: UInt32 = 2
    public static let flagIsSignedInteger: UInt32 = 4
    public static let flagIsPacked: UInt32 = 8

    public init(_ format: StreamFormat) {
        let e = format.encoding
        var flags: UInt32 = 0
        switch e.kind {
        case .float: flags = Self.flagIsFloat | Self.flagIsPacked
        case .signedInteger: flags = Self.flagIsSignedInteger | Self.flagIsPacked
        case .unsignedInteger: flags = Self.flagIsPacked
        case .muLaw, .aLaw: flags = 0
        }
        if e.isBigEndian { flags |= Self.flagIsBigEndian }
        sampleRate = Double(format.sampleRate)
        formatID = e.kind == .muLaw ? "ulaw" : (e.kind == .aLaw ? "alaw" : "lpcm")
        formatFlags = flags
        bytesPerPacket = UInt32(format.bytesPerFrame)
        framesPerPacket = 1
        bytesPerFrame = UInt32(format.bytesPerFrame)
        channelsPerFrame = UInt32(format.channels)
        bitsPerChannel = UInt32(e.bits)
    }
}
