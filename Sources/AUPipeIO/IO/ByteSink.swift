import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// Thrown when the reader of our output went away (EPIPE): aupipe then stops quietly.
public struct OutputClosed: Error, Equatable {}

/// Where stream bytes go: stdout, a file, or memory in tests.
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes`, or throws.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Replaces the first bytes of the output with `header` when the output can be rewritten
    /// (a regular file); returns false otherwise.
    func rewriteHeader(_ header: [UInt8]) throws -> Bool
    var name: String { get }
}

extension ByteSink {
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// A file descriptor: stdout or a file opened with `-o`.
public final class FileDescriptorSink: ByteSink {
    public let fd: Int32
    public let name: String
    private let ownsDescriptor: Bool
    /// Byte offset of the start of our output in the file (where the header goes).
    private let startOffset: off_t

    public init(fd: Int32, name: String, owns: Bool) {
        self.fd = fd
        self.name = name
        ownsDescriptor = owns
        // Only a regular file not opened for appending can be patched: on Linux, pwrite to an
        // O_APPEND descriptor (`>> file`) appends instead of writing at the offset.
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, fcntl(fd, F_GETFL) & O_APPEND == 0 {
            startOffset = lseek(fd, 0, SEEK_CUR)
        } else {
            startOffset = -1
        }
    }

    /// Creates (or truncates) `path`, or returns stdout for `-`.
    public static func create(_ path: String) throws -> FileDescriptorSink {
        if path == "-" {
            guard aupipe_closed_standard_descriptors() & 2 == 0 else {
                throw AUPipeError.io("cannot write output: stdout is closed; give -o FILE, or send stdout somewhere")
            }
            return FileDescriptorSink(fd: 1, name: "stdout", owns: false)
        }
        let fd = Glibc.open(cPath(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw AUPipeError.cannotCreate("cannot create output \(path): \(String(cString: strerror(errno)))")
        }
        return FileDescriptorSink(fd: fd, name: path, owns: true)
    }

    deinit { if ownsDescriptor { Glibc.close(fd) } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EPIPE { throw OutputClosed() }
            throw AUPipeError.io("cannot write \(name): \(String(cString: strerror(n < 0 ? errno : EIO)))")
        }
    }

    public func rewriteHeader(_ header: [UInt8]) throws -> Bool {
        guard startOffset >= 0 else { return false }
        let n = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, startOffset) }
        guard n == header.count else {
            throw AUPipeError.io("patching the header of \(name): \(String(cString: strerror(errno)))")
        }
        return true
    }
}

/// Collects output in memory (tests).
public final class MemorySink: ByteSink {
    public private(set) var bytes: [UInt8] = []
    public let name = "memory"
    /// Whether `rewriteHeader` may patch, as a regular file would.
    public var patchable: Bool

    public init(patchable: Bool = false) { self.patchable = patchable }

    public func write(_ b: UnsafeRawBufferPointer) throws { bytes += b }

    public func rewriteHeader(_ header: [UInt8]) throws -> Bool {
        guard patchable else { return false }
        bytes.replaceSubrange(0..<header.count, with: header)
        return true
    }
}
