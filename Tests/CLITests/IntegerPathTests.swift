import Foundation
import Testing

/// Signed and unsigned integers of one width convert exactly (the top bit flips, as in ffmpeg)
/// when no unit touches the samples: through float, u32 lost up to 64 LSB.
@Suite struct IntegerPathTests {
    /// u32 values at the bottom, the middle and the top of the range, where float rounds.
    static let u32: [UInt32] = [0, 1, 2, 63, 64, 65, 127, 128, 0x7FFF_FFBF, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001,
                                0x8000_0040, 0xFFFF_FF7F, 0xFFFF_FFBF, 0xFFFF_FFC0, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1234_5679]

    static func bytes(_ values: [UInt32], bigEndian: Bool) -> Data {
        Data(values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (bigEndian ? 24 - 8 * $0 : 8 * $0)) } })
    }

    @Test(arguments: [
        ["--in-format", "u32le:8000:1", "--out-format", "s32le", "-t", "raw"],
        ["--in-format", "u32le:8000:1", "--out-format", "s32be", "-t", "raw"],
        ["--in-format", "u32be:8000:1", "--out-format", "s32le", "-t", "raw"],
        ["--in-format", "u32le:8000:1", "-t", "raw", "convert", "format=s32le"],
        ["--in-format", "u32le:8000:1", "-t", "raw", "convert", "format=s32be"],
        ["--in-format", "u32le:8000:1", "--out-format", "s32le", "-t", "raw", "convert", "format=s32le"],
    ])
    func u32ToS32IsExact(_ arguments: [String]) throws {
        let inBE = arguments[1].hasPrefix("u32be"), outBE = arguments.contains { $0.hasSuffix("s32be") }
        let r = try CLI.aupipe(arguments, stdin: Self.bytes(Self.u32, bigEndian: inBE))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.bytes(Self.u32.map { $0 ^ 0x8000_0000 }, bigEndian: outBE), "aupipe \(arguments.joined(separator: " "))")
    }

    @Test func s32ToU32AndBackRoundTrips() throws {
        let signed = Self.bytes(Self.u32, bigEndian: false) // any bit patterns, read as s32le
        let r = try CLI.shell("\"$AUPIPE\" --in-format s32le:8000:2 --out-format u32be -t raw | \"$AUPIPE\" --in-format u32be:8000:2 --out-format s32le -t raw",
                              stdin: signed + signed.prefix(4))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == signed + signed.prefix(4))
    }

    /// Every width: u8/s8, 16, 24 and 32 bits, with and without a change of byte order. The
    /// samples hold every value of the top byte, with the other bytes counting.
    @Test func everyWidthFlipsTheTopBitAndSwapsAsAsked() throws {
        let cases: [(String, String, Int)] = [("u8", "s8", 1), ("s8", "u8", 1), ("u16le", "s16be", 2), ("s16be", "u16le", 2),
                                              ("u24le", "s24le", 3), ("s24be", "u24be", 3), ("u32be", "s32le", 4), ("s32le", "u32le", 4)]
        for (from, to, width) in cases {
            let fromBE = from.hasSuffix("be"), toBE = to.hasSuffix("be")
            var input: [UInt8] = []
            for top in 0...255 {
                var sample = (0..<(width - 1)).map { UInt8(truncatingIfNeeded: top &* 7 &+ $0 &+ 1) }
                if fromBE { sample.insert(UInt8(top), at: 0) } else { sample.append(UInt8(top)) }
                input += sample
            }
            let r = try CLI.aupipe(["--in-format", "\(from):8000:1", "--out-format", to, "-t", "raw"], stdin: Data(input))
            #expect(r.status == 0, "\(r.stderr)")
            var expected: [UInt8] = []
            for i in 0..<256 {
                var sample = Array(input[(i * width)..<((i + 1) * width)])
                if fromBE != toBE { sample.reverse() }
                sample[toBE || width == 1 ? 0 : width - 1] ^= 0x80
                expected += sample
            }
            #expect(r.stdout == Data(expected), "\(from) -> \(to)")
        }
    }
}
