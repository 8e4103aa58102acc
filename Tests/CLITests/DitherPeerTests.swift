import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// aupipe's dither side by side with sox's on the same float input rounded to s16: the error's
/// spectrum in five bands (20 Hz–1 kHz, 1–5, 5–10, 10–15 kHz, 15 kHz–Nyquist).
@Suite("Dither next to sox")
struct DitherPeerTests {
    static let bands: [(Double, Double)] = [(20, 1000), (1000, 5000), (5000, 10000), (10000, 15000), (15000, 22000)]

    /// Two tones at −40 and −46 dBFS, 3 s, never on a 16-bit step.
    static func input(rate: Int) -> [Float] {
        (0..<(3 * rate)).map { i in
            let t = Double(i) / Double(rate)
            return Float(0.01 * sin(2 * Double.pi * 440 * t) + 0.005 * sin(2 * Double.pi * 3000.3 * t))
        }
    }

    /// The mean power per bin of `error` in each of `bands`, in dB (Welch, Hann, 4096, half overlap).
    static func bandLevels(_ error: [Double], rate: Int) -> [Double] {
        let size = 4096, fft = RealFFT(size: size)
        let window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let norm = window.reduce(0) { $0 + Double($1 * $1) }
        var power = [Double](repeating: 0, count: fft.bins), segment = [Float](repeating: 0, count: size)
        var re = [Float](repeating: 0, count: fft.bins), im = re, count = 0
        for start in stride(from: 0, through: error.count - size, by: size / 2) {
            for i in 0..<size { segment[i] = Float(error[start + i]) * window[i] }
            re.withUnsafeMutableBufferPointer { r in im.withUnsafeMutableBufferPointer { m in fft.forward(segment, re: r.baseAddress!, im: m.baseAddress!) } }
            for k in 0..<fft.bins { power[k] += Double(re[k] * re[k] + im[k] * im[k]) }
            count += 1
        }
        return bands.map { low, high in
            let bins = Int(low * Double(size) / Double(rate))..<min(fft.bins, Int(min(high, Double(rate) / 2) * Double(size) / Double(rate)))
            return 10 * log10(bins.reduce(0) { $0 + power[$1] } / Double(count) / norm / Double(bins.count))
        }
    }

    /// The s16 output of `command` (reading x.f32) minus the input, in full-scale units.
    static func error(_ command: String, _ x: [Float], in dir: URL) throws -> [Double] {
        let r = try CLI.shell(command, cwd: dir)
        try #require(r.status == 0, "\(command): \(r.stderr)")
        let out = r.stdout.withUnsafeBytes { b in (0..<(r.stdout.count / 2)).map { Double(Int16(littleEndian: b.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 } }
        try #require(out.count == x.count)
        return zip(out, x).map { $0 - Double($1) }
    }

    @Test("TPDF matches sox's dither, and shaped matches sox's dither -f f-weighted, band by band; both beat TPDF by 10 dB in 1-5 kHz as sox -s does",
          .needs("sox"), arguments: [44100, 48000])
    func sideBySideWithSox(rate: Int) throws {
        let dir = try CLI.temporaryDirectory()
        let x = Self.input(rate: rate)
        try x.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: dir.appendingPathComponent("x.f32"))
        let sox = "sox -t raw -r \(rate) -c 1 -e floating-point -b 32 x.f32 -t raw -e signed-integer -b 16 -"
        let ours = "\"$AUPIPE\" --in-format f32le:\(rate):1 -t raw --out-format s16le < x.f32"
        func levels(_ command: String) throws -> [Double] { Self.bandLevels(try Self.error(command, x, in: dir), rate: rate) }
        let soxTPDF = try levels("\(sox) dither"), soxShaped = try levels("\(sox) dither -f f-weighted"), soxS = try levels("\(sox) dither -s")
        let tpdf = try levels("\(ours) --dither=tpdf"), shaped = try levels("\(ours) --dither=shaped")
        for b in 0..<Self.bands.count {
            #expect(abs(tpdf[b] - soxTPDF[b]) <= 0.5, "band \(Self.bands[b]): TPDF \(tpdf[b]) dB, sox \(soxTPDF[b]) dB")
            #expect(abs(shaped[b] - soxShaped[b]) <= 1, "band \(Self.bands[b]): shaped \(shaped[b]) dB, sox f-weighted \(soxShaped[b]) dB")
        }
        #expect(shaped[1] <= tpdf[1] - 10, "1-5 kHz: shaped \(shaped[1]) dB, TPDF \(tpdf[1]) dB")
        #expect(soxS[1] <= soxTPDF[1] - 10 && shaped[1] <= soxS[1] + 1, "1-5 kHz: ours \(shaped[1]) dB, sox -s \(soxS[1]) dB")
    }

    @Test("aupipe's dithered output is the same on every run", .needs("sox"))
    func everyRunIsTheSame() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            sox -D -n -r 44100 -c 2 -b 16 -e signed-integer in.wav synth 1 sine 1000 vol 0.3 &&
            for i in 1 2 3; do "$AUPIPE" --dither=shaped gain -3 < in.wav > out$i.wav; done &&
            cmp out1.wav out2.wav && cmp out1.wav out3.wav && ! "$AUPIPE" --dither=off gain -3 < in.wav | cmp -s - out1.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
    }
}
