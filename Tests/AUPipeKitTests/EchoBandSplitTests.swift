import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// Issue 26 at 48 kHz: `aec`'s band split (`EchoBandSplit`, `bands=auto`). The split alone
/// reconstructs its input (delayed) to float precision at every rate it applies to; the
/// canceller on the low band keeps the 16 kHz floors on a 48 kHz scene; the output does not
/// depend on the block size; `bands=` refuses what it does not know.
@Suite final class EchoBandSplitTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aecband") }

    /// White noise, deterministic, in −0.5...0.5.
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var s = seed
        return (0..<count).map { _ in
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Float(Double(Int64(bitPattern: s) >> 11) / Double(1 << 53))
        }
    }

    /// The low band passed through untouched (`coreLatency` low-band frames late, as the
    /// canceller would be) and the upper band's gain left at 1: the output is the input
    /// delayed by `latencyFrames`, to float precision, two channels (the second a microphone,
    /// the first the far end's channel, which the output leaves out).
    @Test(arguments: [(32000, 0), (44100, 0), (48000, 0), (48000, 1), (96000, 2)])
    func unityGainsGiveTheInputDelayed(rate: Int, latencyFrames: Int) throws {
        let factor = Int((Double(rate) / 16000).rounded())
        let frame = rate / 50, low = frame / factor, channels = 2
        let split = EchoBandSplit(factor: factor, frameFrames: frame, channels: channels, micChannels: [1], speakers: 0,
                                  coreLatency: latencyFrames * low, frameSeconds: 0.02, comfort: false)
        let frames = 20
        let x = Self.noise(frames * frame * channels, seed: UInt64(rate + latencyFrames))
        var lows: [[Float]] = []
        var out: [Float] = []
        var y = [Float](repeating: 0, count: frame)
        for k in 0..<frames {
            x.withUnsafeBufferPointer { split.analyse($0.baseAddress! + k * frame * channels) }
            lows.append((0..<low).map { split.low[$0 * channels + 1] })
            let past = k >= latencyFrames ? lows[k - latencyFrames] : [Float](repeating: 0, count: low)
            for i in 0..<low { split.lowOut[i] = past[i] }
            split.synthesise(into: &y)
            out += y
        }
        let delay = split.latencyFrames
        #expect(delay == 2 * BandSplitFilter.halfPhases * factor + latencyFrames * frame)
        var worst: Float = 0, peak: Float = 0
        for i in delay..<out.count {
            worst = max(worst, abs(out[i] - x[(i - delay) * channels + 1]))
            peak = max(peak, abs(out[i]))
        }
        #expect(peak > 0.4)
        #expect(worst < 2e-6, "at \(rate) Hz the split and its sum differ from the input by \(worst)")
        #expect(split.gain.framesCut == 0)
    }

    /// The filter: unity at DC, flat to 6 kHz, −6 dB at 7 kHz, and what would fold onto 0...7.5 kHz
    /// of a 16 kHz low band (from 8.5 kHz) more than 80 dB down.
    @Test func theLowPassKeepsTheLowBandAndStopsWhatWouldFoldOntoIt() {
        let filter = BandSplitFilter(factor: 3)
        func response(_ hz: Double) -> Double {
            var re = 0.0, im = 0.0
            for (k, h) in filter.taps.enumerated() {
                re += Double(h) * cos(2 * Double.pi * hz / 48000 * Double(k))
                im += Double(h) * sin(2 * Double.pi * hz / 48000 * Double(k))
            }
            return 20 * log10((re * re + im * im).squareRoot())
        }
        #expect(abs(response(0)) < 0.001)
        #expect(abs(response(4000)) < 0.1 && abs(response(6000)) < 0.2)
        #expect(abs(response(7000) + 6) < 0.5)
        for hz in stride(from: 8500.0, through: 24000, by: 250) { #expect(response(hz) < -80, "\(hz) Hz: \(response(hz)) dB") }
    }

    /// The quiet near talker's 16 kHz scene (`QuietNearTalkerTests`) upsampled to 48 kHz: with
    /// the split, the canceller on the low band meets the floors it meets at 16 kHz (the near
    /// end in double talk ≥ −2 dB, the ERLE with the far end alone ≥ 41.5 dB). (`bands=off`, on
    /// the whole band, is printed beside it: on this band-limited scene the two are within 0.2 dB.)
    @Test(.tags(.scenes)) func at48kHzTheSplitMeetsThe16kHzFloors() throws {
        let scene = QuietNearTalkerTests.Scene(rate: 16000)
        let up = { (x: [Double]) in Self.upsampled(x) }
        let mic = up(scene.mic.map { Double($0) / 32768 }), far = up(scene.far.map { Double($0) / 32768 }), near = up(scene.near)
        let split = try measure(mic: mic, far: far, near: near, words: [])
        let whole = try measure(mic: mic, far: far, near: near, words: ["bands=off"])
        print("aec at 48 kHz (the quiet near talker's 16 kHz scene upsampled): near end \(split.nearGain) dB, ERLE \(split.erle) dB; bands=off: \(whole.nearGain) dB, \(whole.erle) dB")
        #expect(split.nearGain >= -2, "the near end in double talk: \(split.nearGain) dB")
        #expect(split.erle >= QuietNearTalkerTests.erle[16000]!, "ERLE with the far end alone: \(split.erle) dB")
    }

    /// `x` (16 kHz) at 48 kHz: zeros between the samples, through the split's own low-pass.
    static func upsampled(_ x: [Double]) -> [Float] {
        let interpolator = BandInterpolator(filter: BandSplitFilter(factor: 3), channels: 1, maxFrames: 160)
        var out = [Float](repeating: 0, count: 3 * x.count), chunk = [Float](repeating: 0, count: 480)
        for start in stride(from: 0, to: x.count - 159, by: 160) {
            interpolator.run(x[start..<start + 160].map { Float($0) }, frames: 160, into: &chunk)
            for i in 0..<480 { out[3 * start + i] = chunk[i] }
        }
        return out
    }

    /// `aec ref=far.wav WORDS` at 48 kHz over `mic` (16-bit WAVs): the near end's gain (dB, least
    /// squares per 100 ms piece where `near` is above −45 dBFS, as `QuietNearTalkerTests`) and the
    /// ERLE (dB) over `QuietNearTalkerTests.Scene.farAlone`.
    func measure(mic: [Float], far: [Float], near: [Float], words: [String]) throws -> (nearGain: Double, erle: Double) {
        let rate = 48000, format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: 1)
        let ref = dir.appendingPathComponent("far48.wav")
        try Data(TestSignals.wav(far, format)).write(to: ref)
        let r = try TestSignals.run([["aec", "ref=\(ref.path)"] + words], TestSignals.wav(mic, format))
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Double(Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8)) / 32768 }
        #expect(out.count == mic.count)
        let piece = rate / 10
        var gained = 0.0, total = 0.0
        for start in stride(from: 0, to: out.count - piece + 1, by: piece) {
            var ss = 0.0, ys = 0.0
            for i in start..<start + piece { ss += Double(near[i]) * Double(near[i]); ys += out[i] * Double(near[i]) }
            guard ss / Double(piece) >= pow(10, -4.5) else { continue }
            gained += ys / ss * ys
            total += ss
        }
        var m = 0.0, o = 0.0
        for range in QuietNearTalkerTests.Scene.farAlone {
            for i in Int(range.lowerBound * Double(rate))..<Int(range.upperBound * Double(rate)) {
                m += Double(mic[i]) * Double(mic[i])
                o += out[i] * out[i]
            }
        }
        return (10 * log10(gained / total), 10 * log10(m / max(o, 1e-20)))
    }

    /// The same bytes whatever the blocks, and `bands=off` different (the split did run).
    @Test func theOutputDoesNotDependOnTheBlockSize() throws {
        let rate = 48000, n = 3 * rate + 123
        let scene = QuietNearTalkerTests.Scene(rate: rate)
        let format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: 1)
        let ref = dir.appendingPathComponent("far.wav")
        try Data(TestSignals.wav(scene.far[0..<n].map { Float($0) / 32768 }, format)).write(to: ref)
        let mic = scene.mic[0..<n].map { Float($0) / 32768 }
        let f32 = StreamFormat(encoding: .f32le, sampleRate: rate, channels: 1)
        let small = try UnitHarness(["aec", "ref=\(ref.path)"], format: f32, block: 333).run(mic)
        let large = try UnitHarness(["aec", "ref=\(ref.path)"], format: f32, block: 4096).run(mic)
        let off = try UnitHarness(["aec", "ref=\(ref.path)", "bands=off"], format: f32, block: 333).run(mic)
        #expect(small.count == n)
        #expect(small == large)
        #expect(small != off)
    }

    /// `bands=` takes auto or off; anything else is refused with a line that names them.
    @Test func bandsRefusesOtherValues() {
        for value in ["on", "2", ""] {
            #expect {
                _ = try UnitHarness(["aec", "ref=far.wav", "bands=\(value)"], format: StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 1))
            } throws: { error in
                let message = (error as? AUPipeError)?.message ?? ""
                return message.contains("bands") && message.contains("auto") && message.contains("off")
            }
        }
    }

    /// Where the split applies: from 24 kHz (factor 2) on, with whole low-band frames.
    @Test func theSplitAppliesFrom24kHzWithWholeLowBandFrames() throws {
        func factor(_ rate: Int, _ words: [String] = []) throws -> Int? {
            let v = try EchoCancellerUnit.descriptor.parseArguments(["ref=far.wav"] + words)
            let c = try EchoCancellerConfiguration(v)
            return c.bandSplit(for: try c.layout(for: StreamFormat(encoding: .f32le, sampleRate: rate, channels: 1)))?.factor
        }
        #expect(try factor(16000) == nil)
        #expect(try factor(22050) == nil)
        #expect(try factor(24000) == 2)
        #expect(try factor(32000) == 2)
        #expect(try factor(44100) == 3)
        #expect(try factor(48000) == 3)
        #expect(try factor(96000) == 6)
        #expect(try factor(48000, ["bands=off"]) == nil)
        #expect(try factor(44100, ["frame=2.5ms"]) == nil) // 110 frames: not whole low-band frames
    }
}

