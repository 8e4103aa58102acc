/// Where stream bytes come from. Reads return what is available now (short reads are normal
/// on pipes) and 0 at the end of the stream.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; 0 means end of stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// A name for messages: a path or `stdin`.
    var name: String { get }
    /// The size in bytes when the source is a regular file (for `--progress`), else nil.
    var regularFileSize: Int64? { get }
}

extension ByteSource {
    public var regularFileSize: Int64? { nil }
}

/// Bytes held in memory: for tests, and for input whose first bytes were already read.
public final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0
    /// Most bytes one read returns, to imitate a pipe's short reads (default: no limit).
    private let chunk: Int
    public let name: String

    /// True once every byte has been read.
    public var isExhausted: Bool { position >= bytes.count }

    public init(_ bytes: [UInt8], name: String = "memory", chunk: Int = .max) {
        self.bytes = bytes
        self.name = name
        self.chunk = chunk
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - position, chunk)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + position, byteCount: n)
        }
        position += n
        return n
    }
}

/// A source with some bytes put back in front of it (the magic that detection read).
package final class PrefixedSource: ByteSource {
    private var prefix: [UInt8]
    private let base: any ByteSource
    package var name: String { base.name }

    package init(prefix: [UInt8], base: any ByteSource) {
        self.prefix = prefix
        self.base = base
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if prefix.isEmpty { return try base.read(into: buffer) }
        let n = min(buffer.count, prefix.count)
        prefix.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: n) }
        prefix.removeFirst(n)
        return n
    }
}
