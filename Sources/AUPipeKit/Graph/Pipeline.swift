#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

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

    /// `--capture`'s format unless `--capture-format` says otherwise.
    public static let defaultCaptureFormat = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)

    public init() {}
}

/// What a run did: the formats, the figures, and an error found in the data after all complete
/// frames were written (a stream that ended mid-frame or short of its header's size).
public struct RunReport: Sendable {
    public var input: StreamHeader
    public var output: OutputPlan
    public var stages: [StageStats] = []
    public var framesIn: Int64 = 0
    public var framesOut: Int64 = 0
    /// Samples clipped by the final encoder.
    public var encoderClipped = 0
    public var sizesPatched = false
    public var dataError: AUPipeError?
    /// The sound devices used (`--capture`, `--monitor`, `--play`).
    public var devices: [DeviceStats] = []
}

/// One processing run: reads a header, prepares the chain, streams every block through it,
/// drains it and finishes the output header.
public final class Pipeline {
    private var units: [ControlTargets.Entry]
    public let options: PipelineOptions
    /// Whether any unit chose the encoding (`convert format=`), which makes it explicit.
    private let chainSetsEncoding: Bool

    /// Builds every unit from its command-line words before any input is read, so that usage
    /// errors come first. Each element of `chain` is a unit name and its arguments.
    public init(chain: [[String]], options: PipelineOptions) throws {
        self.options = options
        var list: [ControlTargets.Entry] = []
        for words in chain {
            guard let name = words.first else { throw AUPipeError.usage("empty unit in the chain: two ':' in a row, or a ':' at an end") }
            let descriptor = try UnitRegistry.descriptor(named: name)
            // name=LABEL is every unit's: it labels the unit for --control.
            var arguments = Array(words.dropFirst())
            var label: String?
            if let i = arguments.firstIndex(where: { $0.lowercased().hasPrefix("name=") }) {
                label = String(arguments.remove(at: i).dropFirst(5))
                try Self.checkLabel(label!, unit: descriptor.name, taken: list.compactMap(\.label))
            }
            list.append(ControlTargets.Entry(name: descriptor.name, label: label, descriptor: descriptor, unit: try descriptor.instantiate(arguments)))
        }
        chainSetsEncoding = list.contains { ($0.unit as? ConvertUnit)?.format != nil }
        units = list
        try Self.checkOutputSparesSideInputs(list.map(\.unit), options: options)
        if options.play != nil, list.filter({ ($0.unit as? EchoCancellerUnit)?.readsReference == true }).count != 1 {
            throw AUPipeError.usage("--play \(options.play!) plays aec's far end: the chain needs one aec with ref=PATH (the far end to play)")
        }
    }

    /// Writing the output onto a file a unit reads beside the stream (`-o bed.wav` with
    /// `mix input=bed.wav`) would truncate it while it is read: refused, as `-o` onto `-i` is.
    static func checkOutputSparesSideInputs(_ units: [any AudioUnit], options: PipelineOptions) throws {
        let toStdout = options.output == "-"
        guard let output = FileIdentity(path: toStdout ? "/dev/stdout" : options.output) else { return }
        for case let reader as any SideInputReader in units {
            for (role, path) in reader.sideInputs where FileIdentity(path: path) == output {
                throw AUPipeError.usage(toStdout
                    ? "stdout is \(role) \(path) (> or >> onto it); write to another file and rename it"
                    : "-o \(options.output) is \(role); aupipe streams, so write to another file and rename it")
            }
        }
    }

    static func checkLabel(_ label: String, unit: String, taken: [String]) throws {
        guard let first = label.first, first.isLetter, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw AUPipeError.usage("\(unit): name=\(label) must start with a letter and hold only letters, digits, _ and -")
        }
        guard !taken.contains(label) else { throw AUPipeError.usage("\(unit): name=\(label) is already another unit's label") }
    }

    /// The stage names of the conversions `--out-format` appends, in `--stats` and errors.
    static let outFormatLabel = "convert (--out-format)"
    static let outFormatRateLabel = "resample (--out-format)"

    /// Appends the conversions `--out-format` asks for beyond the encoding: channels, then rate.
    private func appendOutputConversions(input: StreamFormat) throws -> [(name: String, unit: any AudioUnit)] {
        var all = units.map { (name: $0.label ?? $0.name, unit: $0.unit) }
        if let channels = options.outFormat?.channels {
            all.append((Self.outFormatLabel, try ConvertUnit(format: nil, channels: channels, map: nil)))
        }
        if let rate = options.outFormat?.rate {
            all.append((Self.outFormatRateLabel, ResampleUnit(rate: rate, quality: 4)))
        }
        return all
    }

    /// Runs the whole stream from `source` to `sink`.
    public func run(source: any ByteSource, sink: any ByteSink) throws -> RunReport {
        try run(source: source, openSink: { sink })
    }

    /// Runs the whole stream from `source`, opening the output with `openSink` only once the
    /// header has been read and the chain prepared, so that a usage or header error leaves no
    /// empty output file behind. With `--check`, the sink is never opened.
    public func run(source: any ByteSource, openSink: () throws -> any ByteSink) throws -> RunReport {
        // The control FIFO exists from the start, so a script can open it while input is awaited.
        let control = try options.control.map { try ControlChannel(path: $0, replyPath: options.controlReply) }
        defer { control?.close() }
        let (header, audio) = try HeaderReader.read(source, rawFormat: options.inFormat)
        let fileSize = (source as? FileDescriptorSource)?.regularFileSize
        return try run(header: header, audio: audio, openSink: openSink, control: control,
                       inputBytes: fileSize.map { UInt64(max(0, $0 - header.headerBytes)) },
                       context: StreamContext(inputIsLive: source is FileDescriptorSource && fileSize == nil))
    }

    /// Runs the stream captured from `--capture`'s device. The output container is WAV unless
    /// `-t` says otherwise (a device has no container to keep).
    public func runCapture(openSink: () throws -> any ByteSink) throws -> RunReport {
        guard let name = options.capture else { throw AUPipeError(.software, "runCapture without --capture") }
        let control = try options.control.map { try ControlChannel(path: $0, replyPath: options.controlReply) }
        defer { control?.close() }
        let source = CaptureSource(device: name, format: options.captureFormat, sizes: ALSADevice.Sizes(period: options.period, buffer: options.buffer))
        return try run(header: source.header, audio: source, openSink: openSink, control: control, inputBytes: nil,
                       context: StreamContext(inputIsLive: true))
    }

    /// Runs a stream whose header is already known (read, or made up as `aupipe gen` does):
    /// `audio` yields the samples that follow it.
    public func run(header: StreamHeader, audio: any ByteSource, openSink: () throws -> any ByteSink) throws -> RunReport {
        try run(header: header, audio: audio, openSink: openSink, control: nil, inputBytes: header.dataBytes,
                context: StreamContext(inputIsLive: false))
    }

    func run(header: StreamHeader, audio: any ByteSource, openSink: () throws -> any ByteSink,
             control: ControlChannel?, inputBytes: UInt64?, context: StreamContext) throws -> RunReport {
        let inFormat = try header.format.validated(source: "\(audio.name): \(header.container.rawValue.uppercased()) header")
        let blockFrames = max(1, options.block?.frames(atRate: inFormat.sampleRate) ?? inFormat.sampleRate / 100)
        guard blockFrames <= 1 << 20 else {
            throw AUPipeError.usage("--block is \(blockFrames) frames; at most 1048576 allowed")
        }
        // A last `convert format=` whose encoding the output gets leaves the rounding to the encoder.
        if let last = units.last?.unit as? ConvertUnit, let format = last.format, options.outFormat?.channels == nil,
           options.outFormat?.rate == nil, (options.outFormat?.token ?? format) == format {
            last.formatIsOutputs = true
        }
        // Under live control no unit is skipped: a gain at 0 dB may be turned down later.
        let chain = try Chain(units: try appendOutputConversions(input: inFormat), input: inFormat, maxFrames: blockFrames,
                              measurePeaks: options.stats != .off, allowBypass: control == nil, context: context)
        let explicit = options.outFormat?.token ?? (chainSetsEncoding ? chain.outputFormat.encoding : nil)
        let capture = audio as? CaptureSource
        let plan = try OutputPlan(input: header, chainOutput: chain.outputFormat, container: options.container ?? (capture != nil ? .wav : nil),
                                  explicitEncoding: explicit)
        var report = RunReport(input: header, output: plan)
        if options.check {
            report.stages = chain.stats
            return report
        }
        let progress = options.progress.flatMap { force in
            force || isatty(2) != 0 ? ProgressMeter(totalBytes: header.dataBytes ?? inputBytes, sampleRate: inFormat.sampleRate) : nil
        }
        let live = control.map { LiveControl(channel: $0, targets: ControlTargets(entries: units)) }
        // The devices open once everything else is known to be right, the output last.
        try capture?.open()
        let sizes = ALSADevice.Sizes(period: options.period, buffer: options.buffer)
        let monitor = try options.monitor.map {
            try ALSADevice(name: $0, option: "--monitor", direction: .playback, format: plan.format, sizes: sizes)
        }
        let played = try options.play.flatMap { name -> PlayedReference? in
            guard let aec = units.lazy.compactMap({ $0.unit as? EchoCancellerUnit }).first(where: \.readsReference) else { return nil }
            let (format, maxFrames) = aec.playbackFormat
            let device = try ALSADevice(name: name, option: "--play", direction: .playback, format: format, sizes: sizes)
            let played = PlayedReference(device: device, capture: capture?.device, maxFrames: maxFrames)
            aec.attach(played)
            return played
        }
        // At least one frame; at most what 64 bits of bytes can count.
        let limit = options.duration.map { UInt64(min(max(1, $0.frames(atRate: inFormat.sampleRate)), Int(Int64.max) / inFormat.bytesPerFrame)) * UInt64(inFormat.bytesPerFrame) }
        try StreamLoop(chain: chain, plan: plan, header: header, source: audio, sink: try openSink(),
                       live: live, progress: progress, monitor: monitor, limit: limit).run(into: &report)
        monitor?.drain()
        played?.finish()
        report.stages = chain.stats
        if let device = capture?.device { report.devices.append(DeviceStats(role: "capture", device: device)) }
        if let monitor { report.devices.append(DeviceStats(role: "monitor", device: monitor)) }
        if let played { report.devices.append(DeviceStats(role: "play", device: played.device, note: played.note)) }
        return report
    }
}

/// The control channel of a run and the units it reaches.
struct LiveControl {
    let channel: ControlChannel
    let targets: ControlTargets

    /// Runs the commands that arrived since the last block; nothing to do (the usual case)
    /// costs a try-lock and no allocation.
    func service() {
        for line in channel.takeLines() {
            let reply = targets.execute(line)
            if !reply.isEmpty { channel.reply(reply) }
        }
    }
}

/// The block loop of a run, with every buffer it uses allocated once up front.
struct StreamLoop {
    let chain: Chain
    let plan: OutputPlan
    let header: StreamHeader
    let source: any ByteSource
    let sink: any ByteSink
    /// The control FIFO and what it can reach, under `--control`.
    let live: LiveControl?
    let progress: ProgressMeter?
    /// `--monitor`: every block of output is played here too.
    var monitor: ALSADevice? = nil
    /// `--duration`: the most input bytes to read (nil: to the end).
    var limit: UInt64? = nil

    /// Bytes one read asks for (a pipe's default capacity): what is available up to this is
    /// processed together and written with one write.
    static let ioSize = 65536

    func run(into report: inout RunReport) throws {
        let inFormat = header.format
        let inFrameBytes = inFormat.bytesPerFrame
        let outFrameBytes = plan.format.bytesPerFrame
        let decoder = SampleCodec(inFormat.encoding)
        let encoder = SampleCodec(plan.format.encoding)
        // When no unit touches the samples, bytes are copied, or only byte-swapped, or integers
        // only change sign convention (signed and unsigned of one width: the top bit flips, and
        // the bytes swap if the order changes too): exact for every encoding, 32-bit integers
        // and f64 included, which the float path is not.
        let inEncoding = inFormat.encoding, outEncoding = plan.format.encoding
        let passthrough = chain.isEmpty && outEncoding == inEncoding
        let swapOnly = chain.isEmpty && !passthrough && outEncoding.kind == inEncoding.kind && outEncoding.bits == inEncoding.bits
        let signFlip = chain.isEmpty && inEncoding.isInteger && outEncoding.isInteger && outEncoding.kind != inEncoding.kind
            && outEncoding.bits == inEncoding.bits

        // One read takes whatever is available, up to 64 KiB or one block; it is processed in
        // pieces of at most one block and written with one write.
        let readFrames = max(chain.maxFrames, Self.ioSize / inFrameBytes)
        let pieces = (readFrames + chain.maxFrames - 1) / chain.maxFrames
        let writer = OutputWriter(sink: sink, header: plan.header(dataBytes: nil))
        // Both buffers keep room for the header in front of the audio, so the header goes out
        // with the first audio in one write.
        let room = writer.headerRoom
        let readStorage = UnsafeMutableRawPointer.allocate(byteCount: room + readFrames * inFrameBytes, alignment: 16)
        let readBuffer = UnsafeMutableRawBufferPointer(start: readStorage + room, count: readFrames * inFrameBytes)
        let floats = UnsafeMutablePointer<Float>.allocate(capacity: chain.maxFrames * inFormat.channels)
        // Room for one read's worth of output, and at least one piece's most: when the next piece
        // might not fit (a large rate increase), what is there is written first.
        let pieceBytes = chain.maxOutputFrames * outFrameBytes
        let outCapacity = passthrough ? 0 : (swapOnly || signFlip ? readFrames * outFrameBytes : max(pieceBytes, min(pieces * pieceBytes, 4 * Self.ioSize)))
        let outStorage = UnsafeMutableRawPointer.allocate(byteCount: room + max(outCapacity, 1), alignment: 16)
        let outBuffer = outStorage + room
        defer { readStorage.deallocate(); floats.deallocate(); outStorage.deallocate() }

        var carried = 0                       // bytes of an incomplete frame kept from the last read
        var readBytesTotal = 0
        var remaining = header.dataBytes      // bytes the header still promises, or nil
        var toLimit = limit                   // bytes --duration still allows, or nil
        var framesOut: Int64 = 0
        var clipped = 0

        func encode(_ samples: UnsafePointer<Float>, _ frames: Int, at offset: Int) -> Int {
            clipped += encoder.encode(samples, count: frames * plan.format.channels, into: outBuffer + offset)
            return frames * outFrameBytes
        }

        /// Writes audio to the output, and to the monitor device.
        func emit(_ data: UnsafeMutableRawPointer, _ count: Int) throws {
            try writer.write(data, count: count)
            try monitor?.write(data, frames: count / outFrameBytes)
        }

        while remaining != 0 && toLimit != 0 {
            var want = readBuffer.count - carried
            if passthrough, writer.headerPending, room > 0 {
                // The first copy ends where header + audio fill 64 KiB, so that later 64 KiB
                // writes start on page boundaries (unaligned writes cost the kernel extra copies).
                want = max(inFrameBytes, (Self.ioSize - room) / inFrameBytes * inFrameBytes) - carried
            }
            if let r = remaining { want = Int(min(UInt64(want), r)) }
            if let l = toLimit { want = Int(min(UInt64(want), l)) }
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: readBuffer[carried..<(carried + want)]))
            if n == 0 { break }
            if remaining != nil { remaining! -= UInt64(n) }
            if toLimit != nil { toLimit! -= UInt64(n) }
            readBytesTotal += n
            let available = carried + n
            let frames = available / inFrameBytes
            report.framesIn += Int64(frames)
            if passthrough {
                try emit(readBuffer.baseAddress!, frames * inFrameBytes)
                framesOut += Int64(frames)
            } else if swapOnly || signFlip {
                // The sign flips in place (the carried partial frame lies beyond), then the bytes swap.
                var data = readBuffer.baseAddress!
                let samples = frames * inFormat.channels, width = inEncoding.bytesPerSample
                if signFlip { SampleCodec.flipSignBit(data, count: samples, width: width, bigEndian: inEncoding.isBigEndian) }
                if outEncoding.isBigEndian != inEncoding.isBigEndian {
                    SampleCodec.swapByteOrder(data, into: outBuffer, count: samples, width: width)
                    data = outBuffer
                }
                try emit(data, frames * outFrameBytes)
                framesOut += Int64(frames)
            } else {
                var done = 0, outBytes = 0
                while done < frames {
                    live?.service()
                    if outBytes + pieceBytes > outCapacity {
                        try emit(outBuffer, outBytes)
                        outBytes = 0
                    }
                    let count = min(chain.maxFrames, frames - done)
                    decoder.decode(readBuffer.baseAddress! + done * inFrameBytes, count: count * inFormat.channels, into: floats)
                    let (result, produced) = try chain.process(floats, frames: count)
                    outBytes += encode(result, produced, at: outBytes)
                    framesOut += Int64(produced)
                    done += count
                }
                if outBytes > 0 { try emit(outBuffer, outBytes) }
            }
            progress?.update(bytes: UInt64(readBytesTotal), frames: report.framesIn)
            carried = available - frames * inFrameBytes
            if carried > 0 {
                readBuffer.baseAddress!.copyMemory(from: readBuffer.baseAddress! + frames * inFrameBytes, byteCount: carried)
            }
        }

        if !passthrough {
            try chain.drain { samples, frames in
                let bytes = encode(samples, frames, at: 0)
                framesOut += Int64(frames)
                try emit(outBuffer, bytes)
            }
        }

        try writer.finish()
        progress?.finish(bytes: UInt64(readBytesTotal), frames: report.framesIn)
        let dataBytes = UInt64(framesOut) * UInt64(outFrameBytes)
        let trailer = plan.trailer(dataBytes: dataBytes)
        if plan.container != .raw, try sink.rewriteHeader(plan.header(dataBytes: dataBytes)) {
            try sink.write(trailer)
            report.sizesPatched = true
        }
        report.framesOut = framesOut
        report.encoderClipped = clipped

        // After SIGINT/SIGTERM the stream did not end: we stopped reading it, possibly mid-frame.
        let stopped = StopSignal.received || toLimit == 0
        if carried > 0, !stopped, remaining == 0, let declared = header.dataBytes {
            report.dataError = .data("\(source.name): the \(header.container.rawValue.uppercased()) header declares \(declared) bytes of audio, not a whole number of \(inFrameBytes)-byte frames of \(inFormat.spec); the last \(carried) bytes were dropped")
        } else if carried > 0, !stopped {
            report.dataError = .data("\(source.name): the stream ended mid-frame; \(carried) trailing bytes dropped (a frame is \(inFrameBytes) bytes of \(inFormat.spec))")
        } else if let r = remaining, r > 0, !stopped {
            report.dataError = .data("\(source.name): the stream ended \(r) bytes short of the \(header.dataBytes!) bytes its \(header.container.rawValue.uppercased()) header declares; it is truncated")
        }
    }
}
