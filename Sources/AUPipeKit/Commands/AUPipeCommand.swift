#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// The aupipe program: parses the command line, runs what it asks, reports errors as one
/// `aupipe: …` line on stderr, and returns the exit status.
public enum AUPipeCommand {
    /// Runs one command line. `registry` is where unit names are looked up (aupipe's own units
    /// and the plugins found at run time; tests add units of their own).
    public static func main(_ args: [String], console: any Console = StandardConsole(), registry: UnitRegistry = .standard) -> Int32 {
        // Before anything is opened: closed standard descriptors are held, so that nothing else
        // takes their numbers (the stop pipe on 0 would be polled as the input).
        aupipe_guard_standard_descriptors()
        // Before anything is written: EPIPE instead of death by SIGPIPE, and a clean stop on SIGINT/SIGTERM.
        aupipe_install_signal_handlers()
        do {
            let status = try execute(try CommandLineParser.parse(args), console: console, registry: registry)
            // What went to stdout must have arrived (`aupipe units > /dev/full` fails, 74). A
            // reader that went away early ends a command quietly, but never turns its verdict
            // into success: `aupipe compare a b | true` still exits 1 when they differ.
            do { try console.finish() } catch is OutputClosed { return status.rawValue }
            return status.rawValue
        } catch {
            return report(error, console: console).rawValue
        }
    }

    /// Says what went wrong in one `aupipe: …` line; the exit status it calls for.
    package static func report(_ error: any Error, console: any Console) -> ExitStatus {
        switch error {
        case let e as AUPipeError:
            console.err("aupipe: \(e.message)")
            return e.status
        case is OutputClosed:
            return .ok
        default:
            console.err("aupipe: internal error: \(error)")
            return .software
        }
    }

    /// Runs `body`, which writes the main output through `output`, and settles the output by
    /// the exit status the run ends with (`OutputFile.settle`): an error is reported here, before
    /// the line that names the kept `.partial` file.
    package static func writing(_ output: OutputFile, console: any Console, _ body: () throws -> ExitStatus) -> ExitStatus {
        let status: ExitStatus
        do { status = try body() } catch { status = report(error, console: console) }
        return output.settle(status, console: console)
    }

    package static func execute(_ invocation: Invocation, console: any Console, registry: UnitRegistry) throws -> ExitStatus {
        switch invocation {
        case .version:
            console.out(HelpText.version)
        case .versionReport:
            VersionCommand.run(console: console)
        case .help(nil):
            console.out(HelpText.usage)
        case .help("gen"):
            console.out(HelpText.gen)
        case .help("compare"):
            console.out(HelpText.compare)
        case .help(let name?):
            console.out(HelpText.unit(try registry.descriptor(named: name)))
        case .pluginHelp(let name, let plugin):
            let descriptor = try registry.descriptor(named: name)
            guard descriptor.isSpecializing else {
                throw AUPipeError.usage("help takes one unit name, e.g. 'aupipe help \(descriptor.name)'; only lv2 and ladspa take a plugin after it")
            }
            console.out(HelpText.unit(try descriptor.specialized(for: [plugin]).descriptor))
        case .plugins(let standard, let word):
            try PluginsCommand.run(standard: standard, word: word, registry: registry, console: console)
        case .units:
            console.out(HelpText.units(registry))
        case .manual:
            console.out(String(ManualPage.roff(registry: registry).dropLast()))
        case .completions(let shell):
            console.out(try CompletionModel(registry: registry).script(for: shell))
        case .completionWords(let unit, let plugin):
            for word in try CompletionModel.pluginWords(unit: unit, plugin: plugin, registry: registry) { console.out(word) }
        case .info(let path, let inFormat):
            try InfoCommand.run(path: path, inFormat: inFormat.map { try FormatSpec.parse($0, option: "--in-format") }, console: console)
        case .demo(let output):
            // `aupipe demo > x.wav` means stdout; at a terminal, a file to play.
            return try DemoCommand.run(output: output ?? (isatty(1) != 0 ? "demo.wav" : "-"), console: console)
        case .gen(let signal, let arguments, let optionsText):
            return try GenCommand.run(signal: signal, arguments: arguments, options: try optionsText.parsed(), console: console)
        case .compare(let options):
            return try CompareCommand.run(options, console: console)
        case .run(let chain, let optionsText):
            if chain.isEmpty, optionsText == PipelineOptionsText(), isatty(0) != 0 {
                // A bare `aupipe` at a terminal would wait for audio that is not coming.
                console.out(HelpText.usage)
                return .ok
            }
            return try runChain(chain, options: try optionsText.parsed(), console: console, registry: registry)
        }
        return .ok
    }

    /// Runs a chain between the options' input and output.
    public static func runChain(_ chain: [[String]], options: PipelineOptions, console: any Console,
                                registry: UnitRegistry = .standard) throws -> ExitStatus {
        let pipeline = try Pipeline(chain: chain, options: options, registry: registry)
        if options.capture != nil { return try runCapture(pipeline, console: console) }
        let source = try FileDescriptorSource.open(options.input)
        if options.output != "-", source.isSameFile(as: options.output) {
            throw AUPipeError.usage("-o \(options.output) is the input file; aupipe streams, so write to another file and rename it")
        }
        if options.output == "-", !options.check, source.isSameFile(as: "/dev/stdout") {
            throw AUPipeError.usage("stdout is the input file (> or >> onto the input); write to another file and rename it")
        }
        try refuseTerminalOutput(options)
        if options.check {
            return try RunCheck.run(pipeline, source: source, console: console,
                                    rebuild: { try Pipeline(chain: chain, options: options, registry: registry) })
        }
        let output = OutputFile(options.output)
        return writing(output, console: console) {
            let report: RunReport
            do {
                report = try pipeline.run(source: source, openSink: output.open)
            } catch let e as AUPipeError where e.status == .dataError && StopSignal.received {
                // Stopped (Ctrl-C) before the header was complete: the user's choice, not bad data.
                return stopStatus(options) ?? .ok
            }
            return finish(report, options: options, console: console)
        }
    }

    /// `--capture`: the chain runs on what the device captures, until SIGINT/SIGTERM or `--duration`.
    package static func runCapture(_ pipeline: Pipeline, console: any Console) throws -> ExitStatus {
        let options = pipeline.options
        try refuseTerminalOutput(options)
        if options.check {
            try RunCheck.checkPaths(pipeline)
            let report = try pipeline.runCapture(openSink: { throw AUPipeError(.software, "--check opened the output") })
            console.out("ok: --capture \(options.capture!) \(report.input.format.spec) -> \(report.output.container.rawValue) \(report.output.format.spec) (the device was not opened)")
            return .ok
        }
        let output = OutputFile(options.output)
        return writing(output, console: console) {
            finish(try pipeline.runCapture(openSink: output.open), options: options, console: console)
        }
    }

    /// Refuses to write binary audio to a terminal, as gzip does, unless `-o -` was given
    /// explicitly (or nothing but text is written: `--check`).
    package static func refuseTerminalOutput(_ options: PipelineOptions) throws {
        guard options.output == "-", !options.outputGiven, !options.check, isatty(1) != 0 else { return }
        throw AUPipeError.usage("refusing to write binary audio to a terminal; redirect it (> out.wav), pipe it, or use -o - to force")
    }

    /// Prints the figures and the data error of a finished run; its exit status.
    package static func finish(_ report: RunReport, options: PipelineOptions, console: any Console) -> ExitStatus {
        let error = report.dataError
        // A stop by SIGINT/SIGTERM is 130/143 where the run is not real time (`stopStatus`).
        let outcome = StatsPrinter.Outcome(status: error?.status ?? stopStatus(options) ?? .ok, error: error?.message)
        // The warning before the figures, so that --stats=json stays the last line but an error's.
        if report.outputNonFinite.count > 0 {
            console.err("aupipe: warning: NaN or infinite values reached the \(report.output.format.encoding.token) output: \(report.outputNonFinite.text) (a float output keeps them as they are; find the unit or input that made them, or write an integer encoding, which writes NaN as 0 and clips infinities)")
        }
        if options.stats != .off {
            StatsPrinter.print(report, mode: options.stats, paths: (options.capture == nil ? options.input : nil, options.output), outcome: outcome, console: console)
        }
        if let error { console.err("aupipe: \(error.message)") }
        return outcome.status
    }

    /// After SIGINT/SIGTERM (the output drained and its header patched): 130 or 143 for a run
    /// that is not real time, as shells expect; nil for a real-time run (a capture device or
    /// `--live`), whose normal end it is, and when no signal came.
    package static func stopStatus(_ options: PipelineOptions) -> ExitStatus? {
        Pipeline.realTime(options).runIsRealTime ? nil : StopSignal.interruptedStatus
    }
}
