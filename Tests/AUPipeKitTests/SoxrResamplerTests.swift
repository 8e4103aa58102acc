import Testing
import CSoxr
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// `resample engine=soxr`: libsoxr behind `Resampler`'s exact-length, zero-delay bookkeeping,
/// at each recipe, against direct libsoxr calls; and its variable-rate mode for clock drift.
@Suite struct SoxrResamplerTests {
    static let recipes = SoxrRecipe.allCases

    /// A direct libsoxr call over the whole input (float in and out, one thread, no dither),
    /// flushed at the end: the reference.
    static func direct(_ input: [Float], channels: Int, from: Int, to: Int, recipe: SoxrRecipe) -> [Float] {
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var q = soxr_quality_spec(recipe.soxrRecipe, 0)
        var rt = soxr_runtime_spec(1)
        var err: soxr_error_t? = nil
        let s = soxr_create(Double(from), Double(to), UInt32(channels), &err, &io, &q, &rt)!
        defer { soxr_delete(s) }
        let frames = input.count / channels
        var out = [Float](repeating: 0, count: (frames * to / from + 4096) * channels)
        var made = 0, tail = 0
        out.withUnsafeMutableBufferPointer { o in
            var done = 0
            _ = soxr_process(s, input, frames, &done, o.baseAddress!, o.count / channels, &made)
            _ = soxr_process(s, nil, 0, nil, o.baseAddress! + made * channels, o.count / channels - made, &tail)
        }
        return Array(out[..<((made + tail) * channels)])
    }

    static func resample(_ x: [Float], channels: Int, from: Int, to: Int, _ settings: ResamplerSettings, block: Int) throws -> [Float] {
        try ResamplerTests.run(Resampler(channels: channels, from: from, to: to, settings: settings, maxFrames: block), x, block: block).output
    }

    @Test(arguments: recipes)
    func aMillionAndOneFramesGiveTheExactLength(recipe: SoxrRecipe) throws {
        let x = [Float](repeating: 0.25, count: 1_000_001)
        let y = try Self.resample(x, channels: 1, from: 44100, to: 48000, .soxr(recipe), block: 4096)
        #expect(y.count == 1_088_436)
    }

    @Test(arguments: recipes)
    func lengthIsExactForAwkwardLengthsAndRatios(recipe: SoxrRecipe) throws {
        for (from, to) in [(44100, 48000), (48000, 16000), (16000, 48000), (48000, 47999), (8000, 44100)] {
            for n in [1, 2, 7, 479, 4097, 12345] {
                let y = try Self.resample([Float](repeating: 0.25, count: 2 * n), channels: 2, from: from, to: to, .soxr(recipe), block: 480)
                #expect(y.count == 2 * Int(Resampler.expectedOutputFrames(Int64(n), from: from, to: to)), "\(n) frames \(from)->\(to)")
            }
        }
    }

    @Test(arguments: recipes)
    func anImpulseLandsOnItsIdealSampleWhateverTheBlock(recipe: SoxrRecipe) throws {
        for (from, to, at) in [(16000, 48000, 1000), (48000, 16000, 3000), (44100, 48000, 441), (48000, 44100, 4800), (8000, 44100, 960)] {
            var x = [Float](repeating: 0, count: 8000)
            x[at] = 0.9
            let ideal = Int((Double(at) * Double(to) / Double(from)).rounded())
            for block in [1, 7, 480, 4096] {
                let y = try Self.resample(x, channels: 1, from: from, to: to, .soxr(recipe), block: block)
                let peak = y.indices.max { abs(y[$0]) < abs(y[$1]) }!
                #expect(peak == ideal, "\(recipe) \(from)->\(to), block \(block): the impulse at \(at) came out at \(peak), not \(ideal)")
            }
        }
    }

    /// The same bytes whatever the block size, and within 1 LSB of 16 bits of a direct call.
    @Test(arguments: recipes)
    func blockSizeChangesNothingAndADirectCallAgrees(recipe: SoxrRecipe) throws {
        for (from, to) in [(44100, 48000), (48000, 16000), (16000, 48000)] {
            let x = TestSignals.tones(frames: 20000, rate: from, channels: 2)
            let outputs = try [1, 7, 480, 4096].map { try Self.resample(x, channels: 2, from: from, to: to, .soxr(recipe), block: $0) }
            for y in outputs.dropFirst() { #expect(y == outputs[0], "\(recipe) \(from)->\(to): block size changed the output") }
            let reference = Self.direct(x, channels: 2, from: from, to: to, recipe: recipe)
            let y = outputs[0]
            #expect(y.count <= reference.count + 2)
            let worst = zip(y, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1.0 / 32768, "\(recipe) \(from)->\(to): \(worst) from a direct libsoxr call")
        }
    }

    /// The power of `hz` in `y` (at `rate`) relative to a full-scale sine, in dB (Goertzel
    /// over a Hann window).
    static func level(_ y: [Float], rate: Int, hz: Double) -> Double {
        let n = y.count, w = 2 * Double.pi * hz / Double(rate)
        var re = 0.0, im = 0.0, gain = 0.0
        for i in 0..<n {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n))
            re += Double(y[i]) * hann * cos(w * Double(i))
            im -= Double(y[i]) * hann * sin(w * Double(i))
            gain += hann
        }
        return 20 * log10(max(2 * (re * re + im * im).squareRoot() / gain, 1e-30))
    }

    /// How far below a 9 kHz tone at −1 dBFS its 7 kHz alias stays from 48 kHz to 16 kHz (f32
    /// out), in dB, a few dB under what each setting measures (in brackets). soxr's quick is
    /// cubic interpolation without an anti-alias filter: the alias comes out at the tone's level.
    static let aliasFloor: [(ResamplerSettings, Double)] = [
        (.soxr(.quick), -0.5), (.soxr(.low), 105) /* 109 */, (.soxr(.medium), 112) /* 116 */,
        (.soxr(.high), 144) /* 147 */, (.soxr(.veryHigh), 185) /* 191 */,
        (ResamplerSettings(engine: .speex, quality: 3), 84) /* 87.6 */, (ResamplerSettings(engine: .speex, quality: 4), 85) /* 88.4 */,
        (ResamplerSettings(engine: .speex, quality: 10), 137) /* 140.7 */,
    ]

    @Test(arguments: aliasFloor)
    func aliasesAreRejected(settings: ResamplerSettings, floor: Double) throws {
        let amplitude = Float(pow(10, -1.0 / 20))
        let x = ResamplerTests.sine(frames: 96000, rate: 48000, hz: 9000, amplitude: amplitude)
        let y = try Self.resample(x, channels: 1, from: 48000, to: 16000, settings, block: 4096)
        let judged = Array(y[4000..<28000])
        let rejection = -1 - Self.level(judged, rate: 16000, hz: 7000)
        #expect(rejection >= floor, "\(settings.engine) \(settings.qualityName): the 7 kHz alias only \(rejection) dB below the tone")
    }

    /// Clock-drift tracking with soxr's variable-rate mode: the ratio ramped up and back, no
    /// click, as many frames as the ratio's integral; and the impulse on its ideal sample at a
    /// held ratio (upsampling: on one of the two frames nearest it, see the residual below).
    @Test(arguments: [(48000, 48000, 1.0001), (44100, 48000, 1.0001), (48000, 16000, 0.9999), (16000, 48000, 1.0001)])
    func aRampedRatioNeitherClicksNorLosesFrames(from: Int, to: Int, peak: Double) throws {
        let block = from / 100
        let x = ResamplerTests.sine(frames: 6 * from, rate: from, hz: 1000)
        let r = try Resampler(channels: 1, from: from, to: to, settings: .soxr(.high), maxFrames: block, maxDrift: 0.001)
        let ramp: (Int) -> Double = { frame in
            let t = Double(frame) / Double(from)
            let rise = min(max((t - 1) / 2, 0), 1), fall = min(max((t - 4) / 1, 0), 1)
            return 1 + (peak - 1) * (rise - fall)
        }
        let (y, integral) = try ResamplerTests.run(r, x, block: block, factor: ramp)
        #expect(abs(Double(y.count) - integral) <= 2, "\(y.count) frames for a ratio whose integral is \(integral)")
        let (step, curve) = ResamplerTests.roughness(Array(y[..<(y.count - to / 100)]), start: to / 100, rate: to, hz: 1000, amplitude: 0.5)
        #expect(step <= 1.01, "largest step \(step) × the sine's own")
        #expect(curve <= 1.05, "largest second difference \(curve) × the sine's own")

        var impulse = [Float](repeating: 0, count: 8000)
        impulse[3000] = 0.9
        let fixedRatio = try Resampler(channels: 1, from: from, to: to, settings: .soxr(.high), maxFrames: 480, maxDrift: 0.001)
        let z = try ResamplerTests.run(fixedRatio, impulse, block: 480).output
        let at = z.indices.max { abs(z[$0]) < abs(z[$1]) }!
        let ideal = 3000 * Double(to) / Double(from)
        // The engine moves soxr's variable-rate filter by whole frames (see SoxrResamplerEngine).
        // Its centre of gravity is then 0.39 frame early downsampling (the filter rings after its
        // peak), within half a frame upsampling (16k->48k: exactly half, two equal frames).
        var moment = 0.0, mass = 0.0
        for i in max(0, at - 2048)..<min(z.count, at + 2049) { moment += Double(i) * Double(z[i]); mass += Double(z[i]) }
        let residual = moment / mass - ideal
        if to > from {
            #expect(abs(residual) <= 0.5001, "centre \(moment / mass), ideal \(ideal)")
            #expect(abs(Double(at) - (ideal + residual)) <= 0.5001, "the peak at \(at) is not a frame next to the centre \(moment / mass)")
        } else {
            #expect(at == Int(ideal.rounded()), "the impulse at 3000 came out at \(at), not \(ideal)")
            #expect(abs(residual + 0.39) <= 0.02, "centre \(moment / mass), ideal \(ideal): residual \(residual)")
        }
    }

    /// A quality of the other engine's kind is refused, naming the engine's own.
    @Test func aQualityOfTheOtherEngineIsAUsageError() throws {
        for args in [["16000", "engine=soxr", "quality=4"], ["16000", "engine=speex", "quality=high"], ["16000", "engine=speex", "quality=very-high"]] {
            do {
                _ = try ResampleUnit.descriptor.instantiate(args)
                Issue.record("\(args) accepted")
            } catch let e as AUPipeError {
                #expect(e.status == .usage, "\(e.message)")
                #expect(e.message.hasPrefix("resample: quality="), "\(e.message)")
                #expect(!e.message.contains("\n"))
            }
        }
        let soxr = try #require(try ResampleUnit.descriptor.instantiate(["16000", "engine=soxr"]) as? ResampleUnit)
        #expect(soxr.settings == .soxr(.high))
        let vhq = try #require(try ResampleUnit.descriptor.instantiate(["16000", "engine=soxr", "quality=very-high"]) as? ResampleUnit)
        #expect(vhq.settings == .soxr(.veryHigh))
    }

    /// Without `engine=`: the default (soxr high); a quality names its engine, an integer
    /// speex's (as when speex was the default: `resample 16000 quality=3` keeps its bytes), a
    /// recipe soxr's.
    @Test func withoutEngineTheQualityNamesIt() throws {
        for (args, settings) in [(["16000"], ResamplerSettings.soxr(.high)),
                                 (["16000", "quality=3"], ResamplerSettings(engine: .speex, quality: 3)),
                                 (["16000", "quality=10"], ResamplerSettings(engine: .speex, quality: 10)),
                                 (["16000", "quality=very-high"], .soxr(.veryHigh)),
                                 (["16000", "engine=speex"], ResamplerSettings(engine: .speex, quality: 4))] {
            let unit = try #require(try ResampleUnit.descriptor.instantiate(args) as? ResampleUnit)
            #expect(unit.settings == settings, "\(args)")
        }
        #expect(ResamplerSettings.default == .soxr(.high))
    }
}
