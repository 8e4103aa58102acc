import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// One processing run: builds the units from the command line, reads the input's header,
/// prepares the chain for it, decides the output, opens the devices and the output, and hands
/// the stream to `StreamLoop`.
public final class Pipeline {
    private let units: [ControlTargets.Entry]
    public let options: PipelineOptions

    /// Builds every unit from its command-line words before any input is read, so that usage
    /// errors come first. Each element of `chain` is a unit name and its arguments; names are
    /// looked up in `registry`.
    public init(chain: [[String]], options: PipelineOptions, registry: UnitRegistry = .standard) throws {
        // Units open their side streams through the I/O layer, whatever registry made them.
        StreamServices.install()
        self.options = options
        var list: [ControlTargets.Entry] = []
        for words in chain {
            guard let name = words.first else { throw AUPipeError.usage("empty unit in the chain: two ':' in a row, or a ':' at an end") }
            let descriptor = try registry.descriptor(named: name)
            // name=LABEL is every unit's: it labels the unit for --control.
            var arguments = Array(words.dropFirst())
            var label: String?
            if let i = arguments.firstIndex(where: { $0.lowercased().hasPrefix("name=") }) {
                label = String(arguments.remove(at: i).dropFirst(5))
                try Self.checkLabel(label!, unit: descriptor.name, taken: list.compactMap(\.label))
            }
            // A plugin host's parameters are its plugin's ports: --control reaches them through
            // the descriptor of this instance.
            let (instance, rest) = try descriptor.specialized(for: arguments)
            list.append(ControlTargets.Entry(name: descriptor.name, label: label, descriptor: instance, unit: try instance.instantiate(rest)))
        }
        units = list
        try Self.checkOutputSparesSideInputs(list.map(\.unit), options: options)
        try Self.checkSideOutputsSpareStreams(list.map(\.unit), options: options)
        if let play = options.play, RunDevices.referencePlayers(list.map(\.unit)).count != 1 {
            throw AUPipeError.usage("--play \(play) plays aec's far end: the chain needs one aec with ref=PATH (the far end to play)")
        }
    }

    /// The files the units read beside the stream (`mix` buses, `aec`'s `ref=`), with their roles.
    public var sideInputs: [(role: String, path: String)] {
        units.flatMap { ($0.unit as? any SideInputReader)?.sideInputs ?? [] }
    }

    /// The files the units write beside the stream (`tee`, `plot=`, `meter to=`), with their roles.
    public var sideOutputs: [(role: String, path: String)] {
        units.flatMap { ($0.unit as? any SideOutputWriter)?.sideOutputs ?? [] }
    }

    /// Runs one `--control` command line (`set gain.db -6`, `get 2.db`, `list`) on this
    /// pipeline's units and returns the reply the control channel would write (`ok ...` or
    /// `error: ...`), without a stream running. Used by the fuzz targets under `Fuzz/`.
    public func control(_ line: String) -> String {
        ControlTargets(entries: units).execute(line)
    }

    /// Writing the output onto a file a unit reads beside the stream (`-o bed.wav` with
    /// `mix input=bed.wav`) would truncate it while it is read: refused, as `-o` onto `-i` is.
    package static func checkOutputSparesSideInputs(_ units: [any AudioUnit], options: PipelineOptions) throws {
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

    /// A side output (`tee PATH`) written onto the input, the output or a side input would
    /// truncate or feed back what is read: refused (64) before anything is opened. Paths are
    /// the same when they name the same regular file or FIFO (through links), or are the same
    /// text; two side outputs onto one path are refused too. stdout (`tee -`, `tee /dev/stdout`)
    /// is refused only while it is the main output (no `-o FILE`).
    package static func checkSideOutputsSpareStreams(_ units: [any AudioUnit], options: PipelineOptions) throws {
        var streams: [(what: String, path: String)] = []
        if options.capture == nil {
            streams.append(options.input == "-" ? ("stdin, the input", "/dev/stdin") : ("-i \(options.input), the input", options.input))
        }
        streams.append(options.output == "-" ? ("stdout, the output", "/dev/stdout") : ("-o \(options.output), the output", options.output))
        if let control = options.control { streams.append(("--control \(control)", control)) }
        if let reply = options.controlReply { streams.append(("--control-reply \(reply)", reply)) }
        for case let reader as any SideInputReader in units {
            for (role, path) in reader.sideInputs { streams.append(("\(path), \(role)", path)) }
        }
        for case let writer as any SideOutputWriter in units {
            for (role, path) in writer.sideOutputs {
                let target = SideOutputFile.stdoutNames.contains(path) ? "/dev/stdout" : path
                if options.output == "-", target == "/dev/stdout" {
                    throw AUPipeError.usage("\(role) \(path): stdout is the main output; write the main output with -o FILE, or the copy to a file, a FIFO or >(command)")
                }
                if let hit = streams.first(where: { sameDestination($0.path, target) }) {
                    throw AUPipeError.usage("\(role) \(path): it is \(hit.what); write the copy to another file, a FIFO or >(command)")
                }
                streams.append(("\(path), \(role)'s output", target))
            }
        }
    }

    /// Whether two paths name the same regular file or FIFO (device and inode), or are the same
    /// text. Character devices (/dev/null) and anonymous pipes that are only known by their
    /// `/dev/fd/N` name are compared by identity only when they are files or FIFOs.
    package static func sameDestination(_ a: String, _ b: String) -> Bool {
        if a == b && a != "/dev/null" { return true }
        var sa = stat(), sb = stat()
        guard stat(cPath(a), &sa) == 0, stat(cPath(b), &sb) == 0 else { return false }
        let type = sa.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO, (sb.st_mode & S_IFMT) == type else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }

    package static func checkLabel(_ label: String, unit: String, taken: [String]) throws {
        guard let first = label.first, first.isLetter, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw AUPipeError.usage("\(unit): name=\(label) must start with a letter and hold only letters, digits, _ and -")
        }
        guard !taken.contains(label) else { throw AUPipeError.usage("\(unit): name=\(label) is already another unit's label") }
    }

    // MARK: entry points

    /// Runs the whole stream from `source` to `sink`.
    public func run(source: any ByteSource, sink: any ByteSink) throws -> RunReport {
        try run(source: source, openSink: { sink })
    }

    /// Runs the whole stream from `source`, opening the output with `openSink` only once the
    /// header has been read and the chain prepared, so that a usage or header error leaves no
    /// empty output file behind. With `--check`, the sink is never opened.
    public func run(source: any ByteSource, openSink: () throws -> any ByteSink) throws -> RunReport {
        // The control FIFO exists from the start, so a script can open it while input is awaited.
        let control = try openControl()
        defer { control?.close() }
        let (input, audio) = try StreamDecoder.open(source, rawFormat: options.inFormat)
        let header = input.header
        let size = source.regularFileSize.map { UInt64(max(0, $0 - header.headerBytes)) }
        return try run(Input(header: header, audio: audio, bytes: size), openSink: openSink, control: control)
    }

    /// Runs the stream captured from `--capture`'s device. The output container is WAV unless
    /// `-t` or `-o`'s extension says otherwise (a device has no container to keep).
    public func runCapture(openSink: () throws -> any ByteSink) throws -> RunReport {
        guard let name = options.capture else { throw AUPipeError(.software, "runCapture without --capture") }
        let control = try openControl()
        defer { control?.close() }
        let source = CaptureSource(device: name, format: options.captureFormat, sizes: ALSADevice.Sizes(period: options.period, buffer: options.buffer),
                                   duration: options.duration)
        return try run(Input(header: source.header, audio: source, bytes: nil, capture: source), openSink: openSink, control: control)
    }

    /// Runs a stream whose header is already known (read, or made up as `aupipe gen` does):
    /// `audio` yields the samples that follow it.
    public func run(header: StreamHeader, audio: any ByteSource, openSink: () throws -> any ByteSink) throws -> RunReport {
        try run(Input(header: header, audio: audio, bytes: header.dataBytes), openSink: openSink, control: nil)
    }

    // MARK: one run

    /// The stream a run reads: its header, the bytes after it, how many there are when known
    /// (for `--progress`), and the capture device they come from.
    package struct Input {
        package let header: StreamHeader
        package let audio: any ByteSource
        package let bytes: UInt64?
        package var capture: CaptureSource? = nil
    }

    /// Whether this run is real time: what it is told (`--live`) and what it opens (a capture
    /// device), never how its input happens to arrive (a pipe is not real time by itself).
    package static func realTime(_ options: PipelineOptions) -> RealTimePolicy {
        RealTimePolicy(runIsRealTime: options.live || options.capture != nil)
    }

    private func openControl() throws -> ControlChannel? {
        try options.control.map { try ControlChannel(path: $0, replyPath: options.controlReply) }
    }

    private func run(_ input: Input, openSink: () throws -> any ByteSink, control: ControlChannel?) throws -> RunReport {
        let header = input.header
        let inFormat = try header.format.validated(source: "\(input.audio.name): \(header.container.rawValue.uppercased()) header")
        let chain = try prepareChain(for: inFormat, layout: ChannelLayout(header: header), controlled: control != nil)
        let plan = try outputPlan(for: header, chain: chain, fromDevice: input.capture != nil)
        var report = RunReport(input: header, output: plan)
        let ditherer = EdgeDither.ditherer(options.dither, precision: chain.outputPrecision, format: plan.format)
        report.dither = ditherer?.kind.name
        if options.check {
            report.stages = chain.stats
            return report
        }
        let progress = options.progress.flatMap { force in
            force || isatty(2) != 0 ? ProgressMeter(totalBytes: header.dataBytes ?? input.bytes, sampleRate: inFormat.sampleRate) : nil
        }
        let live = control.map { LiveControl(channel: $0, targets: ControlTargets(entries: units)) }
        let devices = try RunDevices.open(options, capture: input.capture, outputFormat: plan.format, units: units.map(\.unit))
        try StreamLoop(chain: chain, plan: plan, header: header, source: input.audio, sink: try openSink(),
                       live: live, progress: progress, monitor: devices.monitor, losses: devices.losses,
                       limit: inputLimit(inFormat),
                       dither: ditherer).run(into: &report)
        devices.finish()
        report.stages = chain.stats
        report.devices = devices.stats
        report.deviceGaps = devices.losses.gaps
        return report
    }

    /// The chain's units and the conversions `--out-format` appends, prepared for `inFormat`.
    private func prepareChain(for inFormat: StreamFormat, layout: ChannelLayout, controlled: Bool) throws -> Chain {
        let blockFrames = max(1, options.block?.frames(atRate: inFormat.sampleRate) ?? inFormat.sampleRate / 100)
        guard blockFrames <= 1 << 20 else {
            throw AUPipeError.usage("--block is \(blockFrames) frames; at most 1048576 allowed")
        }
        // A last `convert format=` whose encoding the output gets leaves the rounding to the encoder.
        if let last = units.last?.unit as? any EncodingChooser, let format = last.chosenEncoding,
           options.outFormat?.channels == nil, options.outFormat?.rate == nil, (options.outFormat?.token ?? format) == format {
            last.leaveRoundingToOutput()
        }
        let stages = units.map { ChainStage($0.label ?? $0.name, $0.unit) }
        // Under live control no unit is skipped: a gain at 0 dB may be turned down later.
        return try Chain(stages: stages, then: outputConversions, input: inFormat, maxFrames: blockFrames,
                         measurePeaks: options.stats != .off, allowBypass: !controlled, realTime: Self.realTime(options), layout: layout,
                         dither: options.dither)
    }

    /// The conversions `--out-format` asks for beyond the encoding (channels, then rate), from
    /// the format the chain's units produce.
    private func outputConversions(from format: StreamFormat) throws -> [ChainStage] {
        guard let out = options.outFormat else { return [] }
        return try FormatConversion(from: format, channels: out.channels, sampleRate: out.rate, for: .option("--out-format")).stages()
    }

    /// The output's container and encoding: `--out-format`'s encoding, or one a unit chose, is
    /// explicit; a device's stream is written as WAV unless told otherwise.
    private func outputPlan(for header: StreamHeader, chain: Chain, fromDevice: Bool) throws -> OutputPlan {
        let chainChoosesEncoding = units.contains { ($0.unit as? any EncodingChooser)?.chosenEncoding != nil }
        let explicit = options.outFormat?.token ?? (chainChoosesEncoding ? chain.outputFormat.encoding : nil)
        return try OutputPlan(input: header, chainOutput: chain.outputFormat, container: options.container ?? (fromDevice ? .wav : nil),
                              explicitEncoding: explicit)
    }

    /// `--duration` as input bytes: at least one frame, at most what 64 bits of bytes can count.
    private func inputLimit(_ format: StreamFormat) -> UInt64? {
        options.duration.map { UInt64(min(max(1, $0.frames(atRate: format.sampleRate)), Int(Int64.max) / format.bytesPerFrame)) * UInt64(format.bytesPerFrame) }
    }
}
