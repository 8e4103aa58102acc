import Testing
import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

/// `denoise` and `agc` (speexdsp's preprocessor without an echo canceller).
@Suite struct PreprocessUnitTests {
    static let format = StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1)

    func run(_ chain: [[String]], _ samples: [Float], block: Int? = nil, channels: Int = 1) throws -> [Float] {
        let f = StreamFormat(encoding: .s16le, sampleRate: 16000, channels: channels)
        let r = try TestSignals.run(chain, TestSignals.wav(samples, f), block: block)
        return TestSignals.decode(TestSignals.audio(r.bytes, r.report), .s16le)
    }

    static func noise(_ n: Int, level: Float, seed: UInt64) -> [Float] {
        var s = seed
        return (0..<n).map { _ in
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return level * (Float(Int32(truncatingIfNeeded: s >> 32)) / Float(Int32.max))
        }
    }

    func rmsDB(_ x: ArraySlice<Float>) -> Double {
        10 * log10(x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count))
    }

    @Test func denoiseLowersStationaryNoise() throws {
        let x = Self.noise(48000, level: 0.05, seed: 1)
        let y = try run([["denoise", "-25"]], x)
        #expect(y.count == x.count)
        let drop = rmsDB(x[16000...]) - rmsDB(y[16000...])
        #expect(drop >= 10, "denoise -25 lowered stationary noise by only \(drop) dB")
    }

    @Test func agcRaisesAQuietSignal() throws {
        let x = (0..<48000).map { i in Float(0.01 * sin(2 * Double.pi * 300 * Double(i) / 16000) * (0.6 + 0.4 * sin(Double(i) / 3000))) }
        let y = try run([["agc", "16000"]], x)
        let rise = rmsDB(y[32000...]) - rmsDB(x[32000...])
        #expect(rise >= 10, "agc raised a -40 dBFS signal by only \(rise) dB")
    }

    @Test func lengthIsExactAndNoDelayIsAdded() throws {
        // A loud tone burst over quiet noise: the output's burst must start where the input's does.
        var x = Self.noise(16001, level: 0.001, seed: 2)
        for i in 8000..<12000 { x[i] += Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / 16000)) }
        let y = try run([["denoise"]], x)
        #expect(y.count == 16001)
        var best = 0, bestLag = 0.0
        for lag in -200...200 {
            var c = 0.0
            for i in 8200..<11800 { c += Double(x[i]) * Double(y[i + lag]) }
            if c > bestLag { bestLag = c; best = lag }
        }
        #expect(best == 0, "the output is \(best) frames late")
    }

    @Test(arguments: [["denoise"], ["agc"]])
    func outputDoesNotDependOnBlockSize(unit: [String]) throws {
        let x = Self.noise(9001, level: 0.05, seed: 3)
        let reference = try run([unit], x, block: 4096)
        for block in [1, 7, 480] {
            #expect(try run([unit], x, block: block) == reference, "block \(block)")
        }
    }

    @Test func channelsAreProcessedSeparately() throws {
        let left = Self.noise(8000, level: 0.05, seed: 4)
        let stereo: [Float] = left.flatMap { [$0, Float(0)] }
        let y = try run([["denoise"]], stereo, channels: 2)
        #expect(stride(from: 1, to: y.count, by: 2).allSatisfy { y[$0] == 0 }, "silence in one channel stays silent")
    }
}
