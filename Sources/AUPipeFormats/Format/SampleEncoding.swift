/// How one sample is stored: the encoding half of a format spec (`s16le`, `f32be`, `mulaw`).
///
/// Integers are 8, 16, 24 (three packed bytes) or 32 bits wide, floats 32 or 64 bits.
/// Byte order matters only for samples wider than one byte; 8-bit and G.711 encodings
/// are always reported as little-endian so that equal encodings compare equal.
public struct SampleEncoding: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case signedInteger
        case unsignedInteger
        case float
        case muLaw
        case aLaw
    }

    public let kind: Kind
    /// Bits per sample as stored: 8, 16, 24, 32 or 64.
    public let bits: Int
    public let isBigEndian: Bool

    /// Creates an encoding, or returns nil for a combination aupipe does not handle.
    public init?(_ kind: Kind, bits: Int, bigEndian: Bool = false) {
        switch kind {
        case .signedInteger, .unsignedInteger:
            guard [8, 16, 24, 32].contains(bits) else { return nil }
        case .float:
            guard bits == 32 || bits == 64 else { return nil }
        case .muLaw, .aLaw:
            guard bits == 8 else { return nil }
        }
        self.kind = kind
        self.bits = bits
        self.isBigEndian = bits > 8 ? bigEndian : false
    }

    /// Bytes one sample takes: 1, 2, 3, 4 or 8.
    public var bytesPerSample: Int { bits / 8 }
    public var isInteger: Bool { kind == .signedInteger || kind == .unsignedInteger }
    public var isFloat: Bool { kind == .float }

    /// The same encoding with the other byte order where it has one.
    public func withByteOrder(bigEndian: Bool) -> SampleEncoding {
        SampleEncoding(kind, bits: bits, bigEndian: bigEndian)!
    }

    /// ffmpeg's raw format name, which is also aupipe's canonical token: `s16le`, `u8`, `f64be`, `mulaw`.
    public var token: String {
        switch kind {
        case .muLaw: return "mulaw"
        case .aLaw: return "alaw"
        case .signedInteger, .unsignedInteger, .float:
            let letter = kind == .float ? "f" : (kind == .signedInteger ? "s" : "u")
            if bits == 8 { return "\(letter)8" }
            return "\(letter)\(bits)\(isBigEndian ? "be" : "le")"
        }
    }

    public static let s16le = SampleEncoding(.signedInteger, bits: 16)!
    public static let f32le = SampleEncoding(.float, bits: 32)!

    /// Every encoding aupipe reads and writes, in the order `aupipe units` lists them.
    public static let all: [SampleEncoding] = {
        var list: [SampleEncoding] = [SampleEncoding(.unsignedInteger, bits: 8)!, SampleEncoding(.signedInteger, bits: 8)!]
        for (kind, widths) in [(Kind.signedInteger, [16, 24, 32]), (.unsignedInteger, [16, 24, 32]), (.float, [32, 64])] {
            for bits in widths {
                list.append(SampleEncoding(kind, bits: bits, bigEndian: false)!)
                list.append(SampleEncoding(kind, bits: bits, bigEndian: true)!)
            }
        }
        list.append(SampleEncoding(.muLaw, bits: 8)!)
        list.append(SampleEncoding(.aLaw, bits: 8)!)
        return list
    }()
}

extension SampleEncoding {
    /// Parses an encoding token, case-insensitively.
    ///
    /// Accepts the canonical tokens (`[su](8|16|24|32)(le|be)?`, `f(32|64)(le|be)?`, `mulaw`, `alaw`;
    /// a missing suffix means little-endian) and the aliases of ALSA (`S16_LE`, `S24_3LE`, `FLOAT_LE`,
    /// `FLOAT64_BE`, `MU_LAW`, `A_LAW`), GStreamer (`S16LE`, `F32LE`, `S24BE`) and ffmpeg's sample
    /// formats (`s16`, `s32`, `flt`, `dbl`, `u8`; native order, which is little-endian here).
    /// Throws a usage error with a hint for ALSA's `S24_LE` (24 bits in 4 bytes) and ffmpeg's planar forms.
    public init(token raw: String) throws {
        var t = raw.lowercased()
        if t.hasPrefix("pcm_") { t.removeFirst(4) } // ffmpeg's codec names: pcm_s16le, pcm_f32be, pcm_mulaw
        switch t {
        case "s24_le", "s24_be", "s24_32le", "s24_32be", "s24_32", "u24_le", "u24_be", "u24_32le", "u24_32be":
            throw AUPipeError.usage("format \(raw) is ALSA's 24 bits in 4-byte containers, which aupipe does not read; record as S24_3LE (s24le) or S32_LE (s32le) instead")
        case "s16p", "s32p", "fltp", "dblp", "u8p":
            throw AUPipeError.usage("format \(raw) is ffmpeg's planar layout; aupipe reads interleaved samples: use \(t.dropLast()) instead")
        case "mulaw", "mu_law", "mu-law", "ulaw": self = SampleEncoding(.muLaw, bits: 8)!; return
        case "alaw", "a_law", "a-law": self = SampleEncoding(.aLaw, bits: 8)!; return
        case "flt": self = SampleEncoding(.float, bits: 32)!; return
        case "dbl": self = SampleEncoding(.float, bits: 64)!; return
        case "float_le": self = SampleEncoding(.float, bits: 32, bigEndian: false)!; return
        case "float_be": self = SampleEncoding(.float, bits: 32, bigEndian: true)!; return
        case "float64_le": self = SampleEncoding(.float, bits: 64, bigEndian: false)!; return
        case "float64_be": self = SampleEncoding(.float, bits: 64, bigEndian: true)!; return
        default: break
        }
        // [suf] width [_3]? [_]? (le|be)?  covers s16le, S16_LE, S24_3LE, S24_3BE, F32LE, u8, s16.
        var rest = Substring(t)
        guard let letter = rest.first, "suf".contains(letter) else { throw Self.unknown(raw) }
        rest = rest.dropFirst()
        let digits = rest.prefix(while: \.isNumber)
        guard let bits = Int(digits) else { throw Self.unknown(raw) }
        rest = rest.dropFirst(digits.count)
        if bits == 24, rest.hasPrefix("_3") { rest = rest.dropFirst(2) }
        if rest.hasPrefix("_") { rest = rest.dropFirst() }
        let bigEndian: Bool
        switch rest {
        case "", "le": bigEndian = false
        case "be": bigEndian = true
        default: throw Self.unknown(raw)
        }
        let kind: Kind = letter == "s" ? .signedInteger : (letter == "u" ? .unsignedInteger : .float)
        guard let encoding = SampleEncoding(kind, bits: bits, bigEndian: bigEndian) else { throw Self.unknown(raw) }
        self = encoding
    }

    private static func unknown(_ raw: String) -> AUPipeError {
        .usage("unknown sample format '\(raw)'; use one of u8, s8, s16le, s24le, s32le, u16le, u24le, u32le, f32le, f64le (or ...be), mulaw, alaw")
    }
}
