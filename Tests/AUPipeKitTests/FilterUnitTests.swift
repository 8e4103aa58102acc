import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The filter units alone (`UnitHarness`): live glides, `channels=`, the band grammar, the
/// Equalizer APO parser, and the designs' analytic points.
@Suite struct FilterUnitTests {
    static let mono = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 1)

    static func sine(_ hz: Double, frames: Int, rate: Double = 48000, level: Float = 0.5) -> [Float] {
        (0..<frames).map { level * Float(sin(2 * Double.pi * hz * Double($0) / rate)) }
    }

    static func peak(_ x: ArraySlice<Float>) -> Float { x.map(abs).max() ?? 0 }

    @Test func aLiveGainChangeGlidesWithoutAJumpAndLandsOnTheNewFilter() throws {
        let h = try UnitHarness(["equalizer", "1k", "gain=0", "q=1"], format: Self.mono, block: 480)
        let input = Self.sine(1000, frames: 48000)
        try h.push(Array(input[0..<24000]))
        let live = try #require(h.unit as? any LiveControllable)
        try live.setParameter("gain", to: .number(-20))
        #expect(h.get("gain") == "-20")
        try h.push(Array(input[24000...]))
        let out = h.output
        // Before: 0 dB; a glide of 20 ms (960 frames); after: −20 dB at the centre.
        #expect(abs(Self.peak(out[20000..<24000]) - 0.5) < 1e-4)
        #expect(abs(20 * log10(Double(Self.peak(out[30000..<48000])) / 0.5) + 20) < 0.01)
        // No click: no step larger than the sine's own steepest one (2π·1k/48k·0.5 ≈ 0.065).
        let steps = zip(out[23000..<26000], out[23001..<26001]).map { abs($1 - $0) }
        #expect(steps.max()! < 0.0655, "largest step \(steps.max()!)")
        // The glide took 20 ms: half-way through it, the level is between the two.
        let mid = Self.peak(out[24420..<24540])
        #expect(mid < 0.45 && mid > 0.06, "mid-glide peak \(mid)")
    }

    /// A glide's steps follow the stream, not the blocks: a change made at frame 3360 gives the
    /// same samples in blocks of 7 as in blocks of 480 (3360 is a multiple of both).
    @Test func aGlideIsTheSameForEveryBlockSize() throws {
        let input = Self.sine(700, frames: 9600)
        var outputs: [[UInt32]] = []
        for block in [7, 480] {
            let h = try UnitHarness(["eq", "peak,1k,gain=6,q=2", "lowshelf,200,gain=-3"], format: Self.mono, block: block)
            try h.push(Array(input[0..<3360]))
            let live = try #require(h.unit as? any LiveControllable)
            try live.setParameter("band1.freq", to: .number(500))
            try live.setParameter("band2.gain", to: .number(4))
            try h.push(Array(input[3360...]))
            outputs.append(h.output.map(\.bitPattern))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func aLiveFrequencyChangeOfAnEqBandMovesTheNotch() throws {
        let h = try UnitHarness(["eq", "peak,1k,gain=-30,q=4", "peak,5k,gain=0"], format: Self.mono, block: 256)
        let live = try #require(h.unit as? any LiveControllable)
        #expect(live.liveParameterNames.contains("band2.freq"))
        #expect(live.liveParameter("band2.gain")?.isLive == true)
        try live.setParameter("band1.freq", to: .number(2000))
        try h.push(Self.sine(2000, frames: 24000))
        #expect(abs(20 * log10(Double(Self.peak(h.output[12000...])) / 0.5) + 30) < 0.01)
        #expect(throws: AUPipeError.self) { try live.setParameter("band3.gain", to: .number(1)) }
    }

    /// Stereo runs both channels in one vector; each channel's samples are those of the same
    /// filter on that channel alone (the scalar path), bit for bit.
    @Test func stereoIsTheSameAsEachChannelAlone() throws {
        let args = ["eq", "peak,1k,gain=-6,q=0.7", "highpass,80,order=5", "lowshelf,200,gain=3", "notch,50,q=3", "allpass,2k"]
        let input = TestSignals.tones(frames: 4801, rate: 48000, channels: 2)
        let stereo = try UnitHarness(args, format: .init(encoding: .f32le, sampleRate: 48000, channels: 2), block: 480).run(input)
        for c in 0..<2 {
            let alone = try UnitHarness(args, format: Self.mono, block: 480).run(stride(from: c, to: input.count, by: 2).map { input[$0] })
            #expect(stride(from: c, to: stereo.count, by: 2).map { stereo[$0].bitPattern } == alone.map(\.bitPattern), "channel \(c)")
        }
    }

    @Test func channelsLeavesTheOthersUntouched() throws {
        let stereo = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
        let h = try UnitHarness(["highpass", "1k", "channels=1"], format: stereo)
        let input = TestSignals.tones(frames: 4800, rate: 48000, channels: 2)
        let out = try h.run(input)
        #expect(stride(from: 0, to: out.count, by: 2).allSatisfy { out[$0] == input[$0] })
        #expect(stride(from: 1, to: out.count, by: 2).contains { out[$0] != input[$0] })
        #expect(throws: AUPipeError.self) { try UnitHarness(["highpass", "1k", "channels=2"], format: stereo) }
    }

    /// A 20 Hz high-pass at 192 kHz: poles 0.0005 from the unit circle, still −3.01 dB at 20 Hz
    /// and flat at 1 kHz in a steady sine, as double-precision state keeps it.
    @Test func aTwentyHertzHighpassAt192kIsExact() throws {
        let format = StreamFormat(encoding: .f32le, sampleRate: 192000, channels: 1)
        for (hz, expected) in [(20.0, -3.0103), (1000.0, 0.0)] {
            let h = try UnitHarness(["highpass", "20", "order=2"], format: format, block: 4096)
            let frames = 192000 * 2
            let out = try h.run(Self.sine(hz, frames: frames, rate: 192000))
            let level = 20 * log10(Double(Self.peak(out[(frames / 2)...])) / 0.5)
            #expect(abs(level - expected) < 0.01, "\(hz) Hz: \(level) dB")
        }
    }

    @Test func butterworthSectionsMatchTheAnalogPoles() {
        // Q of the pole pairs of an order-4 Butterworth: 1/(2 sin(π/8)), 1/(2 sin(3π/8)).
        let qs = ButterworthDesign.sectionQs(order: 4)
        #expect(abs(qs[0] - 1.306562964876377) < 1e-12 && abs(qs[1] - 0.541196100146197) < 1e-12)
        #expect(ButterworthDesign.sectionCount(order: 5) == 3 && ButterworthDesign.sectionCount(order: 8, linkwitzRiley: true) == 4)
    }

    @Test(arguments: [
        ("peak", "does not start with a kind and a frequency"),
        ("wobble,1k", "does not start with a kind"),
        ("peak,x", "not a number of Hz"),
        ("peak,1k,gain=99", "not a number in -60...60"),
        ("lowpass,1k,gain=3", "which a lowpass band does not take"),
        ("highpass,80,order=3,q=1", "one second-order section"),
        ("lowpass,1k,order=3,type=linkwitz-riley", "odd order 3"),
        ("lowshelf,100,gain=3,q=1,slope=0.5", "both q= and slope="),
        ("peak,1k,gain=1,gain=2", "gain= twice"),
    ])
    func aBadBandIsOneClearError(band: String, message: String) {
        do {
            _ = try UnitHarness(["eq", band], format: Self.mono)
            Issue.record("eq \(band) was accepted")
        } catch let e as AUPipeError {
            #expect(e.status == .usage && e.message.hasPrefix("eq: band=\(band) ") && e.message.contains(message), "\(e.message)")
        } catch { Issue.record("\(error)") }
    }

    @Test func theEqualizerAPOParserReadsAutoEQsTypes() throws {
        var file = EqualizerAPOFile()
        for line in ["Preamp: -6.2 dB", "Filter 1: ON PK Fc 105 Hz Gain -3.1 dB Q 0.70", "Filter 2: ON LSC 12 dB Fc 100 Hz Gain 4 dB",
                     "Filter: ON HP Fc 20 Hz", "Filter 4: ON NO Fc 50 Hz BW Oct 0.2", "Filter 5: OFF PK Fc 1 Hz Gain 3 dB Q 1",
                     "  # comment", "", "Filter 6: ON HPQ Fc 30 Hz Q 0.5"] {
            try file.parse(line: line)
        }
        #expect(file.preamp == -6.2)
        #expect(file.bands == [
            FilterBand(kind: .peaking, frequency: 105, gain: -3.1, width: .q(0.7)),
            FilterBand(kind: .lowshelf, frequency: 100, gain: 4, width: .slope(1)),
            FilterBand(kind: .highpass, frequency: 20),
            FilterBand(kind: .notch, frequency: 50, width: .octaves(0.2)),
            FilterBand(kind: .highpass, frequency: 30, width: .q(0.5)),
        ])
    }

    @Test func biquadRefusesAnUnstableFilter() {
        #expect(throws: AUPipeError.self) { try UnitHarness(["biquad", "a1=-1.9", "a2=0.95", "b0=1", "a0=0.9"], format: Self.mono) }
        #expect(BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: -1.9, a2: 0.95).isStable)
    }
}
