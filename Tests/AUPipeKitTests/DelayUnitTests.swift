import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `delay`: whole frames are copies, fractions are the ideal band-limited shift within −80 dB
/// below 0.45 × the rate, the length is kept (or extended by the longest delay), and a live
/// change crossfades.
@Suite struct DelayUnitTests {
    static let rate = 48000
    static func format(_ channels: Int) -> StreamFormat { StreamFormat(encoding: .f32le, sampleRate: rate, channels: channels) }

    /// A band-limited impulse centred on `centre` (may be fractional): a Kaiser-windowed sinc
    /// cut off at `cutoff` × the rate, `halfWidth` frames each side, in a stream of `frames` frames.
    static func bandLimitedImpulse(frames: Int, centre: Double, cutoff: Double = 0.48, halfWidth: Double = 400) -> [Double] {
        return (0..<frames).map { n in
            let t = Double(n) - centre
            guard abs(t) < halfWidth else { return 0 }
            let r = t / halfWidth
            let window = FractionalDelayTaps.besselI0(12 * (1 - r * r).squareRoot()) / FractionalDelayTaps.besselI0(12)
            let sinc = t == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * t) / (Double.pi * t)
            return sinc * window
        }
    }

    /// The spectrum of `x` at the normalised frequency `f` (cycles per frame).
    static func dft(_ x: [Double], at f: Double) -> (re: Double, im: Double) {
        var re = 0.0, im = 0.0
        for (n, v) in x.enumerated() where v != 0 {
            re += v * cos(2 * Double.pi * f * Double(n))
            im -= v * sin(2 * Double.pi * f * Double(n))
        }
        return (re, im)
    }

    @Test func aBandLimitedImpulseShiftedByTwoAndAHalfFramesIsTheIdealShiftWithinMinus80dB() throws {
        let frames = 4096, centre = 2000.0
        let x = Self.bandLimitedImpulse(frames: frames, centre: centre)
        let y = try UnitHarness(["delay", "2.5f"], format: Self.format(1), block: 480).run(x.map(Float.init)).map(Double.init)
        #expect(y.count == frames)
        // The ideal: the same spectrum times e^(-j 2 pi f 2.5), compared at 451 frequencies up to 0.45 x the rate,
        // relative to the impulse's own magnitude there.
        var worst = -Double.infinity
        for i in 0...450 {
            let f = 0.45 * Double(i) / 450
            let X = Self.dft(x, at: f), Y = Self.dft(y, at: f)
            let phase = -2 * Double.pi * f * 2.5
            let ideal = (re: X.re * cos(phase) - X.im * sin(phase), im: X.re * sin(phase) + X.im * cos(phase))
            let error = hypot(Y.re - ideal.re, Y.im - ideal.im) / hypot(X.re, X.im)
            worst = max(worst, 20 * log10(error))
        }
        #expect(worst < -80, "worst error \(worst) dB below 0.45 x the rate")
        // In time too, for an impulse with nothing above 0.45 x the rate (cut off at 0.4): the same
        // impulse drawn 2.5 frames later, within -80 dB of its peak.
        let x40 = Self.bandLimitedImpulse(frames: frames, centre: centre, cutoff: 0.4)
        let y40 = try UnitHarness(["delay", "2.5f"], format: Self.format(1), block: 7).run(x40.map(Float.init)).map(Double.init)
        let shifted = Self.bandLimitedImpulse(frames: frames, centre: centre + 2.5, cutoff: 0.4)
        let peak = shifted.map(abs).max()!
        let diff = zip(y40, shifted).map { abs($0 - $1) }.max()!
        #expect(20 * log10(diff / peak) < -80, "time-domain difference \(20 * log10(diff / peak)) dB")
    }

    @Test func wholeFramesAreExactCopiesAndTheLengthIsKept() throws {
        let input = (0..<1000).map { Float(sin(Double($0) * 0.37)) * 0.5 }
        let out = try UnitHarness(["delay", "37f"], format: Self.format(1), block: 7).run(input)
        #expect(out.count == input.count)
        #expect(out.prefix(37).allSatisfy { $0 == 0 }, "the delayed start is silence")
        #expect(Array(out.dropFirst(37)) == Array(input.prefix(1000 - 37)), "whole frames are copied bit-exactly")
    }

    @Test func oneDelayPerChannel() throws {
        // delay 0,2.5ms: channel 0 untouched, channel 1 120 frames later at 48 kHz.
        var input = [Float](repeating: 0, count: 2 * 500)
        input[2 * 10] = 0.5
        input[2 * 10 + 1] = -0.75
        let out = try UnitHarness(["delay", "0,2.5ms"], format: Self.format(2)).run(input)
        #expect(out.count == input.count)
        #expect(out[2 * 10] == 0.5 && stride(from: 0, to: out.count, by: 2).filter { out[$0] != 0 } == [20])
        #expect(out[2 * 130 + 1] == -0.75 && stride(from: 1, to: out.count, by: 2).filter { out[$0] != 0 } == [261])
    }

    @Test func extendKeepsTheTail() throws {
        let input = [Float](repeating: 0.25, count: 300)
        let h = try UnitHarness(["delay", "10f,2.5f", "extend=1"], format: Self.format(2))
        let out = try h.run(input + input)
        #expect(h.framesOut == 300 + 10, "longer by the longest delay: \(h.framesOut)")
        #expect(Array(out.suffix(20)).enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element == 0.25 })
    }

    @Test func aLiveChangeCrossfadesWithoutAJump() throws {
        let h = try UnitHarness(["delay", "10f"], format: Self.format(1), block: 64)
        let input = (0..<4000).map { Float(sin(2 * Double.pi * 440 * Double($0) / 48000)) * 0.5 }
        var out = try h.push(Array(input[..<1000]))
        try (h.unit as? DelayUnit)?.setParameter("delays", to: .text("30f"))
        out += try h.push(Array(input[1000...]))
        out += try h.drain()
        try #require(out.count == input.count)
        // The largest step of a 440 Hz sine at 0.5 is 0.5 x 2 pi 440 / 48000 = 0.029; the crossfade adds at most a little.
        let steps = zip(out, out.dropFirst()).map { abs($1 - $0) }
        #expect(steps.max()! < 0.035, "largest step \(steps.max()!)")
        // After the 10 ms fade (480 frames, plus the 31-frame look-ahead), the output is the input 30 frames later.
        for n in 1600..<4000 { #expect(out[n] == input[n - 30]); if out[n] != input[n - 30] { break } }
        #expect(h.get("delays") == "30f")
    }

    @Test func clearErrors() throws {
        func message(_ args: [String], channels: Int) -> String? {
            do { _ = try UnitHarness(["delay"] + args, format: Self.format(channels)); return nil } catch let e as AUPipeError { return e.message } catch { return "\(error)" }
        }
        #expect(message(["1ms,2ms,3ms"], channels: 2)?.contains("lists 3 delays but the stream has 2 channels") == true)
        #expect(message(["5"], channels: 1)?.contains("without a unit; write 5ms, 5s or 5f") == true)
        #expect(message(["11s"], channels: 1)?.contains("out of range") == true)
        #expect(message(["0"], channels: 1) == nil, "a bare 0 needs no unit")
    }
}
