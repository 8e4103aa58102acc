import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `aec preprocess=1` (the default): speex's preprocessor's residual echo and noise suppression
/// done inside the residual echo suppressor's STFT (`SuppressorPreprocess`), one overlap-add
/// instead of two: one frame of latency, removed from the output's timing; `denoise=`'s depth
/// as speex's preprocessor gives it; `preprocess=speex` the chain as before (two frames).
@Suite struct PreprocessInsideSuppressorTests {
    static let rate = 16000
    static let format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: 1)

    /// A far end of `seconds` of silence, written to a temporary WAV file; its path.
    static func silentFar(seconds: Double, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav([Float](repeating: 0, count: Int(seconds * Double(rate))), format)).write(to: url)
        return url.path
    }

    static func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let scratch = try ScratchDirectory("aupipe-ppinside")
        return try withExtendedLifetime(scratch) { try body(scratch.url) }
    }

    /// Runs `aec ref=FAR args` over `mic`; the output and the post-filter's latency (frames).
    static func run(_ args: [String], far: String, mic: [Float]) throws -> (out: [Float], latency: Int, inside: Bool) {
        let harness = try UnitHarness(["aec", "ref=\(far)"] + args, format: format)
        let unit = try #require(harness.unit as? EchoCancellerUnit)
        let out = try harness.run(mic)
        return (out, unit.postFilter?.latencyFrames ?? -1, unit.postFilter?.suppressorPreprocesses ?? false)
    }

    static func rmsDB(_ x: ArraySlice<Float>) -> Double {
        10 * log10(x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count))
    }

    /// The defaults run no speex preprocessor: one frame of latency (20 ms), against two with
    /// `preprocess=speex`; with `agc=` speex's preprocessor runs again.
    @Test func theDefaultChainHasOneFrameOfLatency() throws {
        try Self.withDirectory { dir in
            let far = try Self.silentFar(seconds: 0.5, in: dir)
            let mic = PreprocessUnitTests.noise(8000, level: 0.01, seed: 5)
            let frame = Self.rate / 50
            let defaults = try Self.run([], far: far, mic: mic)
            #expect(defaults.inside)
            #expect(defaults.latency == frame, "the defaults' latency is \(defaults.latency) frames")
            let speex = try Self.run(["preprocess=speex"], far: far, mic: mic)
            #expect(!speex.inside)
            #expect(speex.latency == 2 * frame)
            let agc = try Self.run(["agc=8000"], far: far, mic: mic)
            #expect(!agc.inside && agc.latency == 2 * frame)
            // At 48 kHz too (the band split's low band, or the whole band).
            let f48 = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1)
            let far48 = dir.appendingPathComponent("far48.wav")
            try Data(TestSignals.wav([Float](repeating: 0, count: 24000), f48)).write(to: far48)
            for bands in ["bands=auto", "bands=off"] {
                let at48 = try UnitHarness(["aec", "ref=\(far48.path)", bands], format: f48)
                let unit = try #require(at48.unit as? EchoCancellerUnit)
                _ = try at48.run([Float](repeating: 0, count: 4800))
                #expect(unit.postFilter?.suppressorPreprocesses == true, "\(bands)")
            }
        }
    }

    /// With no echo an impulse over quiet noise comes out where it went in (the latency the
    /// unit reports is the one its output has), with the defaults and with `preprocess=speex`.
    @Test(arguments: [[], ["preprocess=speex"], ["frame=10ms"]])
    func anImpulseWithNoEchoComesOutAtItsOwnSample(args: [String]) throws {
        try Self.withDirectory { dir in
            let far = try Self.silentFar(seconds: 1, in: dir)
            var mic = PreprocessUnitTests.noise(16000, level: 0.001, seed: 9)
            let at = 8123
            mic[at] = 0.5
            let out = try Self.run(args, far: far, mic: mic).out
            #expect(out.count == mic.count)
            let peak = out.indices.max { abs(out[$0]) < abs(out[$1]) } ?? -1
            #expect(peak == at, "aec \(args): the impulse at sample \(at) came out at \(peak)")
            #expect(abs(out[at]) > 0.1, "aec \(args): the impulse came out at \(out[at])")
        }
    }

    /// White noise alone (the far end silent) at `denoise=-20` is taken down 20 ± 3 dB once the
    /// noise estimate has settled, as speex's preprocessor's floor says.
    @Test func theDenoiseDepthHolds() throws {
        try Self.withDirectory { dir in
            let far = try Self.silentFar(seconds: 4, in: dir)
            let mic = PreprocessUnitTests.noise(4 * Self.rate, level: 0.05, seed: 13)
            let r = try Self.run(["denoise=-20"], far: far, mic: mic)
            #expect(r.inside)
            let settled = (2 * Self.rate)..<(4 * Self.rate)
            let drop = Self.rmsDB(mic[settled]) - Self.rmsDB(r.out[settled])
            #expect(abs(drop + (-20)) <= 3, "denoise=-20 took white noise down \(drop) dB")
            // speex's preprocessor, the reference the suppressor's noise gain reimplements, at the same depth.
            let speex = try Self.run(["denoise=-20", "preprocess=speex"], far: far, mic: mic)
            let speexDrop = Self.rmsDB(mic[settled]) - Self.rmsDB(speex.out[settled])
            #expect(!speex.inside && abs(drop - speexDrop) <= 2, "denoise=-20: \(drop) dB inside the suppressor, \(speexDrop) dB with speex's preprocessor")
        }
    }

    /// `preprocess=` takes a boolean or `speex`, and says so when given anything else.
    @Test func theParameterTakesABooleanOrSpeex() throws {
        try Self.withDirectory { dir in
            let far = try Self.silentFar(seconds: 0.2, in: dir)
            for (word, inside) in [("on", true), ("1", true), ("speex", false), ("SPEEX", false)] {
                #expect(try Self.run(["preprocess=\(word)"], far: far, mic: [Float](repeating: 0, count: 1600)).inside == inside)
            }
            #expect(try Self.run(["preprocess=off"], far: far, mic: [Float](repeating: 0, count: 1600)).latency == 0)
            #expect(throws: AUPipeError.self) { try UnitHarness(["aec", "ref=\(far)", "preprocess=maybe"], format: Self.format) }
        }
    }
}
