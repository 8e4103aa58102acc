import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// The main output of a run (`-o PATH`, or stdout), and what becomes of it when the run ends.
///
/// A regular file — or a name that does not exist yet — is written under a temporary name
/// beside it (`.NAME.aupipe-PID.tmp`, in the same directory, so that the rename stays on one
/// file system) and only `settle` decides its fate from the run's exit status: 0 renames it
/// onto the target, so a reader (or `make`) never sees a half-written file under the real name;
/// any other status leaves the target as it was and keeps what was written as `NAME.partial`,
/// named on stderr. A symbolic link to a regular file is followed: the file it points to is
/// replaced, the link stays.
///
/// Anything else — stdout (`-`), a FIFO, a character device (`/dev/null`, `/dev/stdout` on a
/// terminal or pipe) — is written directly, as before: there is nothing to rename.
///
/// The file gets the mode a plain create would give it: an existing target's mode (and, where
/// allowed, its owner), else 0644 less the umask. When the directory cannot take the temporary
/// file (not writable, while the target itself is), the target is written in place.
public final class OutputFile {
    /// The path as given (`-` for stdout).
    public let path: String
    /// Where `open` put the stream, once it was called.
    private var sink: FileDescriptorSink?
    /// The temporary file and the file it replaces, when the output is staged.
    private var staged: (temporary: String, target: String)?

    public init(_ path: String) { self.path = path }

    deinit { closeDescriptor() }

    /// Opens the output (creating the temporary file when the output is staged). Called once,
    /// when the first byte is about to be written: a run that fails before that leaves no file.
    public func open() throws -> FileDescriptorSink {
        if let sink { return sink }
        guard path != "-", let target = Self.stagingTarget(path) else {
            let direct = try FileDescriptorSink.create(path)
            sink = direct
            return direct
        }
        guard let (fd, temporary) = try Self.createTemporary(beside: target) else {
            let direct = try FileDescriptorSink.create(path)
            sink = direct
            return direct
        }
        staged = (temporary, target)
        let opened = FileDescriptorSink(fd: fd, name: path, owns: false)
        sink = opened
        return opened
    }

    /// Ends the output by the run's exit status — the one place where a run's output is kept or
    /// set aside. `.ok`: the staged file is renamed onto the target. Any other status: the
    /// target is left as it was, and what was written is renamed to `TARGET.partial` and named
    /// in one line on stderr. Returns the run's status, or the status of a rename that failed.
    /// A direct output is closed by its sink, as before.
    @discardableResult
    public func settle(_ status: ExitStatus, console: any Console) -> ExitStatus {
        let closed = closeDescriptor()
        guard let (temporary, target) = staged else { return status }
        staged = nil
        if status == .ok {
            guard closed else {
                return keepPartial(temporary, target, console: console, why: "cannot write \(path): \(String(cString: strerror(errno)))", status: .ioError)
            }
            guard rename(cPath(temporary), cPath(target)) == 0 else {
                return keepPartial(temporary, target, console: console, why: "cannot replace \(path): \(String(cString: strerror(errno)))", status: .cannotCreate)
            }
            return status
        }
        return keepPartial(temporary, target, console: console, why: nil, status: status)
    }

    /// Renames the temporary file to `TARGET.partial` and says so; `why` is an error of our
    /// own to report first (the run's own error was reported already).
    private func keepPartial(_ temporary: String, _ target: String, console: any Console, why: String?, status: ExitStatus) -> ExitStatus {
        if let why { console.err("aupipe: \(why)") }
        let partial = target + ".partial"
        let reason = status == .interrupted || status == .terminated ? "the run was stopped by a signal" : "the run failed"
        if rename(cPath(temporary), cPath(partial)) == 0 {
            console.err("aupipe: output kept as \(partial); \(path) was left as it was (\(reason))")
        } else {
            console.err("aupipe: output kept as \(temporary) (cannot rename it to \(partial): \(String(cString: strerror(errno)))); \(path) was left as it was (\(reason))")
        }
        return status
    }

    /// Closes a staged output's descriptor (direct ones are closed by their sink); false when
    /// closing reported an error (a delayed write failure).
    @discardableResult
    private func closeDescriptor() -> Bool {
        guard staged != nil, let fd = sink?.fd, fd >= 0 else { return true }
        sink = nil
        return Glibc.close(fd) == 0
    }

    /// The file a staged output replaces: `path` itself when it does not exist or is a regular
    /// file, the file a symbolic link points to when that is a regular file; nil when the output
    /// is written directly (a FIFO, a device, a dangling link).
    package static func stagingTarget(_ path: String) -> String? {
        var st = stat()
        if lstat(cPath(path), &st) != 0 { return errno == ENOENT ? path : nil }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return path
        case S_IFLNK:
            guard stat(cPath(path), &st) == 0, st.st_mode & S_IFMT == S_IFREG, let resolved = realpath(cPath(path), nil) else { return nil }
            defer { free(resolved) }
            return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)).bindMemory(to: UInt8.self))
        default:
            return nil
        }
    }

    /// Creates `.NAME.aupipe-PID.tmp` in `target`'s directory with the mode (and owner) a plain
    /// create of `target` would have; nil when the directory refuses it but `target` exists and
    /// can be written in place. Throws 73 when neither can be created.
    package static func createTemporary(beside target: String) throws -> (Int32, String)? {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var existing = stat()
        let exists = stat(cPath(target), &existing) == 0
        // A file a plain create could not open for writing is not replaced either.
        if exists, access(cPath(target), W_OK) != 0 {
            throw AUPipeError.cannotCreate("cannot create output \(target): \(String(cString: strerror(errno)))")
        }
        for attempt in 0..<100 {
            let temporary = "\(directory).\(name).aupipe-\(getpid())\(attempt == 0 ? "" : "-\(attempt)").tmp"
            let fd = Glibc.open(cPath(temporary), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                if exists {
                    _ = fchown(fd, existing.st_uid, existing.st_gid)  // allowed only to root; else ours
                    _ = fchmod(fd, existing.st_mode & 0o7777)
                }
                return (fd, temporary)
            }
            let openError = errno
            if openError == EEXIST { continue }
            if exists, access(cPath(target), W_OK) == 0 { return nil }
            // The directory is missing or not writable: the error a plain create would give.
            throw AUPipeError.cannotCreate("cannot create output \(target): \(String(cString: strerror(exists ? openError : Self.createError(target, openError))))")
        }
        throw AUPipeError.cannotCreate("cannot create output \(target): too many stale temporary files beside it (.\(name).aupipe-*.tmp)")
    }

    /// The errno a plain create of a missing `target` gives (ENOENT for a missing directory,
    /// EACCES for one not writable), found without creating anything; `fallback` otherwise.
    private static func createError(_ target: String, _ fallback: Int32) -> Int32 {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        var st = stat()
        if stat(cPath(directory), &st) != 0 { return errno }
        if st.st_mode & S_IFMT != S_IFDIR { return ENOTDIR }
        return access(cPath(directory), W_OK) == 0 ? fallback : errno
    }
}
