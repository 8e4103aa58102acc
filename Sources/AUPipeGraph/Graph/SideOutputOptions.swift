import AUPipeFormats

/// How a side output writes: container, encoding, and the policy for FIFOs and pipes.
/// A unit fills it from its parameters (`tee`'s `type=`, `format=`, `block=`, `queue=`, `live=`).
public struct SideOutputOptions: Equatable, Sendable {
    /// Starts every message about the output, before its path: `tee` gives `tee (copy.wav): ...`.
    public var label: String
    /// The container (`type=`); nil: the path's extension, as `-o` (`.caf`, `.wav`, `.au`/`.snd`,
    /// `.raw`/`.pcm`), or else `defaultContainer`.
    public var container: ContainerKind?
    /// The container of a path with no known extension (`>(command)` is `/dev/fd/63`).
    /// WAV by default: a side output has no input container to keep, and WAV is what the most
    /// peers read (flac, opusenc, lame, sox, ffmpeg).
    public var defaultContainer: ContainerKind = .wav
    /// The encoding (`format=`), which the container must hold; nil: the stream's, moved to the
    /// nearest one the container holds (s16be into WAV becomes s16le), as for the main output.
    public var encoding: SampleEncoding?
    /// FIFOs and pipes only: wait (poll) for a slow or absent reader instead of dropping frames,
    /// even in real time. False by default: then `live` and the run decide.
    public var block = false
    /// FIFOs and pipes only: whether they are written in real time (`RealTimePolicy`): `auto` as
    /// the run, `on` never stalls the stream, `off` waits for the reader.
    public var live = LiveSetting.auto
    /// FIFOs and pipes only: the most audio queued for a slow reader before frames are dropped.
    /// 2 s by default; at least 1 frame, at most `maxQueueBytes` of encoded audio.
    public var queue: StreamDuration = .seconds(2)
    /// The options a refusal names as fixes (`format=s16le, or type=raw`).
    public var fixes = OutputPlan.EncodingFixes(encoding: "format=", raw: "type=raw")

    /// The queue's bound in bytes whatever `queue` says: 8 MiB (2 s of 48 kHz f32 in 21 channels).
    public static let maxQueueBytes = 8 << 20

    public init(label: String, container: ContainerKind? = nil, encoding: SampleEncoding? = nil, block: Bool = false) {
        self.label = label
        self.container = container
        self.encoding = encoding
        self.block = block
    }
}
