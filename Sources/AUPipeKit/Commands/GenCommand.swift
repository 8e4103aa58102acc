/// `aupipe gen SIGNAL [ARG]...`: writes a deterministic test signal.
///
/// The signal is rendered in 32-bit float and goes through the same output path as a chain
/// (encoder, container, header patching), so `--out-format` and `-t` work as they do there.
/// Defaults: `s16le:48000:1` in WAV.
public enum GenCommand {
    public static let defaultFormat = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1)

    public static func run(signal: String, arguments: [String], options: PipelineOptions, console: any Console) throws -> ExitStatus {
        let output = OutputFile(options.output)
        return AUPipeCommand.writing(output, console: console) {
            let report = try generate(signal: signal, arguments: arguments, options: options, openSink: {
                try AUPipeCommand.refuseTerminalOutput(options)
                return try output.open()
            })
            if options.stats != .off { StatsPrinter.print(report, mode: options.stats, paths: (nil, options.output), console: console) }
            return .ok
        }
    }

    /// Renders the signal and writes it to the sink `openSink` opens (after every argument has
    /// been checked, so a mistake leaves no file).
    public static func generate(signal: String, arguments: [String], options: PipelineOptions,
                                openSink: () throws -> any ByteSink) throws -> RunReport {
        let descriptor = try SignalRegistry.descriptor(named: signal)
        let values = try descriptor.parseArguments(arguments)
        let rate = options.outFormat?.rate ?? defaultFormat.sampleRate
        let channels = options.outFormat?.channels ?? defaultFormat.channels
        let frames = Int64(values[SignalDescriptor.duration]?.frames(atRate: rate) ?? descriptor.naturalFrames(values, rate))
        guard frames <= 86_400 * Int64(rate) else {
            throw AUPipeError.usage("gen \(signal): duration= is \(frames) frames, more than 24 hours at \(rate) Hz")
        }
        let generator = try descriptor.make(values, rate, frames)

        let source = StreamFormat(encoding: .f32le, sampleRate: rate, channels: channels)
        let header = StreamHeader(container: options.container ?? .wav, format: source,
                                  dataBytes: UInt64(frames) * UInt64(source.bytesPerFrame), headerBytes: 0)
        var runOptions = options
        // An encoding the user gave must fit the container; the default moves to the nearest
        // one the container holds (s16le into AU is s16be), as a chain's inherited encoding does.
        runOptions.outFormat = FormatSpec.Parts(token: options.outFormat?.token ?? header.container.nearestEncoding(to: defaultFormat.encoding))
        runOptions.container = header.container
        return try Pipeline(chain: [], options: runOptions).run(
            header: header, audio: GeneratedSource(generator, channels: channels, frames: frames, name: "gen \(signal)"),
            openSink: openSink)
    }
}
