import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// The descriptor of a side input (a `mix` bus, `aec`'s reference): a regular file, a named FIFO
/// or a pipe such as `<(command)`, read without ever blocking past a stop signal.
///
/// FIFOs and pipes are opened non-blocking, so that opening a FIFO nobody writes to does not
/// hang. An end of file on them is told apart with poll's POLLHUP, which Linux raises once a
/// writer has come and gone (for a pipe, as soon as it has no writer): end of file with POLLHUP
/// is the end of the input; without it, a FIFO that no writer has opened yet.
package final class SideInputFile {
    /// A regular file; a FIFO or pipe (no writer yet vs writer gone); anything else that reads
    /// (a character device such as /dev/null, a socket), whose end of file is the end.
    package enum Kind { case regular, fifo, other }

    /// What one read found.
    package enum ReadResult: Equatable {
        /// This many bytes (at least 1).
        case bytes(Int)
        /// A writer is there, but no data yet.
        case wouldBlock
        /// A FIFO that no writer has opened yet.
        case noWriterYet
        /// The end: a regular file's end, or a pipe or FIFO whose writer has gone.
        case end
    }

    package let path: String
    package let kind: Kind
    /// Starts every message: `mix: input 2 (bus.wav)`.
    package let name: String
    private var fd: Int32 = -1
    /// The input and the stop pipe, for poll: allocated once, not per wait.
    private let pollSet = UnsafeMutablePointer<pollfd>.allocate(capacity: 2)

    /// Opens `path`; refuses a directory or a path that does not exist (66).
    package init(path: String, name: String) throws {
        self.path = path
        self.name = name
        var st = stat()
        guard stat(cPath(path), &st) == 0 else {
            throw AUPipeError.noInput("\(name): cannot open: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw AUPipeError.noInput("\(name): cannot read: it is a directory") }
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFIFO: kind = .fifo
        default: kind = .other
        }
        try open()
    }

    deinit {
        if fd >= 0 { close(fd) }
        pollSet.deallocate()
    }

    /// Opens the path again from its start (a looping file).
    package func reopen() throws {
        close(fd)
        fd = -1
        try open()
    }

    private func open() throws {
        fd = Glibc.open(cPath(path), O_RDONLY | O_CLOEXEC | (kind == .regular ? 0 : O_NONBLOCK))
        guard fd >= 0 else { throw AUPipeError.noInput("\(name): cannot open: \(String(cString: strerror(errno)))") }
    }

    /// Reads up to `count` bytes into `buffer` without blocking.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> ReadResult {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return kind != .fifo || writerHasGone ? .end : .noWriterYet }
            if errno == EINTR { continue }
            if errno == EAGAIN { return .wouldBlock }
            throw AUPipeError.io("\(name): reading: \(String(cString: strerror(errno)))")
        }
    }

    /// At an end of file on a FIFO or pipe: whether a writer came and went (POLLHUP), rather
    /// than none having opened it yet.
    private var writerHasGone: Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0 && p.revents & Int16(POLLHUP) != 0
    }

    /// Waits until there is something to read (data, or the writer's end), at most
    /// `milliseconds` (-1: no limit), or until SIGINT/SIGTERM arrives.
    package func wait(milliseconds: Int32) -> StopCondition.WaitResult {
        StopCondition.signals.wait(for: fd, events: Int16(POLLIN), milliseconds: milliseconds, pollSet: pollSet)
    }
}
