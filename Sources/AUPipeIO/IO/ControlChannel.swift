import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// `--control PATH`: a FIFO that takes command lines while audio runs.
///
/// A background thread reads the FIFO (opened read-write, so that writers coming and going
/// never end it) and queues complete lines. The audio loop takes them with `takeLines()` at
/// block boundaries; it uses a try-lock, so it never waits for the reader thread. Replies go
/// to `--control-reply PATH` (appended) or to stderr.
package final class ControlChannel {
    package let path: String
    private let fd: Int32
    private let createdFIFO: Bool
    private let replyFD: Int32
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var queued: [String] = []
    private var partial: [UInt8] = []

    package init(path: String, replyPath: String?) throws {
        self.path = path
        var st = stat()
        if stat(cPath(path), &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFIFO else {
                throw AUPipeError.usage("--control \(path) exists and is not a FIFO; name a new path (aupipe creates the FIFO) or an existing FIFO")
            }
            createdFIFO = false
        } else {
            guard mkfifo(cPath(path), 0o600) == 0 else {
                throw AUPipeError.cannotCreate("--control: cannot create the FIFO \(path): \(String(cString: strerror(errno)))")
            }
            createdFIFO = true
        }
        fd = open(cPath(path), O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw AUPipeError.noInput("--control: cannot open \(path): \(String(cString: strerror(errno)))") }
        if let replyPath {
            var rst = stat()
            let isFIFO = stat(cPath(replyPath), &rst) == 0 && (rst.st_mode & S_IFMT) == S_IFIFO
            // A FIFO is opened read-write and non-blocking, so that a missing reader never stalls audio.
            replyFD = isFIFO ? open(cPath(replyPath), O_RDWR | O_NONBLOCK | O_CLOEXEC)
                             : open(cPath(replyPath), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard replyFD >= 0 else {
                throw AUPipeError.cannotCreate("--control-reply: cannot open \(replyPath): \(String(cString: strerror(errno)))")
            }
        } else {
            replyFD = 2
        }
        pthread_mutex_init(lock, nil)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<ControlChannel>.fromOpaque(context!).takeRetainedValue().readLoop()
            return nil
        }, context)
        pthread_detach(thread)
    }

    /// Removes the FIFO if aupipe created it. The reader thread ends with the process.
    package func close() {
        if createdFIFO { unlink(cPath(path)) }
    }

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            var lines: [String] = []
            for byte in buffer[0..<n] {
                if byte == UInt8(ascii: "\n") {
                    lines.append(PathBytes.string(partial))
                    partial.removeAll(keepingCapacity: true)
                } else if partial.count < 4096 {
                    partial.append(byte)
                }
            }
            if lines.isEmpty { continue }
            pthread_mutex_lock(lock)
            queued += lines
            pthread_mutex_unlock(lock)
        }
    }

    /// The lines received since the last call, or none if the reader thread holds the lock now.
    package func takeLines() -> [String] {
        guard pthread_mutex_trylock(lock) == 0 else { return [] }
        defer { pthread_mutex_unlock(lock) }
        if queued.isEmpty { return [] }
        let lines = queued
        queued = []
        return lines
    }

    /// Writes one reply line.
    package func reply(_ line: String) {
        let text = replyFD == 2 ? "aupipe: control: \(line)\n" : line + "\n"
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(replyFD, $0.baseAddress, $0.count - 1) }
    }
}
