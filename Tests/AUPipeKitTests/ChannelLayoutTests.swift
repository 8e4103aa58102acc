import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `ChannelLayout` from WAV masks and CAF `chan` chunks, and the BS.1770-4 weight of each place.
@Suite struct ChannelLayoutTests {
    func chan(tag: UInt32, bitmap: UInt32 = 0, labels: [UInt32] = []) -> [UInt8] {
        var b: [UInt8] = []
        func be(_ v: UInt32) { b += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        be(tag); be(bitmap); be(UInt32(labels.count))
        for l in labels { be(l); be(0); be(0); be(0); be(0) }
        return b
    }

    func weights(_ layout: ChannelLayout) -> [Double] { layout.speakers.map(LoudnessChannelMap.weight) }

    @Test func wavMasksGiveOneWeightPerChannel() {
        // 7.1: FL FR FC LFE BL BR SL SR.
        #expect(weights(.standard(channels: 8)) == [1, 1, 1, 0, 1, 1, 1.41, 1.41])
        // FL FR FC LFE BL: the LFE out; with no side pair the back left is 5.1's surround, 110°.
        #expect(weights(ChannelLayout(wavMask: 0x1F, channels: 5)) == [1, 1, 1, 0, 1.41])
        // 5.1 (FL FR FC LFE BL BR) and quad (FL FR BL BR): surrounds at 110°.
        #expect(weights(.standard(channels: 6)) == [1, 1, 1, 0, 1.41, 1.41])
        #expect(weights(ChannelLayout(wavMask: 0x33, channels: 4)) == [1, 1, 1.41, 1.41])
        // Fewer mask bits than channels: the rest have no place and weigh 1.
        #expect(weights(ChannelLayout(wavMask: 0x600, channels: 3)) == [1.41, 1.41, 1])
        #expect(weights(ChannelLayout(wavMask: 0, channels: 2)) == [1, 1])
        // Top front left is 45° up: 1.0.
        #expect(weights(ChannelLayout(wavMask: 0x1000, channels: 1)) == [1])
    }

    @Test func cafChunksByBitmapTagAndLabels() throws {
        let bitmap = try #require(ChannelLayout(cafChan: chan(tag: 0x1_0000, bitmap: 0x60F), channels: 6))
        #expect(weights(bitmap) == [1, 1, 1, 0, 1.41, 1.41])
        // MPEG_5_1_A: L R C LFE Ls Rs, the surrounds at 110°.
        let tag = try #require(ChannelLayout(cafChan: chan(tag: 121 << 16 | 6), channels: 6))
        #expect(weights(tag) == [1, 1, 1, 0, 1.41, 1.41])
        // MPEG_7_1_C as aupipe and ffmpeg write it: the WAV 7.1.
        #expect(ChannelLayout(cafChan: chan(tag: 128 << 16 | 8), channels: 8) == .standard(channels: 8))
        // Descriptions: Left, LFE2, RearSurroundLeft, LeftSurroundDirect, an unknown label.
        let labels = try #require(ChannelLayout(cafChan: chan(tag: 0, labels: [1, 37, 33, 10, 0xFFFF_FFFF]), channels: 5))
        #expect(weights(labels) == [1, 0, 1, 1.41, 1])
        // A tag for another channel count, or not known: nil (the default layout is used).
        #expect(ChannelLayout(cafChan: chan(tag: 121 << 16 | 6), channels: 8) == nil)
        #expect(ChannelLayout(cafChan: chan(tag: 999 << 16 | 2), channels: 2) == nil)
    }

    @Test func layoutFollowsTheChainUntilTheChannelCountChanges() throws {
        final class Probe: AudioUnit {
            var seen: ChannelLayout?
            let out: Int
            init(out: Int) { self.out = out }
            func prepare(_ context: PrepareContext) throws -> StreamFormat {
                seen = context.layout
                var f = context.input
                f.channels = out
                return f
            }
            func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int { frames }
        }
        let a = Probe(out: 5), b = Probe(out: 2), c = Probe(out: 2)
        let input = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 5)
        let given = ChannelLayout(wavMask: 0x1F, channels: 5)
        _ = try Chain(stages: [ChainStage("a", a), ChainStage("b", b), ChainStage("c", c)], input: input, maxFrames: 64,
                      measurePeaks: false, layout: given)
        #expect(a.seen == given)
        #expect(b.seen == given)
        #expect(c.seen == .standard(channels: 2))
    }
}
