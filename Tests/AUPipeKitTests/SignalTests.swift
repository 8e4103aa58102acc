import Testing
import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

/// `aupipe gen`: every signal matches its definition, and the same arguments give the same bytes.
@Suite struct SignalTests {
    /// Generates `signal` as f32le raw at `rate` Hz with `channels` channels; returns the samples.
    func gen(_ signal: String, _ args: [String], rate: Int = 48000, channels: Int = 1, token: String = "f32le") throws -> [Float] {
        var o = PipelineOptions()
        o.outFormat = FormatSpec.Parts(token: try SampleEncoding(token: token), rate: rate, channels: channels)
        o.container = .raw
        let sink = MemorySink()
        _ = try GenCommand.generate(signal: signal, arguments: args, options: o, openSink: { sink })
        return TestSignals.decode(sink.bytes, try SampleEncoding(token: token))
    }

    func bytes(_ signal: String, _ args: [String], token: String = "s16le") throws -> [UInt8] {
        var o = PipelineOptions()
        o.outFormat = FormatSpec.Parts(token: try SampleEncoding(token: token))
        let sink = MemorySink()
        _ = try GenCommand.generate(signal: signal, arguments: args, options: o, openSink: { sink })
        return sink.bytes
    }

    /// Upward zero crossings per second over `x`.
    func frequency(_ x: ArraySlice<Float>, rate: Int) -> Double {
        var crossings: [Double] = []
        var i = x.startIndex + 1
        while i < x.endIndex {
            if x[i - 1] < 0 && x[i] >= 0 {
                // Interpolate the crossing between the two samples.
                crossings.append(Double(i - 1) + Double(-x[i - 1] / (x[i] - x[i - 1])))
            }
            i += 1
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) / ((last - first) / Double(rate))
    }

    /// Power of `x` at `f` Hz (Goertzel over a Hann window, against leakage), normalised by the length.
    func power(_ x: ArraySlice<Float>, at f: Double, rate: Int) -> Double {
        let w = 2 * Double.pi * f / Double(rate), coeff = 2 * cos(w)
        var s1 = 0.0, s2 = 0.0
        let n = Double(x.count)
        for (k, v) in x.enumerated() {
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(k) / n)
            let s = Double(v) * hann + coeff * s1 - s2
            s2 = s1
            s1 = s
        }
        return (s1 * s1 + s2 * s2 - coeff * s1 * s2) / Double(x.count * x.count)
    }

    @Test func sineHasItsFrequencyLevelAndPhase() throws {
        let x = try gen("sine", ["997", "level=-6", "duration=1s"])
        #expect(x.count == 48000)
        #expect(abs(frequency(x[...], rate: 48000) - 997) < 0.01)
        let peak = Double(x.map { abs($0) }.max()!)
        #expect(abs(20 * log10(peak) - -6) < 0.01)
        let cosine = try gen("sine", ["1000", "phase=90", "duration=10f"])
        #expect(abs(cosine[0] - Float(pow(10, -3.0 / 20))) < 1e-6) // sin(90°) at the peak level
    }

    @Test func tonesAreSumsOfTheirSines() throws {
        let x = try gen("tones", ["440,1000,3000", "level=-20"])
        for f in [440.0, 1000, 3000] { #expect(power(x[...], at: f, rate: 48000) > 1e-4, "\(f) Hz missing") }
        #expect(power(x[...], at: 2000, rate: 48000) < 1e-9)
    }

    @Test func sweepsPassTheirMidpointFrequencyOnTime() throws {
        // Linear 100 -> 2100 Hz over 2 s: 1100 Hz at 1 s. Log 100 -> 10000 Hz: 1000 Hz at 1 s.
        let lin = try gen("sweep", ["from=100", "to=2100", "mode=lin", "duration=2s"])
        #expect(abs(frequency(lin[47040..<48960], rate: 48000) - 1100) < 15)
        let log = try gen("sweep", ["from=100", "to=10000", "mode=log", "duration=2s"])
        #expect(abs(frequency(log[47040..<48960], rate: 48000) - 1000) < 15)
        #expect(abs(frequency(log[0..<4800], rate: 48000) - 112) < 15) // ~0.05 s in: 100·100^(0.05/2)
    }

    @Test func noiseIsReproducibleBySeedAndHasItsLevel() throws {
        let a = try bytes("noise", ["seed=42", "duration=0.2"]), b = try bytes("noise", ["seed=42", "duration=0.2"])
        let c = try bytes("noise", ["seed=43", "duration=0.2"])
        #expect(a == b)
        #expect(a != c)
        for color in ["white", "pink"] {
            let x = try gen("noise", [color, "level=-20", "duration=4s", "seed=5"])
            let rms = (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
            #expect(abs(20 * log10(rms) - -20) < 0.5, "\(color) RMS \(20 * log10(rms)) dBFS")
        }
        let stereo = try gen("noise", ["duration=100f"], channels: 2)
        #expect(stride(from: 0, to: 200, by: 2).contains { stereo[$0] != stereo[$0 + 1] }) // independent channels
    }

    /// Mean power in octave bands: white is flat, pink falls 3 dB per octave.
    @Test func pinkNoiseFallsThreeDecibelsPerOctave() throws {
        let rate = 48000
        for (color, slope) in [("white", 0.0), ("pink", -3.0)] {
            let x = try gen("noise", [color, "duration=8s", "seed=3"], rate: rate)
            let frame = 4096
            var bands = [Double](repeating: 0, count: 5) // octaves centred on 250, 500, 1000, 2000, 4000 Hz
            var start = 0
            while start + frame <= x.count {
                let block = x[start..<(start + frame)]
                for (k, centre) in [250.0, 500, 1000, 2000, 4000].enumerated() {
                    // Sample the octave with 8 Goertzel bins spread over it, summed as band power density.
                    var sum = 0.0
                    for j in 0..<8 { sum += power(block, at: centre / 2.0.squareRoot() * pow(2, (Double(j) + 0.5) / 8), rate: rate) }
                    bands[k] += sum / 8
                }
                start += frame
            }
            let db = bands.map { 10 * log10($0) }
            let perOctave = (db[4] - db[0]) / 4
            #expect(abs(perOctave - slope) < 0.5, "\(color): \(perOctave) dB per octave, expected \(slope)")
        }
    }

    @Test func impulsesLandExactly() throws {
        let x = try gen("impulse", ["at=100f", "level=-6", "duration=1000f"])
        #expect(x.indices.filter { x[$0] != 0 } == [100])
        #expect(abs(x[100] - Float(pow(10, -6.0 / 20))) < 1e-7)
        let train = try gen("impulse", ["at=0.01", "every=250f", "duration=1000f"], rate: 8000)
        #expect(train.indices.filter { train[$0] != 0 } == [80, 330, 580, 830])
        let full = try gen("impulse", ["at=5f", "duration=10f"], token: "s16le")
        #expect(full[5] == 32767.0 / 32768) // 0 dBFS is the largest value s16 holds
    }

    @Test func silenceIsZerosAndDurationsAreExact() throws {
        #expect(try gen("silence", ["duration=480f"], channels: 3) == [Float](repeating: 0, count: 1440))
        #expect(try gen("sine", ["duration=1.5s"], rate: 44100).count == 66150)
        #expect(try gen("sine", ["duration=20ms"], rate: 16000).count == 320)
    }

    @Test func dtmfDigitsHaveTheirRowAndColumnTones() throws {
        let rate = 8000
        let x = try gen("dtmf", ["5#", "tone=100ms", "gap=50ms"], rate: rate)
        #expect(x.count == 2 * (800 + 400)) // natural length: (tone + gap) per digit
        let five = x[0..<800], pound = x[1200..<2000]
        #expect(power(five, at: 770, rate: rate) > 1e-3 && power(five, at: 1336, rate: rate) > 1e-3)
        // The neighbouring row and column tones are at least 30 dB down (window leakage only).
        let on = power(five, at: 770, rate: rate)
        #expect(power(five, at: 697, rate: rate) < on / 1000 && power(five, at: 1477, rate: rate) < on / 1000)
        #expect(power(pound, at: 941, rate: rate) > 1e-3 && power(pound, at: 1477, rate: rate) > 1e-3)
        #expect(x[800..<1200].allSatisfy { $0 == 0 })
    }

    @Test func sameArgumentsSameBytes() throws {
        for (signal, args) in [("sine", ["440"]), ("sweep", ["from=50", "to=5000"]), ("noise", ["pink"]), ("dtmf", ["0123"])] {
            #expect(try bytes(signal, args) == bytes(signal, args), "\(signal)")
        }
    }

    /// `gen --dither=off` writes a tone's rounded samples exactly; the default (TPDF) differs from
    /// them by at most one step, the same on every run; gen refuses a processing option.
    @Test func ditherIsAnOptionOfGen() throws {
        guard case .gen(_, let args, let text) = try CommandLineParser.parse(["gen", "sine", "1000", "level=-20", "--dither=off", "--out-format", "s16le", "-t", "raw"]) else {
            Issue.record("gen --dither=off did not parse as gen")
            return
        }
        let parsed = try text.parsed()
        #expect(args == ["1000", "level=-20"] && parsed.dither == .off)
        func samples(_ dither: String) throws -> [Int16] {
            var o = PipelineOptions()
            o.outFormat = FormatSpec.Parts(token: .s16le)
            o.container = .raw
            o.dither = DitherMode(rawValue: dither)!
            let sink = MemorySink()
            _ = try GenCommand.generate(signal: "sine", arguments: ["1000", "level=-20"], options: o, openSink: { sink })
            return stride(from: 0, to: sink.bytes.count, by: 2).map { Int16(bitPattern: UInt16(sink.bytes[$0]) | UInt16(sink.bytes[$0 + 1]) << 8) }
        }
        let exact = (0..<48000).map { n in Int16((Double(Float(0.1 * sin(2 * Double.pi * 1000 * Double(n) / 48000))) * 32768).rounded(.toNearestOrEven)) }
        let off = try samples("off"), auto = try samples("auto")
        #expect(off == exact, "--dither=off is not the rounded tone")
        #expect(auto != off && zip(auto, off).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "the default dither is not TPDF of one step")
        #expect(try samples("auto") == auto)
        #expect(throws: AUPipeError.self) { _ = try CommandLineParser.parse(["gen", "sine", "--block", "480"]) }
    }

    @Test func badArgumentsAreUsageErrors() {
        for (signal, args) in [("sine", ["30000"]), ("sweep", ["from=0", "mode=log"]), ("dtmf", ["12x"]), ("noise", ["blue"]),
                               ("impulse", ["every=0f"]), ("sinus", [])] {
            #expect(throws: AUPipeError.self, "\(signal) \(args)") { _ = try bytes(signal, args) }
        }
    }
}
