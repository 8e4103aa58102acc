/// ITU-T G.711 µ-law and A-law, as in the reference code that sox, ffmpeg and ALSA share.
///
/// Decoding gives the 16-bit linear value (µ-law ±32124, A-law ±32256); encoding takes a
/// 16-bit linear value. Both directions are exact table or bit operations: deterministic.
enum G711 {
    /// µ-law byte → 16-bit linear.
    static let muLawToLinear: [Int16] = (0..<256).map { decodeMuLaw(UInt8($0)) }
    /// A-law byte → 16-bit linear.
    static let aLawToLinear: [Int16] = (0..<256).map { decodeALaw(UInt8($0)) }

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

    private static let segmentEnds: [Int] = [0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF, 0x1FFF, 0x3FFF, 0x7FFF]

    private static let muLawSegmentEnds = segmentEnds.map { $0 >> 2 }
    private static let aLawSegmentEnds = segmentEnds.map { $0 >> 3 }

    private static func segment(_ value: Int, _ ends: [Int]) -> Int {
        for (i, end) in ends.enumerated() where value <= end { return i }
        return ends.count
    }

    /// 16-bit linear → µ-law byte (bias 0x84, clip at 32635).
    static func encodeMuLaw(_ pcm: Int16) -> UInt8 {
        var v = Int(pcm) >> 2
        let mask: Int
        if v < 0 { v = -v; mask = 0x7F } else { mask = 0xFF }
        if v > 8159 { v = 8159 }
        v += 0x84 >> 2
        let seg = segment(v, muLawSegmentEnds)
        if seg >= 8 { return UInt8(0x7F ^ mask) }
        let uval = (seg << 4) | ((v >> (seg + 1)) & 0xF)
        return UInt8(uval ^ mask)
    }

    /// 16-bit linear → A-law byte.
    static func encodeALaw(_ pcm: Int16) -> UInt8 {
        var v = Int(pcm) >> 3
        let mask: Int
        if v >= 0 { mask = 0xD5 } else { mask = 0x55; v = -v - 1 }
        let seg = segment(v, aLawSegmentEnds)
        if seg >= 8 { return UInt8(0x7F ^ mask) }
        var aval = seg << 4
        aval |= seg < 2 ? (v >> 1) & 0xF : (v >> seg) & 0xF
        return UInt8(aval ^ mask)
    }

    /// 65536-entry tables from 16-bit linear (offset by 32768) to the encoded byte, so the
    /// encoder's inner loop is one lookup.
    static let linearToMuLaw: [UInt8] = (0..<65536).map { encodeMuLaw(Int16($0 - 32768)) }
    static let linearToALaw: [UInt8] = (0..<65536).map { encodeALaw(Int16($0 - 32768)) }
}
