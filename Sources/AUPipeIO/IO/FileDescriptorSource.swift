import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// A file descriptor: stdin, a file, a FIFO. Stops (reports end of stream) when SIGINT or
/// SIGTERM interrupts a read.
public final class FileDescriptorSource: ByteSource {
    public let fd: Int32
    public let name: String
    private let ownsDescriptor: Bool

    /// Regular files are read without polling: they never block.
    private let isRegularFile: Bool
    /// The input and the stop pipe, for poll: allocated once, not per read.
    private let pollSet = UnsafeMutablePointer<pollfd>.allocate(capacity: 2)

    public init(fd: Int32, name: String, owns: Bool) {
        self.fd = fd
        self.name = name
        ownsDescriptor = owns
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens `path` for reading, or `-` for stdin.
    public static func open(_ path: String) throws -> FileDescriptorSource {
        if path == "-" {
            guard aupipe_closed_standard_descriptors() & 1 == 0 else {
                throw AUPipeError.noInput("cannot read input: stdin is closed; pipe audio in, or give -i FILE")
            }
            return FileDescriptorSource(fd: 0, name: "stdin", owns: false)
        }
        let fd = Glibc.open(cPath(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AUPipeError.noInput("cannot open input \(path): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            Glibc.close(fd)
            throw AUPipeError.noInput("cannot read input \(path): it is a directory")
        }
        return FileDescriptorSource(fd: fd, name: path, owns: true)
    }

    deinit {
        if ownsDescriptor { Glibc.close(fd) }
        pollSet.deallocate()
    }

    /// Whether `path` names the same regular file as this descriptor (so writing it would destroy
    /// the input). Devices such as /dev/null may be both.
    public func isSameFile(as path: String) -> Bool {
        guard let mine = FileIdentity(descriptor: fd) else { return false }
        return mine == FileIdentity(path: path)
    }

    /// The size in bytes when the descriptor is a regular file.
    public var regularFileSize: Int64? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if StopSignal.received { return 0 }
            // Wait for input or for a stop, together: a stop that lands just before a blocking
            // read would otherwise wait for input that may never come. Regular files never block.
            let stopFD = StopSignal.descriptor
            if stopFD >= 0, !isRegularFile {
                let fds = pollSet
                fds[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                fds[1] = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
                if poll(fds, 2, -1) < 0 && errno != EINTR {
                    throw AUPipeError.io("waiting for \(name): \(String(cString: strerror(errno)))")
                }
                if fds[0].revents == 0 { continue } // a stop, or EINTR: the flag is checked above
            }
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw AUPipeError.io("reading \(name): \(String(cString: strerror(errno)))")
        }
    }
}
