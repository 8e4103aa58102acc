import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// How `--stats` reports.
public enum StatsMode: String, Sendable { case off, text, json }

/// Options of a processing run (everything on the command line but the chain).
public struct PipelineOptions: Sendable {
    /// Input path, `-` for stdin.
    public var input = "-"
    /// Output path, `-` for stdout.
    public var output = "-"
    /// Whether `-o` was given: `-o -` writes audio to a terminal, a default stdout does not.
    public var outputGiven = false
    /// Format of headerless input (`--in-format`).
    public var inFormat: StreamFormat?
    /// `--out-format`: encoding, and optionally rate and channels to convert to at the end.
    public var outFormat: FormatSpec.Parts?
    /// `-t`, or else the extension of `-o`'s path (`ContainerKind(pathExtensionOf:)`): the
    /// output container; nil means the input's.
    public var container: ContainerKind?
    /// `--block`: most frames per processing step; nil means 10 ms.
    public var block: StreamDuration?
    public var stats = StatsMode.off
    /// `--check`: stop after validating the chain against the input's format.
    public var check = false
    /// `--control PATH`: the FIFO that takes `set`/`get`/`list` lines while running.
    public var control: String?
    /// `--control-reply PATH`: where replies go (default stderr).
    public var controlReply: String?
    /// `--progress`: nil for off, false to draw only on a terminal, true to draw anyway.
    public var progress: Bool?
    /// `--duration`: stop after this much of the input (nil: to its end).
    public var duration: StreamDuration?
    /// `--capture DEVICE`: read from this ALSA capture device instead of the input, in
    /// `captureFormat`.
    public var capture: String?
    public var captureFormat = PipelineOptions.defaultCaptureFormat
    /// `--monitor DEVICE`: also play the output on this ALSA device.
    public var monitor: String?
    /// `--play DEVICE`: play `aec`'s reference on this device and cancel exactly what was played.
    public var play: String?
    /// `--period`, `--buffer`: the sound devices' period and buffer (nil: 10 ms and 40 ms).
    public var period: StreamDuration?
    public var buffer: StreamDuration?
    /// `--reconnect[=TIMEOUT]`: wait for a lost device to come back (nil: a loss ends the run,
    /// or for `--monitor` drops the monitor).
    public var reconnect: Reconnect?
    /// `--live`: the run is real time although its input is a file or a pipe (a capture device
    /// makes it so anyway): side streams never stall it (`RealTimePolicy`), and the default
    /// resampler is the low-latency one.
    public var live = false
    /// `--dither`: what the output edges do when they round to 16 bits or fewer (`EdgeDither`).
    public var dither = DitherMode.auto

    /// `--capture`'s format unless `--capture-format` says otherwise.
    public static let defaultCaptureFormat = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)

    public init() {}
}
