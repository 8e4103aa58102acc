import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// A chain that only selects, reorders, duplicates or silences channels (`remix 2 1`,
/// `convert map=`) runs on the stream's bytes (`FrameShuffle`), and writes exactly the bytes the
/// float path writes, for every encoding and odd channel counts; chains that change a sample
/// keep the float path.
@Suite struct ChannelSelectionBytePathTests {
    /// Deterministic bytes: every bit pattern is a sample of an integer encoding.
    static func noise(_ count: Int, seed: UInt32 = 0x2545_F491) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Raw audio in `encoding`: random bytes for integers; for floats, tones with a negative
    /// zero and values beyond full scale (no NaN: a signalling NaN's payload is the one thing
    /// a float multiply by 1 changes).
    static func material(_ encoding: SampleEncoding, frames: Int, channels: Int) -> [UInt8] {
        if encoding.isInteger || encoding.kind == .muLaw || encoding.kind == .aLaw {
            return noise(frames * channels * encoding.bytesPerSample)
        }
        var x = TestSignals.tones(frames: frames, rate: 48000, channels: channels, level: 1.4)
        x[0] = -0.0
        x[x.count / 2] = -3
        return TestSignals.encode(x, encoding)
    }

    /// Runs `chain` on raw `input`; `floatPath` forces decoding (peaks for `--stats` need the floats).
    static func run(_ chain: [[String]], _ input: [UInt8], _ format: StreamFormat, floatPath: Bool = false, block: Int? = nil,
                    chunk: Int = .max) throws -> (bytes: [UInt8], report: RunReport) {
        try TestSignals.run(chain, input, block: block, chunk: chunk) { o in
            o.inFormat = format
            o.container = .raw
            if floatPath { o.stats = .json }
        }
    }

    /// Whether a float round trip keeps every sample of `encoding`, so that bytes may be moved.
    static func keepsBytes(_ e: SampleEncoding) -> Bool {
        (e.isInteger && e.bits <= 24) || (e.kind == .float && e.bits == 32)
    }

    static let selections: [(channels: Int, chain: [[String]])] = [
        (1, [["remix", "1", "0", "1"]]),
        (1, [["convert", "channels=3"]]),
        (3, [["remix", "3", "1", "0", "2", "2"]]),
        (3, [["remix", "3", "1", "0", "2", "2", "overload=keep"]]),
        (3, [["convert", "map=2,0,1"], ["remix", "2", "3", "1p0"]]),
        (5, [["remix", "5", "4", "3", "2", "1"]]),
        (2, [["remix", "2", "1"]]),
        (2, [["remix", "2", "1", "overload=keep"]]),
    ]

    @Test("every encoding, odd channel counts: moved as bytes where the float round trip is exact, and the float path's bytes either way",
          arguments: SampleEncoding.all)
    func sameBytesAsTheFloatPath(encoding: SampleEncoding) throws {
        for (channels, chain) in Self.selections {
            let format = StreamFormat(encoding: encoding, sampleRate: 48000, channels: channels)
            let input = Self.material(encoding, frames: 1001, channels: channels)
            let viaFloat = try Self.run(chain, input, format, floatPath: true)
            let fast = try Self.run(chain, input, format)
            #expect(!viaFloat.report.movedAsBytes)
            // remix's default overload=clip would change float samples beyond full scale.
            let clipsFloats = encoding.kind == .float && chain.contains { $0[0] == "remix" && !$0.contains("overload=keep") }
            let expected = Self.keepsBytes(encoding) && !clipsFloats
            #expect(fast.report.movedAsBytes == expected, "\(encoding.token) \(chain)")
            #expect(fast.bytes == viaFloat.bytes, "\(encoding.token) \(channels) ch \(chain)")
            #expect(fast.report.framesOut == 1001 && fast.report.encoderClipped == 0)
        }
    }

    @Test("remix 2 1 on s16 swaps each frame's two samples, for any block and read size; a stage's counts stay right")
    func swapIsExact() throws {
        let format = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let input = Self.noise(4 * 4801)
        var swapped = input
        for f in 0..<4801 {
            swapped[4 * f ..< 4 * f + 2] = input[4 * f + 2 ..< 4 * f + 4]
            swapped[4 * f + 2 ..< 4 * f + 4] = input[4 * f ..< 4 * f + 2]
        }
        for (block, chunk) in [(nil, Int.max), (1, 7), (4096, 1001)] as [(Int?, Int)] {
            let r = try Self.run([["remix", "2", "1"]], input, format, block: block, chunk: chunk)
            #expect(r.report.movedAsBytes)
            #expect(r.bytes == swapped)
            #expect(r.report.stages.map(\.framesIn) == [4801] && r.report.stages.map(\.framesOut) == [4801])
            #expect(r.report.stages.map(\.clipped) == [0])
        }
        // Swapped twice is the input.
        #expect(try Self.run([["remix", "2", "1"], ["convert", "map=1,0"]], input, format).bytes == input)
    }

    @Test("s24 with a silent channel: zeros; u8 and u16be: the encoding's own zero (offset binary)")
    func silenceIsTheEncodingsZero() throws {
        for (token, zero) in [("s24le", [UInt8](repeating: 0, count: 3)), ("u8", [0x80]), ("u16be", [0x80, 0x00])] {
            let e = try SampleEncoding(token: token)
            let format = StreamFormat(encoding: e, sampleRate: 8000, channels: 1)
            let input = Self.noise(10 * e.bytesPerSample)
            let r = try Self.run([["remix", "0", "1"]], input, format)
            #expect(r.report.movedAsBytes, "\(token)")
            let w = e.bytesPerSample
            for f in 0..<10 {
                #expect(Array(r.bytes[(2 * f) * w ..< (2 * f + 1) * w]) == zero, "\(token) frame \(f)")
                #expect(r.bytes[(2 * f + 1) * w ..< (2 * f + 2) * w] == input[f * w ..< (f + 1) * w], "\(token) frame \(f)")
            }
        }
    }

    @Test("chains that change samples keep the float path", arguments: [
        [["remix", "1,2"]], [["remix", "2v0.5", "1"]], [["remix", "2", "1", "gain=-1"]], [["remix", "2i0", "1"]],
        [["remix", "preset=ms-encode"]], [["remix", "2", "1"], ["gain", "-1"]], [["convert", "channels=1"]],
        [["convert", "format=u8", "map=1,0"], ["gain", "0"]],
    ])
    func samplesChangedNotMoved(chain: [[String]]) throws {
        let format = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let r = try Self.run(chain, Self.noise(4 * 500), format)
        #expect(!r.report.movedAsBytes)
    }

    @Test("an output encoding other than the input's, and a controlled run, keep the float path")
    func otherEncodingOrControlNotMoved() throws {
        let input = Self.noise(4 * 500)
        let format = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let converted = try TestSignals.run([["remix", "2", "1"]], input) { o in
            o.inFormat = format
            o.container = .raw
            o.outFormat = try! FormatSpec.components("s24le", option: "--out-format")
        }
        #expect(!converted.report.movedAsBytes && converted.report.framesOut == 500)
        // Live control may change remix's gain: no selection is promised.
        let remix = try RemixUnit(specs: ["2", "1"], scaling: .auto, preset: nil, overload: .clip, gain: 0)
        let controlled = try Chain(stages: [ChainStage("remix", remix)], input: format, maxFrames: 480, measurePeaks: false, allowBypass: false)
        #expect(controlled.channelSelection == nil)
        let free = try Chain(stages: [ChainStage("remix", RemixUnit(specs: ["2", "1"], scaling: .auto, preset: nil, overload: .clip, gain: 0))],
                             input: format, maxFrames: 480, measurePeaks: false)
        #expect(free.channelSelection == [1, 0])
    }
}
