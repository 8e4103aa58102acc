import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// `Resampler` (the exact-length, zero-delay bookkeeping) around its engine, called directly:
/// length and alignment for any block size, and the variable ratio of the engine contract.
@Suite struct ResamplerTests {
    /// Runs `input` through `r` in blocks of `block` frames and drains it; `factor`, when given,
    /// sets the ratio before each block from the input frames so far, and the applied ratios'
    /// integral over the input is returned with the output.
    static func run(_ r: Resampler, _ input: [Float], block: Int, factor: ((Int) -> Double)? = nil) throws -> (output: [Float], integral: Double) {
        let ch = r.channels, frames = input.count / ch
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: r.maxOutputFrames(forInput: block) * ch)
        var integral = 0.0, done = 0
        try input.withUnsafeBufferPointer { x in
            while done < frames {
                if let factor { try r.setRatio(nominalTimes: factor(done)) }
                let ratio = r.target
                let n = min(block, frames - done)
                let produced = try buffer.withUnsafeMutableBufferPointer { try r.process(x.baseAddress! + done * ch, frames: n, into: $0.baseAddress!) }
                out += buffer[0..<(produced * ch)]
                integral += Double(n) * ratio
                done += n
            }
        }
        while true {
            let (n, finished) = try buffer.withUnsafeMutableBufferPointer { try r.drain(into: $0.baseAddress!, capacity: $0.count / ch) }
            out += buffer[0..<(n * ch)]
            if finished { break }
        }
        return (out, integral)
    }

    static func sine(frames: Int, rate: Int, hz: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * hz * Double($0) / Double(rate))) }
    }

    @Test(arguments: [(44100, 48000), (48000, 16000), (16000, 48000), (8000, 44100), (96000, 44100), (22050, 8000), (48000, 47999)])
    func lengthIsExactForManyLengthsAndBlocks(from: Int, to: Int) throws {
        for n in [1, 2, 3, 7, 100, 479, 480, 481, 4097, 12345] {
            for block in [1, 7, 480] {
                let r = try Resampler(channels: 2, from: from, to: to, maxFrames: block)
                let (out, _) = try Self.run(r, [Float](repeating: 0.25, count: 2 * n), block: block)
                let expected = (Double(n) * Double(to) / Double(from)).rounded(.toNearestOrAwayFromZero)
                #expect(out.count == 2 * Int(expected), "\(n) frames \(from)->\(to) in blocks of \(block)")
                #expect(r.impliedOutputFrames == Int64(expected))
            }
        }
    }

    @Test(arguments: [(16000, 48000, 1000), (48000, 16000, 3000), (44100, 48000, 441), (48000, 44100, 4800), (8000, 44100, 960)])
    func anImpulseLandsOnItsIdealSampleWhateverTheBlock(from: Int, to: Int, at: Int) throws {
        var x = [Float](repeating: 0, count: 8000)
        x[at] = 0.9
        let ideal = Int((Double(at) * Double(to) / Double(from)).rounded())
        for block in [1, 13, 480, 8000] {
            let r = try Resampler(channels: 1, from: from, to: to, settings: ResamplerSettings(engine: .speex, quality: 10), maxFrames: block)
            let (y, _) = try Self.run(r, x, block: block)
            let peak = y.indices.max { abs(y[$0]) < abs(y[$1]) }!
            #expect(peak == ideal, "\(from)->\(to), block \(block): the impulse at \(at) came out at \(peak), not \(ideal)")
        }
    }

    @Test func latencyIsTheEnginesAndIsReported() throws {
        let r = try Resampler(channels: 1, from: 48000, to: 16000, maxFrames: 480)
        #expect(r.latency > 0)
        #expect(r.ratio == ResampleRatio(output: 1, input: 3))
    }

    /// Allowed to drift but never moved, speexdsp's resampler gives exactly the fixed one's
    /// output: what the engine allocates for the ratios ahead leaves no trace. (libsoxr, the
    /// default engine, runs another filter when allowed to drift, its variable-rate mode:
    /// `SoxrResamplerTests`.)
    @Test(arguments: [(48000, 16000), (44100, 48000), (48000, 48000)])
    func aDriftAllowanceAloneChangesNothing(from: Int, to: Int) throws {
        let x = TestSignals.tones(frames: 9000, rate: from, channels: 2)
        let speex = ResamplerSettings(engine: .speex, quality: 4)
        let fixed = try Resampler(channels: 2, from: from, to: to, settings: speex, maxFrames: 480)
        let drifting = try Resampler(channels: 2, from: from, to: to, settings: speex, maxFrames: 480, maxDrift: 0.001)
        #expect(fixed.latency == drifting.latency)
        #expect(try Self.run(fixed, x, block: 480).output == Self.run(drifting, x, block: 480).output)
    }

    /// The largest sample-to-sample step and second difference of `y` from `start` on, as
    /// multiples of those of a sine of `hz` at `amplitude` sampled at `rate`.
    static func roughness(_ y: [Float], start: Int, rate: Int, hz: Double, amplitude: Double) -> (step: Double, curve: Double) {
        let w = 2 * Double.pi * hz / Double(rate)
        var step = 0.0, curve = 0.0
        for i in max(start, 1)..<(y.count - 1) {
            step = max(step, abs(Double(y[i]) - Double(y[i - 1])))
            curve = max(curve, abs(Double(y[i + 1]) - 2 * Double(y[i]) + Double(y[i - 1])))
        }
        return (step / (2 * amplitude * sin(w / 2)), curve / (amplitude * 4 * sin(w / 2) * sin(w / 2)))
    }

    /// Clock-drift tracking: a 1 kHz sine with the ratio ramped from 1 to 1.0001 and back in
    /// steps every 10 ms: no click (the largest step and curvature stay those of the sine), and
    /// as many frames as the ratio's integral over the input.
    @Test(arguments: [(48000, 48000, 1.0001), (48000, 48000, 0.9999), (44100, 48000, 1.0001), (48000, 16000, 0.9999), (16000, 48000, 1.0001)])
    func aRampedRatioNeitherClicksNorLosesFrames(from: Int, to: Int, peak: Double) throws {
        let seconds = 6, block = from / 100
        let x = Self.sine(frames: seconds * from, rate: from, hz: 1000)
        let r = try Resampler(channels: 1, from: from, to: to, maxFrames: block, maxDrift: 0.001)
        // 1 s at 1, up over 2 s, 1 s at the top, down over 1 s, 1 s at 1.
        let ramp: (Int) -> Double = { frame in
            let t = Double(frame) / Double(from)
            let rise = min(max((t - 1) / 2, 0), 1), fall = min(max((t - 4) / 1, 0), 1)
            return 1 + (peak - 1) * (rise - fall)
        }
        let (y, integral) = try Self.run(r, x, block: block, factor: ramp)
        #expect(abs(Double(y.count) - integral) <= 2, "\(y.count) frames for a ratio whose integral is \(integral)")
        #expect(abs(Double(r.impliedOutputFrames) - integral) <= 1)
        // The first and last filter lengths hold the sine's start and end: judged in between.
        let (step, curve) = Self.roughness(Array(y[..<(y.count - to / 100)]), start: to / 100, rate: to, hz: 1000, amplitude: 0.5)
        #expect(step <= 1.01, "largest step \(step) × the sine's own")
        #expect(curve <= 1.05, "largest second difference \(curve) × the sine's own")
    }

    /// A ratio held off nominal for 1 s gives 1 s × ratio more output frames than nominal.
    @Test func aHeldRatioGivesItsFrames() throws {
        let from = 48000
        let x = [Float](repeating: 0.1, count: 3 * from)
        let r = try Resampler(channels: 1, from: from, to: from, maxFrames: 480, maxDrift: 0.001)
        let (y, integral) = try Self.run(r, x, block: 480) { $0 >= from && $0 < 2 * from ? 1.001 : 1 }
        #expect(abs(integral - Double(3 * from + 48)) < 0.01)
        #expect(y.count == 3 * from + 48)
    }

    @Test func aRatioBeyondTheDriftAllowedIsRefused() throws {
        let r = try Resampler(channels: 1, from: 48000, to: 16000, maxFrames: 480, maxDrift: 0.0001)
        #expect(throws: AUPipeError.self) { try r.setRatio(nominalTimes: 1.001) }
        let fixed = try Resampler(channels: 1, from: 48000, to: 16000, maxFrames: 480)
        #expect(throws: AUPipeError.self) { try fixed.setRatio(nominalTimes: 1.00001) }
        try fixed.setRatio(nominalTimes: 1)
        #expect(fixed.ratio == ResampleRatio(output: 1, input: 3))
    }

    /// speex is always given the same prime output part, so that its phase carries over exactly.
    @Test func speexIsGivenFractionsOverOnePrime() {
        let d = SpeexResamplerEngine.ratioDenominator
        for x in [1.0, 1.000001, 0.999999, 1.0001, 1.0 / 3 * 1.000037, 3, 44100.0 / 48000 * 0.99997, 1023.5, 1 / 1023.5] {
            let r = SpeexResamplerEngine.fraction(x)
            #expect(r.output == d, "\(r) for \(x): reduced")
            // Within a step, 1/(d × in/out) of the ratio (half a step unless it is an integer ratio).
            #expect(abs(r.value / x - 1) <= 1 / Double(r.input), "\(r) for \(x)")
        }
        #expect(SpeexResamplerEngine.fraction(1).input == d + 1)
        #expect(SpeexResamplerEngine.fraction(1.0 / 3).input == 3 * d + 1)
    }

    /// A `resample` to the stream's own rate that must run (no bypass, as under --control)
    /// passes the frames through.
    @Test func equalRatesRunAsACopy() throws {
        let f = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
        let chain = try Chain(stages: [ChainStage("resample", ResampleUnit(rate: 48000, quality: 4))], input: f, maxFrames: 64,
                              measurePeaks: false, allowBypass: false)
        #expect(!chain.isEmpty)
        let x = TestSignals.tones(frames: 64, rate: 48000, channels: 2)
        let (y, n) = try x.withUnsafeBufferPointer { try chain.process($0.baseAddress!, frames: 64) }
        #expect(n == 64)
        #expect(Array(UnsafeBufferPointer(start: y, count: 128)) == x)
    }
}
