#if canImport(Glibc)
import Glibc
#endif

/// File names on Linux are bytes, not text: a name need not be UTF-8 (`$'\xff.wav'`). aupipe
/// carries every word of its command line (and of a `--control` line) as a `String` that keeps
/// such bytes: each byte of an invalid UTF-8 sequence becomes one code point of a private-use
/// range (U+10FE80 to U+10FEFF for bytes 0x80 to 0xFF), and every call that hands a path to the
/// system, and every line written to stdout or stderr, turns those code points back into the
/// bytes they stand for. So `-i`, `-o`, `tee`, `mix input=`, `aec ref=`, `plot=` and
/// `--control` open exactly the names given, and messages name them as given. (A valid name
/// that itself holds one of those 128 private-use code points is read the same way: no font
/// draws them and no locale produces them.)
///
/// Swift's `CommandLine.arguments` replaces invalid bytes with U+FFFD, which would open another
/// file; `arguments(argc:argv:)` decodes the raw `argv` instead.
public enum PathBytes {
    /// The first code point of the range standing for bytes 0x80...0xFF.
    package static let base: UInt32 = 0x10FE00

    /// `bytes` as a `String`: UTF-8 where valid, each byte of an invalid sequence as its
    /// stand-in code point.
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var offset = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &input) {
            case .valid(let encoded):
                scalars.append(Unicode.UTF8.decode(encoded))
                offset = bytes.index(offset, offsetBy: encoded.count)
            case .error(let length):
                for byte in bytes[offset...].prefix(length) { scalars.append(Unicode.Scalar(base + UInt32(byte))!) }
                offset = bytes.index(offset, offsetBy: length)
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The command line's words after the program's name, from the raw `argv`.
    public static func arguments(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String] {
        (1..<max(1, Int(argc))).compactMap { i in
            argv[i].map { p in string(UnsafeRawBufferPointer(start: p, count: strlen(p)).bindMemory(to: UInt8.self)) }
        }
    }

    /// The bytes `text` stands for: UTF-8, with every stand-in code point as its byte.
    public static func bytes(_ text: String) -> [UInt8] {
        guard text.unicodeScalars.contains(where: { isStandIn($0) }) else { return Array(text.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isStandIn(scalar) { out.append(UInt8(scalar.value - base)) } else { out += String(scalar).utf8 }
        }
        return out
    }

    /// `path` as the NUL-terminated C string a system call takes (`open(cPath(path), ...)`).
    public static func cPath(_ path: String) -> [CChar] {
        bytes(path).map { CChar(bitPattern: $0) } + [0]
    }

    /// `text` for a place that must hold valid UTF-8 (JSON): every stand-in becomes U+FFFD.
    public static func displayable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isStandIn($0) }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isStandIn($0) ? "\u{FFFD}" : $0 }))
    }

    package static func isStandIn(_ scalar: Unicode.Scalar) -> Bool { (base + 0x80...base + 0xFF).contains(scalar.value) }
}

/// `path` as the C string a system call takes, the bytes it stands for (see `PathBytes`).
package func cPath(_ path: String) -> [CChar] { PathBytes.cPath(path) }
