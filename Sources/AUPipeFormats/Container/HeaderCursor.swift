/// Reads a header field by field from a byte source, never seeking and never reading past
/// what the header needs, so the audio that follows stays in the source.
package struct HeaderCursor {
    package let source: any ByteSource
    /// What is being read, for messages: `WAV header`.
    package let what: String
    /// Bytes of the stream read so far, the 4-byte magic included.
    package private(set) var offset: Int64 = 4

    /// Starts after the 4-byte magic, which `HeaderReader` has read.
    package init(_ source: any ByteSource, what: String) {
        self.source = source
        self.what = what
    }

    /// Exactly `count` bytes, or a data error naming where the stream ended.
    package mutating func bytes(_ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try out.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 {
                throw AUPipeError.data("\(source.name): \(what) ends after \(offset + Int64(filled)) bytes; the stream is truncated or not \(what.split(separator: " ").first ?? "")")
            }
            filled += n
        }
        offset += Int64(count)
        return out
    }

    /// Up to `count` bytes: fewer only where the stream ends.
    package mutating func upTo(_ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try out.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            filled += n
        }
        offset += Int64(filled)
        return Array(out[0..<filled])
    }

    /// Reads and discards `count` bytes (an unknown chunk), in bounded pieces.
    package mutating func skip(_ count: Int64) throws {
        var left = count
        var scratch = [UInt8](repeating: 0, count: Int(min(count, 65536)))
        while left > 0 {
            let want = Int(min(left, Int64(scratch.count)))
            let n = try scratch.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            if n == 0 {
                throw AUPipeError.data("\(source.name): \(what) ends inside a chunk, \(counted(Int(left), "byte")) short; the stream is truncated")
            }
            left -= Int64(n)
            offset += Int64(n)
        }
    }

    package mutating func fourCC() throws -> String { String(decoding: try bytes(4), as: UTF8.self) }
    package mutating func u16le() throws -> UInt16 { let b = try bytes(2); return UInt16(b[0]) | UInt16(b[1]) << 8 }
    package mutating func u32le() throws -> UInt32 { try bytes(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    package mutating func u64le() throws -> UInt64 { try bytes(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    package mutating func u16be() throws -> UInt16 { let b = try bytes(2); return UInt16(b[0]) << 8 | UInt16(b[1]) }
    package mutating func u32be() throws -> UInt32 { try bytes(4).reduce(0) { $0 << 8 | UInt32($1) } }
    package mutating func u64be() throws -> UInt64 { try bytes(8).reduce(0) { $0 << 8 | UInt64($1) } }
}

/// Little helpers for building headers.
extension Array where Element == UInt8 {
    package mutating func append(fourCC: String) { append(contentsOf: Array(fourCC.utf8)) }
    package mutating func append(le value: UInt16) { append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    package mutating func append(le value: UInt32) { for i in 0..<4 { append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) } }
    package mutating func append(be value: UInt32) { for i in (0..<4).reversed() { append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) } }
    package mutating func append(be value: UInt64) { for i in (0..<8).reversed() { append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) } }
}
