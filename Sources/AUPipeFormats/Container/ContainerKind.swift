/// The stream containers aupipe reads and writes.
public enum ContainerKind: String, CaseIterable, Sendable {
    case caf, wav, au, raw

    /// Parses a `-t` value.
    public init(option text: String) throws {
        guard let kind = ContainerKind(rawValue: text.lowercased()) else {
            let hint = suggestion(for: text, among: Self.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
            throw AUPipeError.usage("-t \(text): unknown container\(hint); use caf, wav, au or raw")
        }
        self = kind
    }

    /// The container an output path's extension names, in any case: `.wav`, `.caf`, `.au` or
    /// `.snd`, `.raw` or `.pcm`. Nil for `-` (stdout), a path without an extension, or another
    /// extension: those keep the default container.
    public init?(pathExtensionOf path: String) {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "wav": self = .wav
        case "caf": self = .caf
        case "au", "snd": self = .au
        case "raw", "pcm": self = .raw
        default: return nil
        }
    }

    /// The encoding this container stores for `encoding` when the user did not insist on one:
    /// WAV is little-endian with unsigned 8-bit, AU big-endian with signed 8-bit, CAF signed
    /// integers of either order, raw anything. Returns `encoding` itself when it fits.
    public func nearestEncoding(to encoding: SampleEncoding) -> SampleEncoding {
        let e = encoding
        switch self {
        case .raw:
            return e
        case .wav:
            if e.bits == 8 && e.isInteger { return SampleEncoding(.unsignedInteger, bits: 8)! }
            if e.kind == .unsignedInteger { return SampleEncoding(.signedInteger, bits: e.bits, bigEndian: false)! }
            return e.withByteOrder(bigEndian: false)
        case .au:
            if e.bits == 8 && e.isInteger { return SampleEncoding(.signedInteger, bits: 8)! }
            if e.kind == .unsignedInteger { return SampleEncoding(.signedInteger, bits: e.bits, bigEndian: true)! }
            return e.withByteOrder(bigEndian: true)
        case .caf:
            if e.kind == .unsignedInteger { return SampleEncoding(.signedInteger, bits: e.bits, bigEndian: e.isBigEndian)! }
            return e
        }
    }

    /// Why `encoding` cannot be stored here, for an error message.
    package func refusal(of encoding: SampleEncoding) -> String {
        switch self {
        case .wav: return "WAV stores little-endian samples and unsigned 8-bit only"
        case .au: return "AU stores big-endian samples and signed 8-bit only"
        case .caf: return "CAF stores signed integers only"
        case .raw: return ""
        }
    }
}
