#if canImport(Glibc)
import Glibc
#endif

/// `--check`: validates a run without running it. Every path the run would open is checked —
/// `-i` (opened by the caller), the side inputs (`mix` buses, `aec ref=`) exist and can be read,
/// `-o` and the side outputs (`tee`, `plot=`, `meter to=`) and the `--control` FIFO can be
/// created — without creating anything; then the chain is prepared for the input's format and
/// the formats are printed, without reading audio.
///
/// The format comes from the input's header, or from `--in-format` when there is no input to
/// read (stdin a terminal, `/dev/null`, empty). Without either, the chain is prepared for 48 kHz
/// stereo, then mono: if it fits one, the line says so; if it fits neither, what it needs is
/// named in one line (66: the input is what is missing).
package enum RunCheck {
    /// The formats a chain is tried with when there is no input to read, in order.
    package static let probes = [StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2),
                         StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1)]

    /// Checks the run of `pipeline` reading `source`; `rebuild` makes a fresh pipeline of the
    /// same chain (a probe prepares its units once). Prints the `ok:` line; throws what is wrong.
    package static func run(_ pipeline: Pipeline, source: FileDescriptorSource, console: any Console,
                    rebuild: () throws -> Pipeline) throws -> ExitStatus {
        let options = pipeline.options
        try checkPaths(pipeline)
        let why: String
        if let reason = noInputToRead(options) {
            why = reason
        } else {
            do {
                let report = try pipeline.run(source: source, sink: MemorySink())
                console.out("ok: \(report.input.container.rawValue) \(report.input.format.spec) -> \(report.output.container.rawValue) \(report.output.format.spec)" +
                            (report.dither.map { ", dither \($0)" } ?? ""))
                return .ok
            } catch let e as AUPipeError where e.cause == .emptyInput {
                why = "stdin is empty"
            }
        }
        if let format = options.inFormat {
            let report = try prepare(pipeline, for: format)
            console.out("ok: raw \(format.spec) -> \(report.output.container.rawValue) \(report.output.format.spec) (no input read: \(why); checked for --in-format)")
            return .ok
        }
        var firstError: AUPipeError?
        for (i, format) in probes.enumerated() {
            do {
                _ = try prepare(i == 0 ? pipeline : try rebuild(), for: format)
                console.out("ok: the chain is valid (no input read: \(why); checked for \(format.spec); give -i FILE or --in-format SPEC to check it for your stream)")
                return .ok
            } catch let e as AUPipeError where e.status != .cannotCreate && e.status != .noInput {
                firstError = firstError ?? e
            }
        }
        throw AUPipeError.noInput("--check: the chain needs the input's format (\(why)); for \(probes[0].spec): \(firstError?.message ?? "refused"); give -i FILE, pipe the input, or --in-format SPEC")
    }

    /// Why there is no header to read without waiting or consuming: stdin is a terminal, the
    /// null device or an empty regular file; nil when there is an input to read.
    package static func noInputToRead(_ options: PipelineOptions) -> String? {
        guard options.input == "-" else { return nil }
        if isatty(0) != 0 { return "stdin is a terminal" }
        var st = stat(), null = stat()
        guard fstat(0, &st) == 0 else { return nil }
        if st.st_mode & S_IFMT == S_IFCHR, stat("/dev/null", &null) == 0, st.st_rdev == null.st_rdev { return "stdin is /dev/null" }
        if st.st_mode & S_IFMT == S_IFREG, st.st_size <= lseek(0, 0, SEEK_CUR) { return "stdin is empty" }
        return nil
    }

    /// Prepares the chain for a raw stream of `format` (no audio).
    private static func prepare(_ pipeline: Pipeline, for format: StreamFormat) throws -> RunReport {
        try pipeline.run(header: StreamHeader(container: .raw, format: format, dataBytes: nil, headerBytes: 0),
                         audio: MemorySource([], name: "stdin"), openSink: { throw AUPipeError(.software, "--check opened the output") })
    }

    /// Every path but `-i` (which the caller opened): side inputs can be read, outputs created.
    package static func checkPaths(_ pipeline: Pipeline) throws {
        let options = pipeline.options
        for (role, path) in pipeline.sideInputs where access(cPath(path), R_OK) != 0 {
            throw AUPipeError.noInput("cannot open \(role) \(path): \(String(cString: strerror(errno)))")
        }
        if options.output != "-" { try checkCreatable(options.output, what: "output") }
        for (role, path) in pipeline.sideOutputs { try checkCreatable(path, what: role) }
        if let control = options.control { try checkCreatable(control, what: "--control") }
        if let reply = options.controlReply { try checkCreatable(reply, what: "--control-reply") }
    }

    /// Whether `path` could be opened for writing, or created: the error (73) a create would give.
    package static func checkCreatable(_ path: String, what: String) throws {
        func refuse(_ error: Int32) -> AUPipeError {
            .cannotCreate("cannot create \(what) \(path): \(String(cString: strerror(error)))")
        }
        var st = stat()
        if stat(cPath(path), &st) == 0 {
            if st.st_mode & S_IFMT == S_IFDIR { throw refuse(EISDIR) }
            if access(cPath(path), W_OK) != 0 { throw refuse(errno) }
            return
        }
        guard errno == ENOENT else { throw refuse(errno) }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard stat(cPath(directory), &st) == 0 else { throw refuse(errno) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw refuse(ENOTDIR) }
        if access(cPath(directory), W_OK | X_OK) != 0 { throw refuse(errno) }
    }
}
