import AUPipeFormats
import Synchronization

/// What units need from outside the graph: streams besides the chain's own. A unit reads a side
/// input (`mix`'s buses, `aec`'s `ref=`, a sidechain), writes a side output (`tee`), lines
/// (`meter to=`) or a file at the end (a plot), and may have its far end played on a device
/// (`aec` with `--play`). The graph declares these as protocols; the I/O layer (AUPipeIO)
/// implements them and installs itself in `UnitStreams.opener` before any unit is made, so
/// units never import I/O (LADSPA's host/plugin split, one level up).

/// A side input delivered in the stream's format, frame-aligned with the stream's timeline
/// (AUPipeIO's `SideInput`, which holds the read, wait and late-frame policy).
package protocol SideInputStream: AnyObject {
    /// The input's path and mixing options, as given.
    var spec: BusSpec { get }
    /// 1-based position among the unit's side inputs (`bus 2`).
    var index: Int { get }
    /// What was converted on the way in (`s16le 44100 Hz stereo, resampled to 48000 Hz`), for `--stats`.
    var conversionNote: String { get }
    /// Times a looping input started again.
    var loops: Int { get }
    /// Bytes of a torn last frame that were dropped.
    var tornBytes: Int { get }
    /// Audio bytes the header declared that never came (the input was cut short).
    var missingBytes: UInt64 { get }
    /// The channel count of the input as read from its header, 0 before the header has come.
    var sourceChannels: Int { get }
    /// Whether every frame the input will give has been delivered.
    var ended: Bool { get }
    /// Frames delivered so far, silence for late frames included.
    var framesDelivered: Int64 { get }
    /// Frames that came late in a real-time run and were delivered as silence.
    var underrunFrames: Int64 { get }
    /// Fills `output` with `frames` frames (interleaved, the target's channels): real audio
    /// first, then silence; `endedAt` is the frame at which the input ended, if it did.
    func read(into output: UnsafeMutablePointer<Float>, frames: Int) throws -> (real: Int, endedAt: Int?)
    /// Says on stderr, once, how many frames came late.
    func reportLate()
    /// Tells the input that the stream has ended: a FIFO no writer has opened stops waiting.
    func streamHasEnded()
}

/// What a unit asks for when it opens a side input.
package struct SideInputRequest {
    /// Path and options (offset, loop, gain) as parsed.
    package var spec: BusSpec
    /// 1-based position among the unit's side inputs (messages: `mix: input 2`).
    package var index: Int
    /// How every message about the input starts (`aec: ref`); nil: `mix: input N`.
    package var label: String?
    /// The format the unit reads it in (encoding f32le; rate and channels converted to).
    package var target: StreamFormat
    /// The most frames one `read` asks for.
    package var maxFrames: Int
    /// Whether the unit reads it in real time (`RealTimePolicy.isRealTime(_:)`).
    package var realTime: Bool
    /// The longest one read waits for data in real time.
    package var wait: StreamDuration
    /// Words the error for a channel count the unit cannot take (nil: `mix`'s wording).
    package var channelMismatch: ((_ channels: Int) -> String)?

    package init(spec: BusSpec, index: Int, label: String? = nil, target: StreamFormat, maxFrames: Int, realTime: Bool,
                 wait: StreamDuration, channelMismatch: ((_ channels: Int) -> String)? = nil) {
        self.spec = spec
        self.index = index
        self.label = label
        self.target = target
        self.maxFrames = maxFrames
        self.realTime = realTime
        self.wait = wait
        self.channelMismatch = channelMismatch
    }
}

/// A side output written in a container (`tee`): a file, FIFO or `>(command)`.
package protocol SideOutputStream: AnyObject {
    var path: String { get }
    /// How messages name it (`tee (copy.wav)`).
    var name: String { get }
    /// Opens it for `format`; a FIFO in real time gets a writer thread and a queue. `precision`
    /// (that of the samples it will be given) and `dither` (the run's `--dither`) decide whether
    /// the copy is dithered before it is rounded (`EdgeDither`).
    func prepare(format: StreamFormat, maxFrames: Int, realTime: RealTimePolicy, precision: SignalPrecision, dither: DitherMode) throws
    /// Writes interleaved float frames in the output's encoding.
    func write(samples: UnsafePointer<Float>, frames: Int) throws
    /// Writes what is queued and closes it (a file's header gets its final sizes).
    func finish() throws
    /// Samples clipped converting to the output's encoding.
    var clippedSamples: Int { get }
    /// The `--stats` text and figures: frames written, dropped, where.
    var statsNote: String { get }
    var statsFigures: [StatsFigure] { get }
}

/// Text lines written as they come (`meter to=`): a file, FIFO, `>(command)` or stderr.
package protocol LineOutputStream: AnyObject {
    /// The path, nil for stderr.
    var path: String? { get }
    /// Whether it is a FIFO or pipe, where a line that would block is dropped, not waited for.
    var isStream: Bool { get }
    /// Lines written and dropped so far.
    var written: Int { get }
    var dropped: Int { get }
    /// Writes one line of `count` bytes (its newline included).
    func write(_ line: UnsafeRawPointer, count: Int) throws
    func finish() throws
}

/// The far end played on a sound device as it is read (`--play`): the unit hands every frame
/// over and gets it back as the device played it.
package protocol ReferencePlayback: AnyObject {
    /// Plays `frames` interleaved frames of `x` and replaces them with what was played.
    func play(_ x: UnsafeMutablePointer<Float>, frames: Int) throws
}

/// Opens the streams units use besides the chain's. AUPipeIO's `StreamServices` is the one
/// implementation; tests of single units may install their own.
package protocol UnitStreamOpening: Sendable {
    func sideInput(_ request: SideInputRequest) throws -> any SideInputStream
    /// A side output; `options` as the unit's parameters give them.
    func sideOutput(path: String, options: SideOutputOptions) throws -> any SideOutputStream
    /// A line output; nil path: stderr. `label` names it in messages (`meter to=`).
    func lineOutput(path: String?, label: String) throws -> any LineOutputStream
    /// Whether `path` names a regular file (or one that does not exist yet), which a document
    /// written at the end needs; a usage error when it cannot be opened at all.
    func isRegularFile(path: String, name: String) throws -> Bool
    /// Writes `bytes` to the file at `path`, created or truncated, at once.
    func writeFile(path: String, name: String, bytes: [UInt8]) throws
}

/// Where units find the opener. AUPipeIO installs `StreamServices` when the standard registry is
/// first used and in every `Pipeline` (every run, every command); the value before that says it
/// is missing.
package enum UnitStreams {
    /// The opener in use. Read when a unit is made or prepared, never per block; set at start-up
    /// (and set again to the same by every `Pipeline`), so a lock costs nothing that matters.
    package static var opener: any UnitStreamOpening {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    private static let current = Mutex<any UnitStreamOpening>(NoStreams())
}

/// The opener before AUPipeIO has installed one: every request is a software error.
private struct NoStreams: UnitStreamOpening {
    private func missing() -> AUPipeError {
        AUPipeError(.software, "no stream services installed: a program built on AUPipeUnits must use AUPipeIO's UnitRegistry.standard or install UnitStreams.opener")
    }
    package func sideInput(_ request: SideInputRequest) throws -> any SideInputStream { throw missing() }
    package func sideOutput(path: String, options: SideOutputOptions) throws -> any SideOutputStream { throw missing() }
    package func lineOutput(path: String?, label: String) throws -> any LineOutputStream { throw missing() }
    package func isRegularFile(path: String, name: String) throws -> Bool { throw missing() }
    package func writeFile(path: String, name: String, bytes: [UInt8]) throws { throw missing() }
}
