import Foundation

/// Small byte helpers shared by the CLI tests: reading header fields and naming the first
/// difference between two byte strings.
enum Bytes {
    static func u32le(_ d: Data, _ at: Int) -> UInt32 {
        let b = [UInt8](d[d.startIndex + at ..< d.startIndex + at + 4])
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    static func u32be(_ d: Data, _ at: Int) -> UInt32 {
        let b = [UInt8](d[d.startIndex + at ..< d.startIndex + at + 4])
        return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }

    static func u64be(_ d: Data, _ at: Int) -> UInt64 {
        [UInt8](d[d.startIndex + at ..< d.startIndex + at + 8]).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Offset of the first occurrence of `fourCC` in `d`, or nil.
    static func find(_ fourCC: String, in d: Data) -> Int? {
        d.range(of: Data(fourCC.utf8)).map { $0.lowerBound - d.startIndex }
    }

    static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
    static func be(_ v: UInt32) -> [UInt8] { le(v).reversed() }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// nil when equal; otherwise where they first differ, and both lengths.
    static func firstDifference(_ a: Data, _ b: Data) -> String? {
        if a == b { return nil }
        let x = [UInt8](a), y = [UInt8](b)
        let n = min(x.count, y.count)
        var i = 0
        while i < n && x[i] == y[i] { i += 1 }
        if i == n { return "lengths differ: \(x.count) vs \(y.count) bytes (equal up to \(n))" }
        return "first difference at byte \(i): 0x\(String(x[i], radix: 16)) vs 0x\(String(y[i], radix: 16)) (lengths \(x.count) and \(y.count))"
    }

    static func hex(_ d: Data, _ range: Range<Int>) -> String {
        d[d.startIndex + range.lowerBound ..< d.startIndex + min(range.upperBound, d.count)].map { String(format: "%02x", $0) }.joined(separator: " ")
    }
}
