import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// A second destination for the stream, written from inside the chain (`tee`'s copy, a
/// monitor tap): a regular file, a named FIFO, or a pipe such as `>(command)`. Never stdout,
/// which is the main output.
///
/// Lifecycle, as a unit's: `init` checks the path and the options (before any audio is read;
/// nothing is created), `prepare` learns the stream's format and allocates every buffer,
/// `write` encodes and writes each block (no allocation), `finish` ends it once.
///
/// - A **regular file** is created (or truncated) at the first write (or at `finish` for an
///   empty stream): it gets the same bytes `-o` would for the same samples — the header in the
///   first write with the first audio, then at `finish` the header patched with the true sizes
///   and RIFF's pad byte after odd-sized data. Writes block as the disk does.
/// - A **FIFO or pipe** gets the streaming header (CAF -1, WAV and AU 0xFFFFFFFF) and the
///   policy of `RealTimePolicy` through `LiveOutputWriter`: in a run that is not real time (or
///   with `block`) it waits for the reader, as GNU tee does, until SIGINT/SIGTERM, and gets
///   every frame; in real time it never stalls the main stream (a bounded queue, the newest
///   whole frames dropped and counted when it is full; a FIFO with no reader yet is tried again
///   at each write, its frames dropped meanwhile). What is queued at the end is delivered. A
///   reader that goes away stops this output with one line on stderr; the main stream goes on.
///
/// Samples are encoded as the main output encodes them (`SampleCodec`: rounded to nearest,
/// clipped and counted for integers; no dither).
public final class SideOutput {
    public let path: String
    public let options: SideOutputOptions
    /// The container: `options.container`, or the path's extension, or `options.defaultContainer`.
    public let container: ContainerKind
    /// Container and format once `prepare` has run.
    public private(set) var plan: OutputPlan?
    /// Frames handed to `write` so far.
    public private(set) var framesGiven: Int64 = 0
    /// Samples the encoder clipped (integer encodings only).
    public private(set) var clippedSamples = 0
    /// Whether a regular file's header was patched with the true sizes at `finish`.
    public private(set) var sizesPatched = false
    /// Whether `finish` has run.
    public private(set) var finished = false
    /// Where the one-line warnings go (the reader went away, frames were dropped, waiting for a
    /// reader); nil: stderr.
    public var onWarning: ((String) -> Void)?

    /// Starts every message: `tee (copy.wav)`.
    public var name: String { file.name }

    private let file: SideOutputFile
    private var codec: SampleCodec?
    /// Dither before the encoder rounds (`EdgeDither`), and a block of dithered samples.
    private var ditherer: Ditherer?
    private var dithered: UnsafeMutablePointer<Float>?
    /// TPDF into s16le: dither, rounding and encoding in one pass (`Ditherer.encodeS16LE`).
    private var fusedS16 = false
    private var maxFrames = 0
    private var frameBytes = 0
    /// One block of encoded audio, with room for the header in front of it.
    private var scratch: UnsafeMutableRawPointer?
    private var room = 0
    /// A regular file, written as the main output writes `-o FILE` (nil until it is created,
    /// and again once finished, which closes it).
    private var fileWriter: OutputWriter?
    private var fileFrames: Int64 = 0
    /// A FIFO or pipe, under the live policy.
    private var live: LiveOutputWriter?
    private var queueFrames = 0
    private var warnedGone = false

    /// Checks `path` and `options`; creates nothing. Refuses (one line, sysexits status) stdout
    /// (64), a directory or socket or a path that cannot be created (73), and an encoding the
    /// container cannot hold (64, worded as the main output's refusal with `options.fixes`).
    /// `stop` ends every wait (SIGINT/SIGTERM in aupipe).
    public init(path: String, options: SideOutputOptions, stop: StopCondition = .signals) throws {
        self.path = path
        self.options = options
        container = options.container ?? ContainerKind(pathExtensionOf: path) ?? options.defaultContainer
        let name = "\(options.label) (\(path))"
        if let e = options.encoding {
            do { try OutputPlan.check(e, fits: container, fixes: options.fixes) } catch let e as AUPipeError { throw e.prefixed(name) }
        }
        file = try SideOutputFile(path: path, name: name, stop: stop)
    }

    /// A run that ends before the chain drains (the main output's reader went away, an error)
    /// still leaves a finished copy: a regular file that got audio has its sizes patched.
    deinit {
        if !finished, live == nil, framesGiven > 0 { try? finish() }
        scratch?.deallocate()
        dithered?.deallocate()
    }

    /// Learns the stream's format (the unit's input) and allocates everything: a block of
    /// `maxFrames` frames (at least 1) encoded, and for a FIFO or pipe the queue. `realTime` is
    /// the run's policy, which `options.live` applies (default: a real-time run, where a FIFO or
    /// pipe never stalls the stream). `precision` is that of the samples it will be given and
    /// `dither` the run's `--dither`: together they decide whether the copy is dithered before
    /// it is rounded (`EdgeDither`; the default, `.off`, never dithers). Called once, before the
    /// first `write`.
    public func prepare(format: StreamFormat, maxFrames: Int, realTime: RealTimePolicy = .realTime,
                        precision: SignalPrecision = .float, dither: DitherMode = .off) throws {
        guard fileWriter == nil && live == nil && !finished else {
            throw AUPipeError(.software, "\(name): prepare after audio")
        }
        let plan: OutputPlan
        do {
            plan = try OutputPlan(format: format, container: container, explicitEncoding: options.encoding, fixes: options.fixes)
        } catch let e as AUPipeError { throw e.prefixed(name) }
        self.plan = plan
        codec = SampleCodec(plan.format.encoding)
        self.maxFrames = max(1, maxFrames)
        ditherer = EdgeDither.ditherer(dither, precision: precision, format: plan.format)
        dithered?.deallocate()
        fusedS16 = ditherer?.fusesEncoder(of: plan.format.encoding) ?? false
        dithered = ditherer == nil || fusedS16 ? nil : .allocate(capacity: self.maxFrames * plan.format.channels)
        frameBytes = plan.format.bytesPerFrame
        let header = plan.header(dataBytes: nil)
        room = header.count
        scratch?.deallocate()
        scratch = .allocate(byteCount: room + self.maxFrames * frameBytes, alignment: 16)
        if file.kind == .stream {
            let limit = max(1, (SideOutputOptions.maxQueueBytes - room) / frameBytes)
            queueFrames = min(limit, max(1, options.queue.frames(atRate: format.sampleRate)))
            let waits = options.block || !realTime.isRealTime(options.live)
            let writer = LiveOutputWriter(file: file, header: header, frameBytes: frameBytes, queueFrames: queueFrames, block: waits)
            writer.announce = { [unowned self] in say($0) }
            live = writer
        }
    }

    /// Encodes `frames` interleaved frames of the stream's format (any number: taken
    /// `maxFrames` at a time) and writes them. Throws for a regular file that cannot be
    /// created or written (73, 74); a FIFO or pipe throws only for an I/O error other than its
    /// reader going away.
    public func write(samples: UnsafePointer<Float>, frames: Int) throws {
        guard let codec, let plan, let scratch, !finished else {
            throw AUPipeError(.software, "\(name): write before prepare or after finish")
        }
        let channels = plan.format.channels
        var done = 0
        while done < frames {
            let n = min(maxFrames, frames - done)
            var block = samples + done * channels
            if fusedS16, let ditherer {
                clippedSamples += ditherer.encodeS16LE(block, frames: n, into: scratch + room)
            } else {
                if let ditherer, let dithered {
                    ditherer.process(block, frames: n, into: dithered)
                    block = UnsafePointer(dithered)
                }
                clippedSamples += codec.encode(block, count: n * channels, into: scratch + room)
            }
            if let live {
                do { try live.write(scratch + room, frames: n) } catch is OutputClosed { readerWentAway(live) }
            } else {
                try openFile().write(scratch + room, count: n * frameBytes)
                fileFrames += Int64(n)
            }
            framesGiven += Int64(n)
            done += n
        }
    }

    /// The regular file's writer, the file being created now (at the first audio, or at
    /// `finish` for an empty stream).
    private func openFile() throws -> OutputWriter {
        if let fileWriter { return fileWriter }
        let writer = OutputWriter(sink: try file.createFile(), header: plan!.header(dataBytes: nil))
        fileWriter = writer
        return writer
    }

    private func readerWentAway(_ writer: LiveOutputWriter) {
        guard !warnedGone else { return }
        warnedGone = true
        say("aupipe: \(name): warning: its reader went away after \(counted(Int(writer.framesWritten), "frame")); this output stops here and the stream goes on")
    }

    /// Ends the output, once: a regular file gets its header (if no audio carried it), then the
    /// true sizes and its trailer, and is closed; a FIFO or pipe gets what is queued, as its
    /// reader takes it (when it waits for its reader: however long that takes; in real time
    /// until it has taken nothing for the queue's length, at least 0.5 s; no wait after
    /// SIGINT/SIGTERM; the rest is counted as dropped), and is closed. Drops, and a FIFO no
    /// reader opened, are said once on stderr.
    public func finish() throws {
        guard !finished, let plan else { return }
        finished = true
        defer {
            fileWriter = nil // closes the file
            scratch?.deallocate()
            scratch = nil
        }
        guard let live else {
            sizesPatched = try openFile().finish(patching: plan, dataBytes: UInt64(fileFrames) * UInt64(frameBytes))
            return
        }
        try live.finish(idleMilliseconds: Int32(max(500, min(60_000, queueFrames * 1000 / plan.format.sampleRate))))
        guard !file.stop.isSet(), !warnedGone, framesGiven > 0 else { return }
        if !live.everOpened {
            say("aupipe: \(name): warning: no reader opened it; its \(counted(Int(framesGiven), "frame")) were dropped")
        } else if live.droppedFrames > 0 {
            say("aupipe: \(name): warning: \(live.droppedFrames) of \(framesGiven) frames were dropped (its reader came late or was too slow)")
        }
    }

    private func say(_ line: String) {
        if let onWarning { onWarning(line) } else { warn(line) }
    }

    // MARK: figures for --stats

    /// Frames the destination took whole.
    public var framesWritten: Int64 { live?.framesWritten ?? fileFrames }

    /// Frames that never reached the destination: queue full, no reader yet, reader gone, or
    /// left in the queue at `finish`. Always 0 for a regular file.
    public var droppedFrames: Int64 { live?.droppedFrames ?? 0 }

    /// Whether the destination is a FIFO, pipe or device (the live policy), not a regular file.
    public var isStream: Bool { file.kind == .stream }

    /// One line for `--stats`: path, container and format, frames written and dropped, and
    /// how it ended.
    public var statsNote: String {
        guard let plan else { return "\(path): not prepared" }
        var s = "\(path): \(plan.container.rawValue.uppercased()) \(plan.format.spec), \(counted(Int(framesWritten), "frame")) written"
        if let live {
            s += ", \(droppedFrames) dropped"
            if warnedGone { s += ", its reader went away" } else if !live.everOpened { s += ", no reader opened it" }
        } else if finished {
            s += sizesPatched ? ", sizes patched" : ", sizes not patched"
        }
        if clippedSamples > 0 { s += ", \(counted(clippedSamples, "sample")) clipped" }
        return s
    }

    /// The figures of `statsNote` as numbers, for `--stats=json`.
    public var statsFigures: [StatsFigure] {
        [StatsFigure("framesWritten", Double(framesWritten)), StatsFigure("framesDropped", Double(droppedFrames)),
         StatsFigure("clippedSamples", Double(clippedSamples))]
    }
}
