/// ITU-T G.711 µ-law and A-law.
///
/// Decoding gives the 16-bit linear value of the CCITT reference code (µ-law ±32124, A-law
/// ±32256), as sox, ffmpeg and ALSA do. Encoding takes a 16-bit linear value and picks the code
/// whose level is nearest, with ffmpeg's tables (the reference code truncates instead).
/// Both directions are table lookups: deterministic.
package enum G711 {
    /// µ-law byte → 16-bit linear.
    package static let muLawToLinear: [Int16] = (0..<256).map { decodeMuLaw(UInt8($0)) }
    /// A-law byte → 16-bit linear.
    package static let aLawToLinear: [Int16] = (0..<256).map { decodeALaw(UInt8($0)) }

    private static func decodeMuLaw(_ byte: UInt8) -> Int16 {
        let u = ~byte
        var t = (Int(u & 0x0F) << 3) + 0x84
        t <<= Int((u & 0x70) >> 4)
        return Int16((u & 0x80) != 0 ? 0x84 - t : t - 0x84)
    }

    private static func decodeALaw(_ byte: UInt8) -> Int16 {
        let a = byte ^ 0x55
        var t = Int(a & 0x0F) << 4
        let seg = Int((a & 0x70) >> 4)
        switch seg {
        case 0: t += 8
        case 1: t += 0x108
        default: t += 0x108; t <<= seg - 1
        }
        return Int16((a & 0x80) != 0 ? t : -t)
    }

    /// 16384-entry tables from 14-bit linear (a 16-bit value + 32768, shifted right by 2) to the
    /// code whose decoded value is nearest, built as ffmpeg's pcm encoder builds them, so that
    /// aupipe's µ-law and A-law bytes equal ffmpeg's for the same 16-bit input.
    package static let linearToMuLaw: [UInt8] = nearestCodeTable(decoded: muLawToLinear, mask: 0xFF)
    package static let linearToALaw: [UInt8] = nearestCodeTable(decoded: aLawToLinear, mask: 0xD5)

    /// For each 14-bit value, the code of the nearest decoded level: code i (of magnitude order)
    /// serves values below the midpoint between levels i and i + 1. `mask` is the code of zero.
    private static func nearestCodeTable(decoded: [Int16], mask: UInt8) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 16384)
        table[8192] = mask
        var j = 1
        for i in 0..<127 {
            let v1 = Int(decoded[Int(UInt8(i) ^ mask)]), v2 = Int(decoded[Int(UInt8(i + 1) ^ mask)])
            let midpoint = (v1 + v2 + 4) >> 3
            while j < midpoint {
                table[8192 - j] = UInt8(i) ^ (mask ^ 0x80)
                table[8192 + j] = UInt8(i) ^ mask
                j += 1
            }
        }
        while j < 8192 {
            table[8192 - j] = 127 ^ (mask ^ 0x80)
            table[8192 + j] = 127 ^ mask
            j += 1
        }
        table[0] = table[1]
        return table
    }
}
