import Testing
import AUPipeKit

@Suite struct SampleCodecTests {
    /// Every integer encoding decodes and re-encodes its own values exactly.
    @Test(arguments: SampleEncoding.all)
    func integerGridRoundTripsExactly(encoding: SampleEncoding) {
        // Bytes covering many values: a counting pattern.
        let count = 4096
        var bytes = [UInt8](repeating: 0, count: count * encoding.bytesPerSample)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ i >> 3) }
        if encoding.bits == 32 && encoding.isInteger {
            // Units work in 32-bit float (24-bit mantissa): 32-bit integers keep their top 24 bits.
            let leastSignificant = encoding.isBigEndian ? 3 : 0
            for i in bytes.indices where i % 4 == leastSignificant { bytes[i] = 0 }
        }
        if encoding.isFloat {
            // Only finite floats: build them from decoded tones instead.
            bytes = TestSignals.encode(TestSignals.tones(frames: count, rate: 48000, channels: 1), encoding)
        }
        let decoded = TestSignals.decode(bytes, encoding)
        let again = TestSignals.encode(decoded, encoding)
        if encoding.kind == .muLaw || encoding.kind == .aLaw {
            // G.711 has two codes for zero in µ-law (0x7F, 0xFF); compare decoded values instead.
            let same = TestSignals.decode(again, encoding) == decoded
            #expect(same)
        } else if encoding.bits == 64 {
            // f64 goes through 32-bit float: equal after one trip.
            let same = TestSignals.encode(TestSignals.decode(again, encoding), encoding) == again
            #expect(same)
        } else {
            let same = again == bytes
            #expect(same, "\(encoding.token) changed on a round trip")
            if again != bytes, let i = again.indices.first(where: { again[$0] != bytes[$0] }) {
                Issue.record("first difference at byte \(i): \(bytes[i]) became \(again[i])")
            }
        }
    }

    @Test func scaleIsValueOverTwoToTheBitsMinusOne() {
        #expect(TestSignals.decode([0x00, 0x80], .s16le) == [-1])
        #expect(TestSignals.decode([0xFF, 0x7F], .s16le) == [32767.0 / 32768])
        #expect(TestSignals.decode([0x00, 0x00, 0x40], try! SampleEncoding(token: "s24le")) == [0.5])
        #expect(TestSignals.decode([0x00, 0x40], try! SampleEncoding(token: "s16be")) == [64.0 / 32768])
        #expect(TestSignals.decode([0x80, 0x00, 0xFF], try! SampleEncoding(token: "u8")) == [0, -1, 127.0 / 128])
    }

    @Test func roundsHalfToEvenAndCountsClips() {
        // 0.5 LSB and 1.5 LSB at s16: ties go to the even neighbour.
        let samples: [Float] = [0.5 / 32768, 1.5 / 32768, -0.5 / 32768, 2.5 / 32768, 1.0, -1.0, 1.5, -2, .nan]
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        let clipped = samples.withUnsafeBufferPointer { s in
            bytes.withUnsafeMutableBytes { SampleCodec(.s16le).encode(s.baseAddress!, count: s.count, into: $0.baseAddress!) }
        }
        let values = stride(from: 0, to: bytes.count, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        #expect(values == [0, 2, 0, 2, 32767, -32768, 32767, -32768, 0])
        #expect(clipped == 3) // 1.0, 1.5 and -2 are out of range; -1.0 is not
    }

    @Test func s32ClipsAtFullScale() {
        let e = try! SampleEncoding(token: "s32le")
        var bytes = [UInt8](repeating: 0, count: 12)
        // 1.0 is what Float32 makes of every s32 value from 2147483584 up: full scale, not a clip.
        let clipped = [Float(1), Float(-1), Float(0.25), Float(1.5)].withUnsafeBufferPointer { s in
            bytes.withUnsafeMutableBytes { SampleCodec(e).encode(s.baseAddress!, count: 3, into: $0.baseAddress!) }
        }
        #expect(clipped == 0)
        var more = [UInt8](repeating: 0, count: 4)
        let overflow = [Float(1.5)].withUnsafeBufferPointer { s in
            more.withUnsafeMutableBytes { SampleCodec(e).encode(s.baseAddress!, count: 1, into: $0.baseAddress!) }
        }
        #expect(overflow == 1 && more == [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(Array(bytes[0..<4]) == [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(Array(bytes[4..<8]) == [0x00, 0x00, 0x00, 0x80])
        #expect(Array(bytes[8..<12]) == [0x00, 0x00, 0x00, 0x20])
    }

    @Test func g711MatchesTheReferenceTables() {
        let mu = try! SampleEncoding(token: "mulaw"), a = try! SampleEncoding(token: "alaw")
        // Values from the CCITT reference code (Sun g711.c), as used by sox and ffmpeg.
        #expect(TestSignals.decode([0x00, 0x7F, 0x80, 0xFF], mu).map { Int($0 * 32768) } == [-32124, 0, 32124, 0])
        #expect(TestSignals.decode([0x55, 0xD5, 0x2A, 0xAA], a).map { Int($0 * 32768) } == [-8, 8, -32256, 32256])
        #expect(TestSignals.encode([0, 32124.0 / 32768, -32124.0 / 32768], mu) == [0xFF, 0x80, 0x00])
        #expect(TestSignals.encode([8.0 / 32768, -8.0 / 32768, 32256.0 / 32768], a) == [0xD5, 0x55, 0xAA])
    }
}
