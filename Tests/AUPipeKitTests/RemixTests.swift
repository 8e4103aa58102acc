import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `remix`: sox's grammar gives sox's factors (the examples of sox's manual), the presets are
/// the published coefficients, and samples are sums with clipping counted.
@Suite struct RemixTests {
    static func format(_ channels: Int) -> StreamFormat { StreamFormat(encoding: .f32le, sampleRate: 48000, channels: channels) }

    /// The matrix `remix ARGS` builds for a stream of `channels` channels.
    func matrix(_ args: [String], channels: Int) throws -> [[Double]] {
        let h = try UnitHarness(["remix"] + args, format: Self.format(channels))
        return try #require(h.unit as? RemixUnit).matrix
    }

    func usageMessage(_ args: [String], channels: Int) -> String? {
        do { _ = try matrix(args, channels: channels); return nil } catch let e as AUPipeError { return e.status == .usage ? e.message : "status \(e.status)" } catch { return "\(error)" }
    }

    @Test func soxManualExamplesGiveSoxFactors() throws {
        // sox(1), remix: "channel level multipliers of 0.5,0.5 1,0.8", then with -a "0.5,0.5 0.5,0.8",
        // with -m "1,1 1,0.8".
        #expect(try matrix(["1,2", "3,4v0.8"], channels: 4) == [[0.5, 0.5, 0, 0], [0, 0, 1, 0.8]])
        #expect(try matrix(["-a", "1,2", "3,4v0.8"], channels: 4) == [[0.5, 0.5, 0, 0], [0, 0, 0.5, 0.8]])
        #expect(try matrix(["scaling=always", "1,2", "3,4v0.8"], channels: 4) == [[0.5, 0.5, 0, 0], [0, 0, 0.5, 0.8]])
        #expect(try matrix(["-m", "1,2", "3,4v0.8"], channels: 4) == [[1, 1, 0, 0], [0, 0, 1, 0.8]])
        // "remix 6 7 8 0": copies of 6, 7, 8 and a silent channel.
        let copies = try matrix(["6", "7", "8", "0"], channels: 8)
        #expect(copies.map { $0.firstIndex(of: 1) } == [5, 6, 7, nil] && copies[3] == [Double](repeating: 0, count: 8))
        // "remix 1-3,7 3": a mix-down of 1, 2, 3 and 7 (1/4 each), and a copy of 3.
        #expect(try matrix(["1-3,7", "3"], channels: 7) == [[0.25, 0.25, 0.25, 0, 0, 0, 0.25], [0, 0, 1, 0, 0, 0, 0]])
        // "remix -": every channel to mono; "1,2i": the mono oops (L − R).
        #expect(try matrix(["-"], channels: 4) == [[0.25, 0.25, 0.25, 0.25]])
        #expect(try matrix(["1,2i"], channels: 2) == [[1, -1]])
    }

    @Test func rangesVolumesAndScalings() throws {
        #expect(try matrix(["2", "1"], channels: 2) == [[0, 1], [1, 0]])
        #expect(try matrix(["-2"], channels: 3) == [[0.5, 0.5, 0]])
        #expect(try matrix(["3-"], channels: 4) == [[0, 0, 0.5, 0.5]])
        #expect(try matrix(["1v0.5,2v0.5"], channels: 2) == [[0.5, 0.5]])
        #expect(try matrix(["1v-1"], channels: 1) == [[-1]])
        let p = try matrix(["1p-6,2i-6"], channels: 2)[0]
        #expect(abs(p[0] - pow(10, -6.0 / 20)) < 1e-15 && abs(p[1] + pow(10, -6.0 / 20)) < 1e-15)
        let power = try matrix(["-p", "1,2"], channels: 2)[0]
        let half = 1 / Double(2).squareRoot()
        #expect(power == [half, half])
        #expect(try matrix(["1,1"], channels: 1) == [[1]])
    }

    @Test func presetsAreThePublishedCoefficients() throws {
        // ITU-R BS.775-3 Table 2 prints 0.7071 for -3 dB; the preset uses 1/sqrt(2), within 5e-5 of it.
        let k = 0.7071
        func near(_ a: [[Double]], _ b: [[Double]]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.count == $1.count && zip($0, $1).allSatisfy { abs($0 - $1) < 5e-5 } }
        }
        //                                      L  R  C  LFE Ls Rs
        #expect(near(try matrix(["preset=5.1-to-stereo"], channels: 6), [[1, 0, k, 0, k, 0], [0, 1, k, 0, 0, k]]))
        //                                      L  R  C  LFE Lb   Rb   Ls Rs
        #expect(near(try matrix(["preset=7.1-to-stereo"], channels: 8), [[1, 0, k, 0, 0.5, 0, k, 0], [0, 1, k, 0, 0, 0.5, 0, k]]))
        #expect(try matrix(["preset=stereo-to-mono"], channels: 2) == [[0.5, 0.5]])
        #expect(try matrix(["preset=ms-encode"], channels: 2) == [[0.5, 0.5], [0.5, -0.5]])
        #expect(try matrix(["preset=ms-decode"], channels: 2) == [[1, 1], [1, -1]])
    }

    @Test func midSideDecodeUndoesEncode() throws {
        let input: [Float] = [0.5, -0.25, 0.125, 0.75, -1, 1, 0, 0.3]
        let encoded = try UnitHarness(["remix", "preset=ms-encode"], format: Self.format(2)).run(input)
        let decoded = try UnitHarness(["remix", "preset=ms-decode"], format: Self.format(2)).run(encoded)
        #expect(zip(decoded, input).allSatisfy { abs($0 - $1) < 1e-7 }, "\(decoded)")
    }

    @Test func samplesAreTheWeightedSums() throws {
        let h = try UnitHarness(["remix", "2", "1v0.5,2v0.25", "0"], format: Self.format(2), block: 3)
        let out = try h.run([0.5, -0.25, 0.1, 0.2, -0.4, 0.8])
        #expect(h.format.channels == 3)
        let expected: [Float] = [-0.25, 0.25 - 0.0625, 0, 0.2, 0.05 + 0.05, 0, 0.8, -0.2 + 0.2, 0]
        #expect(out == expected)
    }

    @Test func sumsBeyondFullScaleAreClippedAndCounted() throws {
        let input: [Float] = [0.8, 0.7, 0.2, 0.1, -0.9, -0.6]
        let clip = try UnitHarness(["remix", "scaling=manual", "1,2"], format: Self.format(2))
        let clipped: [Float] = [1, Float(0.2) + Float(0.1), -1]
        #expect(try clip.run(input) == clipped)
        #expect(clip.clippedSamples == 2)
        #expect(clip.statsNote?.contains("2 samples beyond full scale clipped") == true, "\(clip.statsNote ?? "nil")")
        let keep = try UnitHarness(["remix", "scaling=manual", "overload=keep", "1,2"], format: Self.format(2))
        let kept: [Float] = [Float(0.8) + Float(0.7), Float(0.2) + Float(0.1), Float(-0.9) + Float(-0.6)]
        #expect(try keep.run(input) == kept)
        #expect(keep.clippedSamples == 0 && keep.statsNote?.contains("2 samples beyond full scale kept") == true)
    }

    @Test func gainIsLiveAndGlides() throws {
        let h = try UnitHarness(["remix", "1"], format: Self.format(1))
        try h.push([Float](repeating: 0.5, count: 100))
        try (h.unit as? RemixUnit)?.setParameter("gain", to: .number(-20 * log10(2.0)))
        let after = try h.push([Float](repeating: 0.5, count: 1000))
        #expect(after[0] < 0.5 && after[0] > 0.49, "the glide starts at the old factor")
        #expect(abs(after[999] - 0.25) < 1e-6, "after 10 ms the new factor: \(after[999])")
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 >= $1 }, "monotonic glide")
    }

    @Test func clearErrors() {
        #expect(usageMessage(["3"], channels: 2)?.contains("names input channel 3 but the stream has 2 channels") == true)
        #expect(usageMessage(["preset=5.1-to-stereo"], channels: 2)?.contains("needs 5.1 (6 channels") == true)
        #expect(usageMessage(["1", "-m"], channels: 2)?.contains("must come first") == true)
        #expect(usageMessage(["preset=ms-encode", "1"], channels: 2)?.contains("not both") == true)
        #expect(usageMessage([], channels: 2)?.contains("nothing to do") == true)
        #expect(usageMessage(["1x2"], channels: 2)?.contains("is not a sox out-spec") == true)
        #expect(usageMessage(["3-1"], channels: 3)?.contains("runs backwards") == true)
    }
}

/// The 5.1 and 7.1 presets mix by where the channels play when the header says it.
@Suite struct RemixLayoutTests {
    static func at(_ azimuth: Double) -> ChannelLayout.Speaker { .direction(azimuth: azimuth, elevation: 0) }

    func matrix(_ preset: String, layout: ChannelLayout) throws -> [[Double]] {
        let unit = try RemixUnit(specs: [], scaling: .auto, preset: RemixPreset(rawValue: preset), overload: .clip, gain: 0)
        let format = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: layout.speakers.count)
        _ = try unit.prepare(PrepareContext(input: format, maxFrames: 480, layout: layout))
        return unit.matrix
    }

    @Test func coreAudiosMPEG51CIsMixedByPosition() throws {
        // C L R Ls Rs LFE (kAudioChannelLayoutTag_MPEG_5_1_C).
        let layout = ChannelLayout(speakers: [Self.at(0), Self.at(30), Self.at(-30), Self.at(110), Self.at(-110), .lowFrequency])
        let k = RemixPreset.minus3dB
        #expect(try matrix("5.1-to-stereo", layout: layout) == [[k, 1, 0, k, 0, 0], [k, 0, 1, 0, k, 0]])
    }

    @Test func theWAVOrderIsKeptAndAssumedWhenUnknown() throws {
        let k = RemixPreset.minus3dB
        #expect(try matrix("5.1-to-stereo", layout: .standard(channels: 6)) == RemixPreset.surround51ToStereo.matrix)
        #expect(try matrix("7.1-to-stereo", layout: .standard(channels: 8)) == RemixPreset.surround71ToStereo.matrix)
        let unknown = ChannelLayout(speakers: [ChannelLayout.Speaker](repeating: .unknown, count: 6))
        #expect(try matrix("5.1-to-stereo", layout: unknown) == [[1, 0, k, 0, k, 0], [0, 1, k, 0, 0, k]])
    }
}
