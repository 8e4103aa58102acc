import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// `Ditherer` on its own: the error's power and spectrum against theory, the shape's gain in
/// 1–5 kHz, determinism and block-size independence.
@Suite struct DitherTests {
    /// A 16-bit step: 2^−15.
    static let step = 1.0 / 32768

    /// Deterministic noise of about −26 dBFS RMS, almost never on a 16-bit step.
    static func busy(_ count: Int, seed: UInt32 = 1) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: s)) / 2_147_483_648 * 0.1
        }
    }

    /// `x` through a fresh ditherer, `block` frames at a time.
    static func dither(_ x: [Float], bits: Int = 16, channels: Int = 1, kind: Ditherer.Kind, seed: UInt64 = 0, block: Int = 4096) -> [Float] {
        let d = Ditherer(bits: bits, channels: channels, kind: kind, seed: seed)
        var out = [Float](repeating: 0, count: x.count)
        let frames = x.count / channels
        x.withUnsafeBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                var f = 0
                while f < frames {
                    let n = min(block, frames - f)
                    d.process(i.baseAddress! + f * channels, frames: n, into: o.baseAddress! + f * channels)
                    f += n
                }
            }
        }
        return out
    }

    static func error(_ y: [Float], _ x: [Float]) -> [Double] { zip(y, x).map { Double($0) - Double($1) } }

    @Test("TPDF error power is a quarter step squared (within 0.3 dB), with no DC")
    func tpdfErrorPowerIsTheory() {
        let x = Self.busy(1 << 18)
        let e = Self.error(Self.dither(x, kind: .tpdf), x)
        let power = e.reduce(0) { $0 + $1 * $1 } / Double(e.count)
        let theory = Self.step * Self.step / 4
        let dB = 10 * log10(power / theory)
        #expect(abs(dB) <= 0.3, "TPDF error power is \(dB) dB from Δ²/4")
        let mean = e.reduce(0, +) / Double(e.count) / Self.step
        #expect(abs(mean) < 0.01, "mean error \(mean) steps")
    }

    @Test("TPDF error is flat: every 2.75 kHz band within 0.5 dB of theory", arguments: [44100, 48000])
    func tpdfErrorIsFlat(rate: Int) {
        let x = Self.busy(1 << 18, seed: 9)
        let spectrum = WelchSpectrum(Self.error(Self.dither(x, kind: .tpdf), x), rate: rate)
        let theory = 10 * log10(Self.step * Self.step / 4)
        for band in stride(from: 0.0, to: 22000, by: 2750) {
            let level = spectrum.band(max(band, 50), band + 2750)
            #expect(abs(level - theory) <= 0.5, "\(band)...\(band + 2750) Hz: \(level) dB against \(theory)")
        }
    }

    @Test("shaped noise in 1-5 kHz is at least 10 dB below TPDF's", arguments: [44100, 48000])
    func shapedNoiseIsLowerWhereHearingIsKeenest(rate: Int) throws {
        let shape = try #require(NoiseShape.forRate(rate))
        let x = Self.busy(1 << 18, seed: 3)
        let tpdf = WelchSpectrum(Self.error(Self.dither(x, kind: .tpdf), x), rate: rate).band(1000, 5000)
        let shaped = WelchSpectrum(Self.error(Self.dither(x, kind: .shaped(shape)), x), rate: rate).band(1000, 5000)
        #expect(shaped <= tpdf - 10, "1-5 kHz: shaped \(shaped) dB, TPDF \(tpdf) dB")
    }

    @Test("the shape exists at 44.1 and 48 kHz only; elsewhere shaped falls back to TPDF")
    func shapesByRate() {
        #expect(NoiseShape.forRate(44100) == .fWeighted && NoiseShape.forRate(48000) == .fWeighted)
        #expect(NoiseShape.forRate(16000) == nil && NoiseShape.forRate(96000) == nil && NoiseShape.forRate(32000) == nil)
        let s16 = SampleEncoding.s16le
        #expect(EdgeDither.kind(.shaped, precision: .float, format: StreamFormat(encoding: s16, sampleRate: 16000, channels: 1)) == .tpdf)
        #expect(EdgeDither.kind(.shaped, precision: .float, format: StreamFormat(encoding: s16, sampleRate: 48000, channels: 1)) == .shaped(.fWeighted))
    }

    @Test("the edge dithers linear integers of 16 bits or fewer, and only when the samples are finer")
    func edgeDecision() throws {
        func kind(_ token: String, _ precision: SignalPrecision, _ mode: DitherMode = .auto) throws -> Ditherer.Kind? {
            EdgeDither.kind(mode, precision: precision, format: StreamFormat(encoding: try SampleEncoding(token: token), sampleRate: 8000, channels: 2))
        }
        for token in ["s16le", "s16be", "u16le", "s8", "u8"] { #expect(try kind(token, .float) == .tpdf, "\(token)") }
        for token in ["s24le", "s32le", "f32le", "f64le", "mulaw", "alaw"] { #expect(try kind(token, .float) == nil, "\(token)") }
        #expect(try kind("s16le", SignalPrecision(bits: 16)) == nil)
        #expect(try kind("u8", SignalPrecision(bits: 16)) == .tpdf)
        #expect(try kind("s16le", SignalPrecision(try SampleEncoding(token: "s24le"))) == .tpdf)
        #expect(try kind("s16le", .float, .off) == nil)
    }

    @Test("the same seed gives the same samples for every block size; channels and seeds differ",
          arguments: [Ditherer.Kind.tpdf, .shaped(.fWeighted)])
    func blockSizeIndependence(kind: Ditherer.Kind) {
        let x = Self.busy(2 * 10000, seed: 5)
        let whole = Self.dither(x, channels: 2, kind: kind, seed: 42, block: 10000)
        for block in [1, 7, 480, 4096] {
            #expect(Self.dither(x, channels: 2, kind: kind, seed: 42, block: block) == whole, "block \(block)")
        }
        #expect(Self.dither(x, channels: 2, kind: kind, seed: 43) != whole)
        // The same input in both channels gets different noise in each.
        let mono = Self.busy(10000, seed: 6)
        let twin = Self.dither(mono.flatMap { [$0, $0] }, channels: 2, kind: kind)
        #expect(stride(from: 0, to: twin.count, by: 2).contains { twin[$0] != twin[$0 + 1] })
    }

    @Test("samples on the grid for 32 in a row come out exact: silence stays silent", arguments: [Ditherer.Kind.tpdf, .shaped(.fWeighted)])
    func onTheGridIsExact(kind: Ditherer.Kind) {
        let silence = [Float](repeating: 0, count: 5000)
        #expect(Self.dither(silence, kind: kind) == silence)
        let steps = (0..<5000).map { Float(($0 * 37) % 2001 - 1000) / 32768 }
        #expect(Self.dither(steps, kind: kind) == steps)
        // A burst off the grid, then silence: noise for 31 more samples, exact after.
        let burst = Self.busy(100, seed: 4) + [Float](repeating: 0, count: 100)
        for block in [1, 7, 4096] {
            let y = Self.dither(burst, kind: kind, block: block)
            #expect(y[131...].allSatisfy { $0 == 0 }, "block \(block)")
            #expect(y[100..<131].contains { $0 != 0 }, "block \(block)")
        }
        // In stereo, each channel's run is its own: a quiet right channel stays exact.
        let stereo = Self.busy(2000, seed: 8).enumerated().map { $0.offset % 2 == 0 ? $0.element : 0 }
        let y = Self.dither(stereo, channels: 2, kind: kind)
        #expect(stride(from: 1, to: y.count, by: 2).allSatisfy { y[$0] == 0 })
    }

    @Test("the TPDF values are triangular on (-1, 1): mean 0, variance 1/6")
    func tpdfMoments() {
        let noise = DitherNoise(seed: 77)
        let key = noise.key(high: 0)
        let d = (0..<200_000).map { Double(DitherNoise.tpdf(key: key, low: UInt32($0))) }
        let mean = d.reduce(0, +) / Double(d.count), variance = d.reduce(0) { $0 + $1 * $1 } / Double(d.count) - mean * mean
        #expect(abs(mean) < 0.005 && abs(variance - 1.0 / 6) < 0.003, "mean \(mean), variance \(variance)")
        #expect(d.allSatisfy { $0 > -1 && $0 < 1 })
        // Triangular: a third of the values lie beyond ±0.42 (1 − (1 − 0.42)² = 0.664 within).
        let outer = Double(d.filter { abs($0) > 0.42 }.count) / Double(d.count)
        #expect(abs(outer - 0.3364) < 0.01, "\(outer) beyond ±0.42")
    }

    @Test("every output is on the grid of its width", arguments: [8, 12, 16, 24])
    func outputIsOnTheGrid(bits: Int) {
        let scale = Float(1 << (bits - 1))
        let y = Self.dither(Self.busy(20000, seed: 2), bits: bits, kind: .tpdf)
        #expect(y.allSatisfy { ($0 * scale).rounded() == $0 * scale })
    }
}
