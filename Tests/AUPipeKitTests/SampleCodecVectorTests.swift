import Testing
@testable import AUPipeFormats

/// The s16le encoder's vector loop (`SampleCodec.encodeS16LE`) against the scalar rule it
/// replaces (`SampleCodec.s16`), sample by sample: rounding ties, the clip edges, NaN,
/// infinities, and every length around its 8-sample step.
@Suite struct SampleCodecVectorTests {
    static let edges: [Float] = [
        0, -0.0, .nan, -.nan, .infinity, -.infinity, 1, -1, 0.5 / 32768, 1.5 / 32768, 2.5 / 32768, -0.5 / 32768, -1.5 / 32768,
        32767.5 / 32768, 32767.499 / 32768, -32768.5 / 32768, -32768.51 / 32768, 1.0001, -1.0001, 1e30, -1e30,
        .leastNonzeroMagnitude, -.leastNormalMagnitude, 0.999969, -0.99997, 12345.5 / 32768, -12346.5 / 32768,
    ]

    /// Deterministic values in about ±1.2 (some clip), with the edges mixed in.
    static func material(_ count: Int) -> [Float] {
        var state: UInt32 = 12345
        return (0..<count).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            return i % 5 == 0 ? edges[Int(state >> 8) % edges.count] : (Float(state >> 8) / Float(1 << 24) - 0.5) * 2.4
        }
    }

    @Test("the same bytes and clip count as the scalar rule, for every length from 0 to 70")
    func sameAsScalar() {
        let x = Self.material(70 + 7)
        for count in 0...70 {
            for offset in [0, 3] {
                var scalarClips = 0
                let expected: [UInt16] = (0..<count).map { UInt16(bitPattern: SampleCodec.s16(x[offset + $0], clipped: &scalarClips)).littleEndian }
                var bytes = [UInt16](repeating: 0xAAAA, count: count + 1)
                let clips = x.withUnsafeBufferPointer { s in
                    bytes.withUnsafeMutableBytes { SampleCodec.encodeS16LE(s.baseAddress! + offset, count: count, into: $0.baseAddress!) }
                }
                #expect(Array(bytes.prefix(count)) == expected, "length \(count), offset \(offset)")
                #expect(bytes[count] == 0xAAAA, "wrote past the end at length \(count)")
                #expect(clips == scalarClips, "length \(count), offset \(offset)")
            }
        }
        var all = 0
        _ = Self.edges.map { SampleCodec.s16($0, clipped: &all) }
        #expect(all > 0, "the edges include clipped values, or the count could not be checked")
    }
}
