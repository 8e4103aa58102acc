import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// The descriptor of a side output (`tee`'s copy, a monitor tap): a regular file, a named FIFO,
/// a pipe such as `>(command)` (`/dev/fd/N`), or stdout (`-`, `/dev/stdout`) when the main
/// output is a file (`Pipeline` refuses it when stdout is the main output).
///
/// The path is checked when this is made, and nothing is created then: a regular file is
/// created (or truncated) by `createFile`, once audio is about to come. FIFOs and pipes are
/// opened write-only and non-blocking, so that opening a FIFO nobody reads does not hang
/// (ENXIO: no reader yet) and a full pipe says EAGAIN instead of stalling the stream; waits
/// are polls that end at the stop condition (SIGINT/SIGTERM).
///
/// A reader that goes away gives EPIPE, never death by SIGPIPE: aupipe ignores SIGPIPE, and
/// where it is not ignored (aupipe's library in another program, the tests) it is blocked in
/// this thread around each write and the pending signal taken back.
package final class SideOutputFile {
    /// A regular file (patched at the end), or anything else: FIFO, pipe, character device.
    package enum Kind { case regular, stream }

    /// What one non-blocking write did.
    package enum WriteResult: Equatable {
        /// This many bytes (at least 1) were taken.
        case wrote(Int)
        /// The pipe is full now.
        case wouldBlock
        /// The reader has gone (EPIPE).
        case readerGone
    }

    package let path: String
    package let kind: Kind
    /// Starts every message: `tee (copy.wav)`.
    package let name: String
    package let stop: StopCondition
    package private(set) var fd: Int32 = -1
    /// The path as C text, made once: reopening a FIFO on every block allocates nothing.
    private let cPath: [CChar]
    /// The descriptor and the stop descriptor, for poll: allocated once, not per wait.
    private let pollSet: UnsafeMutablePointer<pollfd>
    private let vectors: UnsafeMutablePointer<iovec>
    /// Whether SIGPIPE must be blocked around writes (it is not ignored in this process).
    private var guardsPipeSignal = false
    private var pipeSignal = sigset_t()
    private var savedMask = sigset_t()

    /// The names of stdout: `-` (opened as `/dev/stdout`) and the paths that are fd 1.
    package static let stdoutNames: Set<String> = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]

    /// Checks `path`: refuses stdout when it is a terminal (64), a directory, a socket, and a
    /// file that cannot be created or written (73).
    package init(path: String, name: String, stop: StopCondition) throws {
        self.path = path
        self.name = name
        self.stop = stop
        let opened = path == "-" ? "/dev/stdout" : path
        cPath = PathBytes.cPath(opened)
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        kind = try Self.check(opened, name: name)
        // Allocated once the checks pass: a throwing init runs no deinit to free them.
        pollSet = .allocate(capacity: 2)
        vectors = .allocate(capacity: 2)
    }

    /// The checks `init` describes; returns what the path is.
    private static func check(_ path: String, name: String) throws -> Kind {
        if stdoutNames.contains(path), isatty(1) != 0 {
            throw AUPipeError.usage("\(name): refusing to write binary audio to a terminal; redirect stdout (> copy.wav) or give a file, a FIFO or >(command)")
        }
        var st = stat()
        guard stat(PathBytes.cPath(path), &st) == 0 else {
            let problem = errno
            guard problem == ENOENT, !path.hasSuffix("/") else { throw Self.cannotCreate(name, problem) }
            // A new file: its directory must let us create it.
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
            guard access(PathBytes.cPath(directory), W_OK | X_OK) == 0 else { throw Self.cannotCreate(name, errno) }
            return .regular
        }
        let kind: Kind
        switch st.st_mode & S_IFMT {
        case S_IFDIR: throw AUPipeError.cannotCreate("\(name): cannot write: it is a directory")
        case S_IFSOCK: throw AUPipeError.cannotCreate("\(name): cannot write: it is a socket; give a file, a FIFO or >(command)")
        case S_IFREG: kind = .regular
        default: kind = .stream
        }
        guard access(PathBytes.cPath(path), W_OK) == 0 else { throw Self.cannotCreate(name, errno) }
        return kind
    }

    deinit {
        close()
        pollSet.deallocate()
        vectors.deallocate()
    }

    private static func cannotCreate(_ name: String, _ code: Int32) -> AUPipeError {
        AUPipeError.cannotCreate("\(name): cannot create: \(String(cString: strerror(code)))")
    }

    package var isOpen: Bool { fd >= 0 }

    /// Creates (or truncates) the regular file and hands its descriptor to a sink that can patch
    /// the header at the end, as `-o` does (73 when it cannot).
    package func createFile() throws -> FileDescriptorSink {
        let fd = cPath.withUnsafeBufferPointer { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw Self.cannotCreate(name, errno) }
        return FileDescriptorSink(fd: fd, name: name, owns: true)
    }

    /// Opens a FIFO, pipe or device write-only and non-blocking. False when a FIFO has no reader
    /// yet (ENXIO; try again later); 73 for anything else.
    package func openStream() throws -> Bool {
        guard fd < 0 else { return true }
        let got = cPath.withUnsafeBufferPointer { Glibc.open($0.baseAddress!, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        if got < 0 {
            if errno == ENXIO { return false }
            throw AUPipeError.cannotCreate("\(name): cannot open: \(String(cString: strerror(errno)))")
        }
        fd = got
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        guardsPipeSignal = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) != 1 // SIG_IGN
        return true
    }

    /// Writes up to `count` bytes from `first` then `second` (the two runs of a ring) without
    /// blocking, with one call: a pipe takes up to PIPE_BUF bytes whole or not at all.
    package func write(_ first: UnsafeRawPointer, count: Int, then second: UnsafeRawPointer, count secondCount: Int) throws -> WriteResult {
        vectors[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: first), iov_len: count)
        vectors[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: second), iov_len: secondCount)
        while true {
            if guardsPipeSignal { pthread_sigmask(SIG_BLOCK, &pipeSignal, &savedMask) }
            let n = writev(fd, vectors, secondCount > 0 ? 2 : 1)
            let code = errno
            if guardsPipeSignal {
                if n < 0 && code == EPIPE {
                    var none = timespec()
                    _ = sigtimedwait(&pipeSignal, nil, &none) // the SIGPIPE this write raised
                }
                pthread_sigmask(SIG_SETMASK, &savedMask, nil)
            }
            if n > 0 { return .wrote(n) }
            if n < 0 && code == EINTR { continue }
            if n < 0 && code == EAGAIN { return .wouldBlock }
            if n < 0 && code == EPIPE { return .readerGone }
            throw AUPipeError.io("\(name): cannot write: \(String(cString: strerror(n < 0 ? code : EIO)))")
        }
    }

    /// Waits until the descriptor takes bytes again (or its reader has gone), at most
    /// `milliseconds` (-1: no limit), or until the stop comes.
    package func waitWritable(milliseconds: Int32) -> StopCondition.WaitResult {
        stop.wait(for: fd, events: Int16(POLLOUT), milliseconds: milliseconds, pollSet: pollSet)
    }

    /// Waits `milliseconds`, or until the stop comes (between attempts to open a FIFO).
    package func pause(milliseconds: Int32) -> StopCondition.WaitResult {
        stop.wait(for: -1, events: 0, milliseconds: milliseconds, pollSet: pollSet)
    }

    package func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
