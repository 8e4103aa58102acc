import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Dither at the output edge, through whole runs: a quiet tone survives rounding to 16 bits,
/// the bytes repeat, paths that keep 16 bits stay bit-exact, tee's copies are dithered too.
@Suite struct EdgeDitherTests {
    static let mono44k = StreamFormat(encoding: try! SampleEncoding(token: "f32le"), sampleRate: 44100, channels: 1)

    /// A 1 kHz sine at `dBFS` (AES17: a full-scale sine is 0 dBFS), 4 s, as an f32 WAV.
    static func sine(dBFS: Double, rate: Int = 44100) -> [UInt8] {
        let a = pow(10, dBFS / 20)
        let x = (0..<(4 * rate)).map { Float(a * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        return TestSignals.wav(x, StreamFormat(encoding: mono44k.encoding, sampleRate: rate, channels: 1))
    }

    /// A 16-bit stereo WAV of `TestSignals.tones`.
    static let s16Stereo = TestSignals.wav(TestSignals.tones(frames: 24000, rate: 48000, channels: 2), StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2))

    static func run(_ chain: [[String]], _ input: [UInt8], dither: DitherMode = .auto, out: String? = "s16le", block: Int? = nil,
                    chunk: Int = .max) throws -> [UInt8] {
        let r = try TestSignals.run(chain, input, block: block, chunk: chunk) { o in
            o.dither = dither
            if let out { o.outFormat = try! FormatSpec.components(out, option: "--out-format") }
        }
        return TestSignals.audio(r.bytes, r.report)
    }

    static func samples(_ s16: [UInt8]) -> [Double] { TestSignals.decode(s16, .s16le).map(Double.init) }

    @Test("after gain -0.1 into s16, a -90 dBFS 1 kHz sine survives with no harmonic above the noise; plain rounding makes them")
    func quietSineSurvives() throws {
        let input = Self.sine(dBFS: -90)
        let reference = WelchSpectrum(TestSignals.decode(try Self.run([["gain", "-0.1"]], input, out: "f32le"), Self.mono44k.encoding).map(Double.init), rate: 44100)
        let dithered = WelchSpectrum(Self.samples(try Self.run([["gain", "-0.1"]], input)), rate: 44100)
        let fundamental = dithered.tone(1000) - reference.tone(1000)
        #expect(abs(fundamental) <= 1, "the tone is \(fundamental) dB off after dither")
        for k in 2...7 {
            let h = Double(k) * 1000
            #expect(dithered.tone(h) <= dithered.floor(around: h) + 3, "harmonic \(k): \(dithered.tone(h)) dB, noise \(dithered.floor(around: h)) dB")
        }
        let rounded = WelchSpectrum(Self.samples(try Self.run([["gain", "-0.1"]], input, dither: .off)), rate: 44100)
        #expect((2...7).contains { rounded.tone(Double($0) * 1000) > rounded.floor(around: Double($0) * 1000) + 10 },
                "plain rounding should leave harmonics far above its floor (or this test could not fail)")
    }

    @Test("every run gives the same bytes, for every block size and read size", arguments: [DitherMode.auto, .shaped])
    func deterministic(mode: DitherMode) throws {
        let input = Self.s16Stereo
        let chain = [["gain", "-3"], ["resample", "44100"]]
        let first = try Self.run(chain, input, dither: mode)
        #expect(try Self.run(chain, input, dither: mode) == first)
        for block in [1, 7, 480, 4096] {
            #expect(try Self.run(chain, input, dither: mode, block: block, chunk: 1000) == first, "--block \(block)f")
        }
        #expect(first != (try Self.run(chain, input, dither: .off)), "dither changed nothing")
    }

    @Test("16 bits in, 16 bits out through units that keep them: the same bytes as without dither", arguments: [
        [String](), ["gain", "0"], ["mute", "at=0.1-0.2"], ["meter"], ["resample", "48000"], ["convert", "channels=2"],
        ["convert", "map=0,0"], ["dither", "16"], ["denoise"], ["tee", "/dev/null", "type=raw"],
    ])
    func bitExactPaths(unit: [String]) throws {
        let chain = unit.isEmpty ? [] : [unit]
        let input = TestSignals.wav(TestSignals.tones(frames: 24000, rate: 48000, channels: 1), StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1))
        let plain = try Self.run(chain, input, dither: .off)
        #expect(try Self.run(chain, input) == plain)
        #expect(try Self.run(chain, input, dither: .shaped) == plain)
    }

    @Test("dither moves each 16-bit sample by at most one step from plain rounding")
    func atMostOneStep() throws {
        let a = Self.samples(try Self.run([["gain", "-3"]], Self.s16Stereo)), b = Self.samples(try Self.run([["gain", "-3"]], Self.s16Stereo, dither: .off))
        #expect(a != b)
        #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 1.0 / 32768 + 1e-12 })
    }

    @Test("f32 and s24 into s16 or u8 are dithered; into s24, f32 or mu-law they are not", arguments: [
        ("f32le", "s16le", true), ("f32le", "u8", true), ("s24le", "s16le", true), ("s16le", "u8", true),
        ("f32le", "s24le", false), ("f32le", "mulaw", false), ("f32le", "alaw", false), ("s16le", "s32le", false),
    ])
    func formatConversions(from: String, to: String, dithered: Bool) throws {
        let x = TestSignals.tones(frames: 8000, rate: 8000, channels: 1, level: 0.3)
        let input = TestSignals.wav(x, StreamFormat(encoding: try SampleEncoding(token: from), sampleRate: 8000, channels: 1))
        let auto = try Self.run([], input, out: to), off = try Self.run([], input, dither: .off, out: to)
        #expect((auto != off) == dithered)
    }

    @Test("a convert format=s16le in the middle of the chain dithers before it rounds")
    func midChainConvertDithers() throws {
        let x = TestSignals.tones(frames: 8000, rate: 8000, channels: 1, level: 0.3)
        let input = TestSignals.wav(x, StreamFormat(encoding: try SampleEncoding(token: "f32le"), sampleRate: 8000, channels: 1))
        let chain = [["convert", "format=s16le"], ["meter"]]
        let auto = TestSignals.decode(try Self.run(chain, input, out: "f32le"), try SampleEncoding(token: "f32le"))
        let off = TestSignals.decode(try Self.run(chain, input, dither: .off, out: "f32le"), try SampleEncoding(token: "f32le"))
        #expect(auto != off)
        #expect(auto.allSatisfy { ($0 * 32768).rounded() == $0 * 32768 })
    }

    @Test("shaped falls back to TPDF where there is no shape (16 kHz)")
    func shapedFallsBack() throws {
        let input = TestSignals.wav(TestSignals.tones(frames: 8000, rate: 16000, channels: 1), StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1))
        #expect(try Self.run([["gain", "-3"]], input, dither: .shaped) == (try Self.run([["gain", "-3"]], input, dither: .tpdf)))
    }

    @Test("a tee at the end writes what the output writes, dithered the same way")
    func teeIsDitheredLikeTheOutput() throws {
        let dir = TestScratch.root.appendingPathComponent("edge-dither-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for mode in [DitherMode.auto, .off] {
            let copy = dir.appendingPathComponent("copy-\(mode).raw").path
            let main = try Self.run([["gain", "-3"], ["tee", copy, "format=s16le"]], Self.s16Stereo, dither: mode)
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: copy))) == main, "--dither=\(mode)")
        }
    }

    @Test("the dither unit rounds to its width: the output edge then has nothing to add")
    func ditherUnitRoundsToItsWidth() throws {
        let chain = [["gain", "-3"], ["dither", "8", "seed=3"]]
        let y = Self.samples(try Self.run(chain, Self.s16Stereo))
        #expect(y.allSatisfy { ($0 * 128).rounded() == $0 * 128 })
        #expect(try Self.run(chain, Self.s16Stereo, dither: .off) == (try Self.run(chain, Self.s16Stereo)))
        #expect(try Self.run([["gain", "-3"], ["dither", "8", "seed=4"]], Self.s16Stereo) != (try Self.run(chain, Self.s16Stereo)))
    }

    @Test("dither type=shaped at a rate with no shape is refused (64)")
    func shapedUnitRefusesOtherRates() throws {
        let input = TestSignals.wav(TestSignals.tones(frames: 800, rate: 16000, channels: 1), StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1))
        #expect { _ = try Self.run([["gain", "-3"], ["dither", "16", "type=shaped"]], input) } throws: { e in
            guard let e = e as? AUPipeError else { return false }
            return e.status == .usage && e.message.contains("type=shaped") && e.message.contains("16000 Hz")
        }
    }
}
