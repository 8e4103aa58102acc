import Foundation
import TestScratch
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats
import CSpeexDSP

/// Acceptance tests of `aec` on synthetic echo scenes (see `AECScene`): echo return loss
/// enhancement with and without speex's preprocessor at bulk delays of 0, 40, 120 and 300 ms,
/// `delay=auto`, the near end kept through double talk, bit-identity with direct speexdsp calls,
/// the reference from an input channel, exact length and block-size independence.
///
/// ERLE is measured here, not taken from the unit's meter: 10·log10(Σ mic² / Σ out²) over the
/// stretches where the near end is silent and the canceller has had 2 s to converge since the
/// start or since the echo-path change (`AECScene.converged`: 2–4.5 s and 7.5–9 s). There the
/// microphone is echo + noise and the output residual echo + noise, so the noise floor
/// (−55 dBFS) caps the figure; the cap is printed with it, and so is the ERLE 1 s after the
/// echo-path change (5.5–6 s), which the targets do not cover.
@Suite(.tags(.scenes)) final class EchoSceneTests: ScratchSuite {
    /// A directory of this test's own, removed with it.
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory("aupipe-aec") }

    static let format = StreamFormat(encoding: .s16le, sampleRate: AECScene.rate, channels: 1)

    /// 16-bit samples as aupipe's floats (exact: k / 32768).
    static func floats(_ x: [Int16]) -> [Float] { x.map { Float($0) / 32768 } }

    /// Writes `samples` (16-bit WAV, `channels` interleaved) and returns the path.
    func write(_ name: String, _ samples: [Int16], channels: Int = 1) throws -> String {
        let url = dir.appendingPathComponent(name)
        var f = Self.format
        f.channels = channels
        try Data(TestSignals.wav(Self.floats(samples), f)).write(to: url)
        return url.path
    }

    /// Runs `aec args` over the 16-bit `mic` (WAV, `channels` interleaved); the output's 16-bit
    /// samples and the stage's `--stats` note.
    func aec(_ args: [String], mic: [Int16], channels: Int = 1, block: Int? = nil) throws -> (out: [Int16], note: String?) {
        var f = Self.format
        f.channels = channels
        let r = try TestSignals.run([["aec"] + args], TestSignals.wav(Self.floats(mic), f), block: block) { $0.stats = .text }
        #expect(r.report.output.format.encoding == .s16le)
        let bytes = TestSignals.audio(r.bytes, r.report)
        let out = (0..<bytes.count / 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        return (out, r.report.stages.first?.note)
    }

    /// What the tests measure on one run over a scene.
    struct Measurement: CustomStringConvertible {
        /// ERLE (dB) after convergence (over `AECScene.converged`), and per stretch: those and
        /// the re-converging one.
        var erle: Double
        var perStretch: [(String, Double)]
        /// The most ERLE the noise floor allows over the converged stretches: Σ mic² / Σ noise².
        var ceiling: Double
        /// Output level over the near end's level during the double talk (dB), and the gain of
        /// the near end's own component in the output (least-squares projection, dB).
        var nearChange: Double
        var nearGain: Double
        /// The lowest output/near-end level (dB) over the double talk's 100 ms pieces where the
        /// near end is above −40 dBFS.
        var nearWorstPiece: Double
        var note: String?

        var description: String {
            let parts = perStretch.map { "\($0.0) \(fmt($0.1))" }.joined(separator: ", ")
            return "ERLE \(fmt(erle)) dB (\(parts); noise ceiling \(fmt(ceiling))), near end in double talk \(fmt(nearChange, sign: true)) dB "
                + "(own component \(fmt(nearGain, sign: true)) dB, worst 100 ms \(fmt(nearWorstPiece, sign: true)) dB); unit: \(note ?? "no note")"
        }
    }

    static func fmt(_ x: Double, sign: Bool = false) -> String { String(format: sign ? "%+.1f" : "%.1f", x) }

    static func measure(_ scene: AECScene, _ out: [Int16], note: String?) -> Measurement {
        precondition(out.count == AECScene.count)
        func s(_ x: Int16) -> Double { Double(x) / 32768 }
        func energies(_ range: Range<Double>) -> (mic: Double, out: Double, noise: Double) {
            var m = 0.0, o = 0.0, z = 0.0
            for i in AECScene.frame(range.lowerBound)..<AECScene.frame(range.upperBound) {
                m += s(scene.mic[i]) * s(scene.mic[i])
                o += s(out[i]) * s(out[i])
                z += AECSignals.noise[i] * AECSignals.noise[i]
            }
            return (m, o, z)
        }
        var mic = 0.0, res = 0.0, noise = 0.0
        var perStretch: [(String, Double)] = []
        for (name, range) in AECScene.converged {
            let e = energies(range)
            perStretch.append((name, 10 * log10(e.mic / e.out)))
            mic += e.mic
            res += e.out
            noise += e.noise
        }
        let r = energies(AECScene.reconverging.range)
        perStretch.insert((AECScene.reconverging.name + " (re-converging)", 10 * log10(r.mic / r.out)), at: 1)

        let dt = AECScene.frame(AECScene.doubleTalk.lowerBound)..<AECScene.frame(AECScene.doubleTalk.upperBound)
        var outEnergy = 0.0, nearEnergy = 0.0, cross = 0.0
        for i in dt {
            outEnergy += s(out[i]) * s(out[i])
            nearEnergy += scene.near[i] * scene.near[i]
            cross += s(out[i]) * scene.near[i]
        }
        var worst = Double.infinity
        let piece = AECScene.rate / 10
        for start in stride(from: dt.lowerBound, to: dt.upperBound - piece + 1, by: piece) {
            var o = 0.0, e = 0.0
            for i in start..<start + piece { o += s(out[i]) * s(out[i]); e += scene.near[i] * scene.near[i] }
            if e / Double(piece) > pow(10, -4.0) { worst = min(worst, 10 * log10(o / e)) }
        }
        return Measurement(erle: 10 * log10(mic / res), perStretch: perStretch, ceiling: 10 * log10(mic / noise),
                           nearChange: 10 * log10(outEnergy / nearEnergy), nearGain: 20 * log10(abs(cross) / nearEnergy),
                           nearWorstPiece: worst, note: note)
    }

    /// Runs `aec` with `args` over `scene` (the far end from a file) and measures it.
    func cancel(_ scene: AECScene, _ args: [String], block: Int? = nil) throws -> Measurement {
        let ref = try write("far-\(scene.delayMS).wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)"] + args, mic: scene.mic, block: block)
        #expect(out.count == scene.mic.count)
        let m = Self.measure(scene, out, note: note)
        print("aec scene \(scene.delayMS) ms, \(args.joined(separator: " ")): \(m)")
        return m
    }

    /// The `delay=` that puts each scene's echo inside a 200 ms tail (the default before issue 13): the default
    /// (`delay=auto`, which takes the bulk delay out) for the delays the tail covers, and the
    /// bulk delay given by hand for 300 ms. (With `delay=0`, speex adapts slowly to an echo that
    /// starts late in its filter: 13 dB at 120 ms instead of 20.)
    static func fittingDelay(_ delayMS: Int) -> String { delayMS <= 120 ? "delay=auto" : "delay=\(delayMS)ms" }

    // MARK: ERLE and the near end

    /// The 9 s scenes with the tail and frame the thresholds were set for (200 ms, 10 ms; the
    /// defaults before issue 13): the defaults (400 ms, 20 ms) converge more slowly, which the
    /// 2 s these scenes give before the path change and 3 s after it show (29.5-47.4 dB with the
    /// preprocessor and the residual echo suppressor, 15.6-18.1 without either; `shortScenesWithTheDefaults`), while over the 42 s of
    /// the benchmark's scenes they cancel 5 dB more in rooms.
    static let formerTailAndFrame = ["tail=200ms", "frame=10ms"]

    @Test(arguments: [0, 40, 120, 300])
    func erleWithoutPreprocessor(delayMS: Int) throws {
        let m = try cancel(AECScene(delayMS: delayMS), [Self.fittingDelay(delayMS), "preprocess=0"] + Self.formerTailAndFrame)
        #expect(m.erle >= 18, "ERLE \(Self.fmt(m.erle)) dB without the preprocessor at \(delayMS) ms: \(m)")
        #expect(abs(m.nearChange) <= 2, "near end changed by \(Self.fmt(m.nearChange, sign: true)) dB in double talk: \(m)")
        #expect(Self.reportAgrees(m), "the unit reports \(m.note ?? "nothing"); measured \(Self.fmt(m.erle)) dB")
    }

    /// How far (dB) the unit's own ERLE may be from the measured one: it counts every frame with
    /// echo after convergence, these only the converged stretches, and with the residual echo
    /// suppressor the two part further than 5 dB (5.6 dB at 40 ms with the defaults).
    static let reportTolerance = 6.0

    /// Whether the unit's own ERLE agrees with the measured one: within `reportTolerance`, or
    /// both above the noise ceiling (the residual echo below the noise, which the preprocessor's
    /// noise suppression then decides: 59.6 reported against 41.0 measured at 40 ms with
    /// `erleWithPreprocessor`'s tail and frame, over a ceiling of 32.7).
    static func reportAgrees(_ m: Measurement) -> Bool {
        guard let reported = reportedERLE(m) else { return false }
        return abs(reported - m.erle) <= reportTolerance || (reported > m.ceiling && m.erle > m.ceiling)
    }

    /// The ERLE the unit reports in its --stats note ("ERLE 23.38 dB (median …").
    static func reportedERLE(_ m: Measurement) -> Double? {
        m.note.flatMap { note in note.firstMatch(of: /ERLE (\d+(\.\d+)?) dB/).map { Double($0.1)! } }
    }

    @Test(arguments: [0, 40, 120, 300])
    func erleWithPreprocessor(delayMS: Int) throws {
        let m = try cancel(AECScene(delayMS: delayMS), [Self.fittingDelay(delayMS)] + Self.formerTailAndFrame)
        // Reached 49.6, 41.0, 56.5 and 44.7 dB with the residual echo suppressor (28-30 without).
        #expect(m.erle >= 39, "ERLE \(Self.fmt(m.erle)) dB with the preprocessor at \(delayMS) ms: \(m)")
        #expect(abs(m.nearChange) <= 2, "near end changed by \(Self.fmt(m.nearChange, sign: true)) dB in double talk (default suppress): \(m)")
        #expect(Self.reportAgrees(m), "the unit reports \(m.note ?? "nothing"); measured \(Self.fmt(m.erle)) dB")
    }

    /// The defaults on the 9 s scenes: what they reach (29.5-47.4 dB with the residual echo
    /// suppressor; 22.7-26.1 without), asserted, the near end
    /// kept in double talk, and the unit's own ERLE figure within 5 dB of the measured one.
    @Test(arguments: [0, 40, 120, 300])
    func shortScenesWithTheDefaults(delayMS: Int) throws {
        let m = try cancel(AECScene(delayMS: delayMS), [Self.fittingDelay(delayMS)])
        #expect(m.erle >= 27.5, "ERLE \(Self.fmt(m.erle)) dB with the defaults at \(delayMS) ms: \(m)")
        #expect(abs(m.nearChange) <= 2, "near end changed by \(Self.fmt(m.nearChange, sign: true)) dB in double talk: \(m)")
        #expect(Self.reportAgrees(m), "the unit reports \(m.note ?? "nothing"); measured \(Self.fmt(m.erle)) dB")
    }

    /// `delay=auto` finds the 300 ms bulk delay and cancels within 3 dB of the scene without one.
    @Test(arguments: [false, true])
    func autoDelayMatchesTheSceneWithoutDelay(preprocess: Bool) throws {
        let p = "preprocess=\(preprocess ? 1 : 0)"
        let aligned = try cancel(AECScene(delayMS: 0), ["delay=0", p])
        let auto = try cancel(AECScene(delayMS: 300), ["delay=auto", p])
        #expect(auto.erle >= aligned.erle - 3, "delay=auto at 300 ms: ERLE \(Self.fmt(auto.erle)) dB, at 0 ms \(Self.fmt(aligned.erle)) dB")
        // The note reports the estimate ("delay 300 ms (auto: ..."), give or take the room's onset.
        let estimate = auto.note.flatMap { note in
            note.range(of: #"delay (\d+(\.\d+)?) ms \(auto"#, options: .regularExpression).map { Double(note[$0].split(separator: " ")[1])! }
        }
        #expect(estimate.map { (290...310).contains($0) } == true, "estimated delay: \(auto.note ?? "no note")")
    }

    /// The number right after `label` in `note` ("found at " in "... found at 1.500 s, ..."), if any.
    static func number(after label: String, in note: String?) -> Double? {
        guard let note, let r = note.range(of: label) else { return nil }
        return Double(String(note[r.upperBound...].prefix { $0.isNumber || $0 == "." }))
    }

    /// The warm start: when `delay=auto` finds the delay within the history's reach (2 s of
    /// history by default), the canceller goes on exactly as one given that delay from the
    /// start: with `preprocess=0` the output is the fixed delay's, sample for sample, once the
    /// fast start's short filter (`EchoPathChange.delayFound`), which cancels the first echo
    /// meanwhile, has handed that canceller its place back, up to the echo-path change.
    @Test func warmStartGivesTheFixedDelaysCanceller() throws {
        let scene = AECScene(delayMS: 300)
        let ref = try write("far.wav", scene.far)
        let auto = try aec(["ref=\(ref)", "delay=auto", "preprocess=0"], mic: scene.mic)
        let ms = try #require(Self.number(after: "delay ", in: auto.note), "\(auto.note ?? "no note")")
        let found = try #require(Self.number(after: "found at ", in: auto.note), "\(auto.note ?? "no note")")
        let history = try #require(Self.number(after: "warm-started from ", in: auto.note), "\(auto.note ?? "no note")")
        let frame = AECScene.rate / 50 // the default frame, 20 ms
        let from = AECScene.frame(found) - frame
        #expect(history == Double(from) / Double(AECScene.rate), "the whole stream before the estimate's frame: \(auto.note ?? "")")
        let delayFrames = Int((ms * Double(AECScene.rate) / 1000).rounded())
        let fixed = try aec(["ref=\(ref)", "delay=\(delayFrames)f", "preprocess=0"], mic: scene.mic).out
        #expect(from > 0 && auto.out.count == fixed.count)
        let back = try #require(Self.number(after: "the full tail back at ", in: auto.note), "\(auto.note ?? "no note")")
        let same = AECScene.frame(back)..<AECScene.frame(AECScene.pathChange)
        #expect(same.count > AECScene.rate, "the full tail back at \(back) s")
        #expect(Array(auto.out[same]) == Array(fixed[same]),
                "first difference at sample \(zip(auto.out, fixed).enumerated().first { same.contains($0.offset) && $0.element.0 != $0.element.1 }.map { String($0.offset) } ?? "-")")
        #expect(Array(auto.out[..<from]) != Array(fixed[..<from])) // until then the reference was not delayed
    }

    // MARK: Exactness

    /// With `delay=0 preprocess=0` the output is speex's, call for call: speex_echo_state_init
    /// (the default frame and tail: 320-frame frames, 6400-frame tail), the sampling rate set,
    /// speex_echo_cancellation per frame on the same 16-bit samples. The input ends mid-frame.
    @Test func bitIdenticalToDirectSpeexCalls() throws {
        let scene = AECScene(delayMS: 40)
        let n = 2 * AECScene.rate + 77
        let mic = Array(scene.mic[0..<n]), far = Array(scene.far[0..<n])
        let ref = try write("far.wav", far)
        let out = try aec(["ref=\(ref)", "delay=0", "preprocess=0"], mic: mic).out
        #expect(out.count == n)

        let frame = 320
        let st = try #require(speex_echo_state_init(Int32(frame), 6400))
        defer { speex_echo_state_destroy(st) }
        var rate: Int32 = 16000
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
        var expected: [Int16] = []
        var rec = [Int16](repeating: 0, count: frame), play = rec, e = rec
        for start in stride(from: 0, to: n, by: frame) {
            for i in 0..<frame {
                rec[i] = start + i < n ? mic[start + i] : 0 // the last frame padded with zeros
                play[i] = start + i < n ? far[start + i] : 0
            }
            speex_echo_cancellation(st, rec, play, &e)
            expected += e
        }
        let whole = n / frame * frame
        #expect(out.count >= whole && Array(out[0..<whole]) == Array(expected[0..<whole]),
                "first difference at sample \(zip(out, expected).enumerated().first { $0.element.0 != $0.element.1 }.map { String($0.offset) } ?? "-")")
        // The part-filled last frame, padded with zeros as the unit says it does.
        #expect(out.count == n && Array(out[whole..<n]) == Array(expected[whole..<n]))
    }

    /// Two loudspeakers with different paths to the microphone: `speakers=2` models each path
    /// (speex's multichannel state, call for call as a direct call does), and cancels far more
    /// than the far end mixed to mono can.
    @Test func twoLoudspeakersAreModelledSeparately() throws {
        let n = 4 * AECScene.rate + 50
        var seed: UInt64 = 0x5EED
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(Int64(bitPattern: seed) >> 11) / Double(1 << 52) // -1..1
        }
        let left = (0..<n).map { _ in Int16(noise() * 3000) }, right = (0..<n).map { _ in Int16(noise() * 3000) }
        // Each loudspeaker's own short decaying path, the right one 2 ms later and inverted.
        let pathL = (0..<48).map { 0.45 * exp(-Double($0) / 8) }, pathR = (0..<80).map { $0 < 32 ? 0.0 : -0.4 * exp(-Double($0 - 32) / 10) }
        var mic = [Int16](repeating: 0, count: n)
        for i in 0..<n {
            var y = noise() * 3
            for (k, h) in pathL.enumerated() where i >= k { y += h * Double(left[i - k]) }
            for (k, h) in pathR.enumerated() where i >= k { y += h * Double(right[i - k]) }
            mic[i] = Int16(max(-32768, min(32767, y.rounded())))
        }
        let ref = try write("stereo-far.wav", (0..<n).flatMap { [left[$0], right[$0]] }, channels: 2)
        func erle(_ out: [Int16]) -> Double {
            let last = (n - 2 * AECScene.rate)..<n
            let m = last.reduce(0.0) { $0 + Double(mic[$1]) * Double(mic[$1]) }
            let o = last.reduce(0.0) { $0 + Double(out[$1]) * Double(out[$1]) }
            return 10 * log10(m / max(o, 1))
        }
        // speex's frame and tail given (10 ms, 200 ms), as the direct call below has them.
        let two = try aec(["ref=\(ref)", "speakers=2", "delay=0", "preprocess=0", "frame=10ms", "tail=200ms"], mic: mic).out
        let one = try aec(["ref=\(ref)", "delay=0", "preprocess=0", "frame=10ms", "tail=200ms"], mic: mic).out
        #expect(two.count == n && one.count == n)
        print("aec two loudspeakers: ERLE over the last 2 s \(Self.fmt(erle(two))) dB with speakers=2, \(Self.fmt(erle(one))) dB mixed to mono")
        #expect(erle(two) >= 15 && erle(two) >= erle(one) + 6, "speakers=2: \(erle(two)) dB, mixed to mono: \(erle(one)) dB")

        // The same frames through speex_echo_state_init_mc(160, 3200, 1 microphone, 2 speakers).
        let frame = 160
        let st = try #require(speex_echo_state_init_mc(Int32(frame), 3200, 1, 2))
        defer { speex_echo_state_destroy(st) }
        var rate: Int32 = 16000
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate)
        var expected: [Int16] = []
        var rec = [Int16](repeating: 0, count: frame), play = [Int16](repeating: 0, count: 2 * frame), e = rec
        for start in stride(from: 0, to: n / frame * frame, by: frame) {
            for i in 0..<frame {
                rec[i] = mic[start + i]
                play[2 * i] = left[start + i]
                play[2 * i + 1] = right[start + i]
            }
            speex_echo_cancellation(st, rec, play, &e)
            expected += e
        }
        #expect(Array(two[0..<expected.count]) == expected, "speakers=2 differs from a direct two-speaker speex call")
    }

    /// `ref-channel=1` on a stereo capture (microphone, reference) gives what `ref=` gives with
    /// the reference in a file.
    @Test func refChannelMatchesRefFile() throws {
        let scene = AECScene(delayMS: 40)
        let n = 3 * AECScene.rate + 5
        let mic = Array(scene.mic[0..<n]), far = Array(scene.far[0..<n])
        let ref = try write("far.wav", far)
        let fromFile = try aec(["ref=\(ref)"], mic: mic).out
        let stereo = (0..<n).flatMap { [mic[$0], far[$0]] }
        let fromChannel = try aec(["ref-channel=1"], mic: stereo, channels: 2).out
        #expect(fromFile.count == n)
        #expect(fromChannel == fromFile)
        #expect(fromFile != mic) // it did cancel something
    }

    /// The output has exactly the input's frames, for lengths that are not whole frames.
    @Test(arguments: [1, 159, 161, 4801, 16001])
    func outputLengthEqualsInputLength(frames: Int) throws {
        let scene = AECScene(delayMS: 40)
        let ref = try write("far.wav", Array(scene.far[0..<frames]))
        for preprocess in ["preprocess=0", "preprocess=1"] {
            let out = try aec(["ref=\(ref)", preprocess], mic: Array(scene.mic[0..<frames])).out
            #expect(out.count == frames, "\(preprocess): \(out.count) frames out for \(frames) in")
        }
    }

    /// The output does not depend on how the stream is cut into blocks.
    @Test func outputIndependentOfBlockSize() throws {
        let scene = AECScene(delayMS: 120)
        let n = 2 * AECScene.rate + 33
        let mic = Array(scene.mic[0..<n])
        let ref = try write("far.wav", Array(scene.far[0..<n]))
        // delay=auto finds the delay at 1.5 s and warm-starts the canceller.
        for args in [["delay=40ms"], ["delay=40ms", "preprocess=0"], ["delay=auto"]] {
            let reference = try aec(["ref=\(ref)"] + args, mic: mic, block: 4096).out
            #expect(reference.count == n)
            for block in [1, 7, 480] {
                #expect(try aec(["ref=\(ref)"] + args, mic: mic, block: block).out == reference, "block \(block), \(args)")
            }
        }
    }
}

/// `aec`'s defaults (only `ref=`) on the benchmark's scene kinds in small (`RoomScene`, 8 s):
/// rooms of RT60 0.2–1 s, a saturating loudspeaker, pink noise and babble. Each test prints its
/// figures and asserts what the defaults reach there (the issue's targets are reported by
/// bench/aec/run on its 42 s scenes, not asserted here: these are 8 s long and capped by their
/// noise). The residual echo suppressor (`residual=1`, the default) is compared with `residual=0`,
/// and its nonlinear canceller (`nonlinear=1`) with `nonlinear=0`, on a room and on the
/// saturating loudspeaker: what they add, and that they leave the near end as it was.
///
/// ERLE here is 10·log10(Σ mic² / Σ out²) over `RoomScene.converged` (3–5 s and 6.5–8 s, the far
/// end alone), capped by the noise (the ceiling printed beside it); "residual over noise" is
/// 10·log10(Σ out² / Σ noise²) there, which is at most 0 dB when what is left of the echo is
/// below the microphone's noise; the near end's gain is that of its own component in the output
/// during the double talk (least squares per 100 ms piece where it is above −45 dBFS), and its
/// SI-SDR (dB) is that of the output against the near end over those pieces (bench/aec's).
extension EchoSceneTests {
    struct RoomMeasurement: CustomStringConvertible {
        var erle, ceiling, residualOverNoise, nearGain, nearSISDR: Double
        var note: String?
        var description: String {
            "ERLE \(EchoSceneTests.fmt(erle)) dB (noise ceiling \(EchoSceneTests.fmt(ceiling))), residual over noise \(EchoSceneTests.fmt(residualOverNoise, sign: true)) dB, "
                + "near end in double talk \(EchoSceneTests.fmt(nearGain, sign: true)) dB (SI-SDR \(EchoSceneTests.fmt(nearSISDR)) dB); unit: \(note ?? "no note")"
        }
    }

    func cancel(_ scene: RoomScene, _ args: [String] = []) throws -> RoomMeasurement {
        let ref = try write("room-far.wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)"] + args, mic: scene.mic)
        #expect(out.count == scene.mic.count)
        func s(_ x: Int16) -> Double { Double(x) / 32768 }
        var m = 0.0, o = 0.0, z = 0.0
        for range in RoomScene.converged {
            for i in RoomScene.frame(range.lowerBound)..<RoomScene.frame(range.upperBound) {
                m += s(scene.mic[i]) * s(scene.mic[i])
                o += s(out[i]) * s(out[i])
                z += scene.noise[i] * scene.noise[i]
            }
        }
        var gained = 0.0, total = 0.0, cross = 0.0, outPower = 0.0
        let piece = RoomScene.rate / 10
        for start in stride(from: RoomScene.frame(RoomScene.doubleTalk.lowerBound), to: RoomScene.frame(RoomScene.doubleTalk.upperBound) - piece + 1, by: piece) {
            var ss = 0.0, ys = 0.0, yy = 0.0
            for i in start..<start + piece { ss += scene.near[i] * scene.near[i]; ys += s(out[i]) * scene.near[i]; yy += s(out[i]) * s(out[i]) }
            guard ss / Double(piece) >= pow(10, -4.5) else { continue }
            cross += ys
            outPower += yy
            let g = ys / ss
            gained += g * g * ss
            total += ss
        }
        // SI-SDR: the output's projection on the near end (α·s) over what is left.
        let alpha = cross / total, target = alpha * alpha * total
        let r = RoomMeasurement(erle: 10 * log10(m / o), ceiling: 10 * log10(m / z), residualOverNoise: 10 * log10(o / z),
                                nearGain: 10 * log10(gained / total), nearSISDR: 10 * log10(target / max(outPower - 2 * alpha * cross + target, 1e-20)), note: note)
        print("aec room scene (\(scene.name)), aec ref=far.wav \(args.joined(separator: " ")): \(r)")
        return r
    }

    @Test(arguments: [0.2, 0.6, 1.0])
    func roomsWithTheDefaults(rt60: Double) throws {
        let m = try cancel(RoomScene(rt60: rt60, delayMS: 120))
        #expect(m.erle >= Self.roomERLE[rt60]!, "RT60 \(rt60) s: \(m)")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m)")
    }

    /// What the defaults reach in `roomsWithTheDefaults` (40.9, 32.9 and 27.7 dB; 26.4, 18.3 and
    /// 21.4 without the residual echo suppressor), less 2 dB.
    static let roomERLE: [Double: Double] = [0.2: 38.5, 0.6: 30.5, 1.0: 25.5]

    @Test func saturatingLoudspeakerWithTheDefaults() throws {
        let m = try cancel(RoomScene(rt60: 0.3, delayMS: 80, drive: 3))
        #expect(m.erle >= 31.5, "reached 33.1 dB (30.7 with nonlinear=0, 21.7 without the residual echo suppressor): \(m)")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m)")
    }

    @Test(arguments: [RoomScene.Noise.pink(snrDB: 15), .babble(snrDB: 15)])
    func noiseWithTheDefaults(noise: RoomScene.Noise) throws {
        let m = try cancel(RoomScene(rt60: 0.4, delayMS: 80, noise: noise))
        // Reached: -20.5 dB in pink noise, -8.4 dB in babble (-19.2 and -7.2 without the
        // residual echo suppressor).
        #expect(m.residualOverNoise <= -6, "what is left of the echo is not 5 dB below the noise: \(m)")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m)")
    }

    /// `residual=1` (the default) against `residual=0`, on a room of RT60 0.6 s and on the
    /// saturating loudspeaker: the suppressor adds at least `residualAdds` dB of ERLE, and the
    /// near end's SI-SDR in double talk is not worse by more than 0.5 dB, its gain not below −2 dB.
    @Test(arguments: [0.0, 3.0])
    func residualSuppressorAddsWithoutDucking(drive: Double) throws {
        let scene = drive > 0 ? RoomScene(rt60: 0.3, delayMS: 80, drive: drive) : RoomScene(rt60: 0.6, delayMS: 120)
        let on = try cancel(scene), off = try cancel(scene, ["residual=0"])
        #expect(on.erle >= off.erle + Self.residualAdds[drive]!, "residual=1: \(on); residual=0: \(off)")
        #expect(on.nearSISDR >= off.nearSISDR - 0.5, "the near end's SI-SDR: \(Self.fmt(on.nearSISDR)) dB with, \(Self.fmt(off.nearSISDR)) dB without")
        #expect(on.nearGain >= -2, "the near end in double talk: \(on)")
    }

    /// What the suppressor adds in `residualSuppressorAddsWithoutDucking`, less 2 dB (reached:
    /// 14.6 dB in the room, 9.0 dB with the saturating loudspeaker; the near end's SI-SDR 0.2
    /// and 0.3 dB lower).
    static let residualAdds: [Double: Double] = [0: 12.5, 3: 7]

    /// `nonlinear=1` (the default) against `nonlinear=0`: with the saturating loudspeaker the
    /// nonlinear canceller adds at least `nonlinearAdds` dB of ERLE, and the near end keeps its
    /// gain in double talk (≥ −2 dB); in a room with a linear loudspeaker (RT60 0.6 s) it leaves
    /// the near end in double talk as it was (gain and SI-SDR within 0.5 dB) and the ERLE within
    /// 1 dB (its gate keeps an estimate that is not echo out).
    @Test(arguments: [0.0, 3.0])
    func nonlinearCancellerAddsWhereTheLoudspeakerSaturates(drive: Double) throws {
        // Quieter noise than the other room scenes (-75 dBFS): at -55 the noise hides what it adds.
        let noise = RoomScene.Noise.white(dBFS: -75)
        let scene = drive > 0 ? RoomScene(rt60: 0.3, delayMS: 80, drive: drive, noise: noise) : RoomScene(rt60: 0.6, delayMS: 120, noise: noise)
        let on = try cancel(scene), off = try cancel(scene, ["nonlinear=0"])
        if drive > 0 {
            #expect(on.erle >= off.erle + Self.nonlinearAdds, "nonlinear=1: \(on); nonlinear=0: \(off)")
        } else {
            #expect(abs(on.erle - off.erle) <= 1, "nonlinear=1: \(on); nonlinear=0: \(off)")
            #expect(abs(on.nearGain - off.nearGain) <= 0.5, "the near end's gain: \(Self.fmt(on.nearGain)) dB with, \(Self.fmt(off.nearGain)) dB without")
            #expect(abs(on.nearSISDR - off.nearSISDR) <= 0.5, "the near end's SI-SDR: \(Self.fmt(on.nearSISDR)) dB with, \(Self.fmt(off.nearSISDR)) dB without")
        }
        #expect(on.nearGain >= -2, "the near end in double talk: \(on)")
    }

    /// What the nonlinear canceller adds in `nonlinearCancellerAddsWhereTheLoudspeakerSaturates`
    /// with the saturating loudspeaker (reached: 2.3 dB, 31.0 to 33.3, in these 8 s; on bench/aec's
    /// 42 s scenes, 23.0 to 31.5 dB in the worse one: the filter needs more than a few seconds to
    /// converge), less 0.8 dB. In the room its gate stays shut: the same figures with and without.
    static let nonlinearAdds = 1.5
}

// MARK: echo-path changes and double talk (the shadow canceller)

/// An echo-path change is followed by a shadow canceller that takes over (`ShadowCanceller`);
/// double talk starts one too, which must never take over, nor the filter diverge.
extension EchoSceneTests {
    /// ERLE (dB) of `out` over `range` (s) of a `RoomScene`: 10·log10(Σ mic² / Σ out²).
    static func erle(_ scene: RoomScene, _ out: [Int16], _ range: Range<Double>) -> Double {
        var m = 0.0, o = 0.0
        for i in RoomScene.frame(range.lowerBound)..<RoomScene.frame(range.upperBound) {
            m += Double(scene.mic[i]) * Double(scene.mic[i])
            o += Double(out[i]) * Double(out[i])
        }
        return 10 * log10(m / o)
    }

    /// The 9 s scene at 40 ms with the defaults but `residual=0` (this is about the linear
    /// canceller: the suppressor would lift both sides unequally): the echo path changes at
    /// 4.5 s; a shadow canceller takes over within 1 s of it, and over 5.5–6 s (1–1.5 s after
    /// the change, up to the double talk) the ERLE is within 6 dB of the converged ERLE before
    /// it (2–4.5 s). With the true defaults (the suppressor on) every 100 ms piece over
    /// 5.5–6 s cancels 10 dB or more, and a shadow took over within 1 s there too.
    @Test func pathChangeReconvergesWithTheDefaults() throws {
        let m = try cancel(AECScene(delayMS: 40), ["residual=0"])
        let before = m.perStretch[0].1, after = m.perStretch[1].1
        print("path change: ERLE \(Self.fmt(before)) dB before it, \(Self.fmt(after)) dB 1-1.5 s after it")
        #expect(after >= before - 6, "\(m)")
        let at = Self.number(after: "the last at ", in: m.note)
        #expect(at.map { (AECScene.pathChange...AECScene.pathChange + 1).contains($0) } == true, "no take-over within 1 s of the change: \(m.note ?? "")")
        // With the residual echo suppressor on (the true defaults): reconverged as bench/aec/
        // defines it, every 100 ms piece from 1 s after the change up to the double talk
        // (5.5-6 s) cancels 10 dB or more. (Within 6 dB of before it is not: the suppressor
        // takes the converged stretch to 43.4 dB, the noise with it, and 5.5-6 s to 35.6.)
        let scene = AECScene(delayMS: 40)
        let ref = try write("far-path.wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)"], mic: scene.mic)
        var pieces: [Double] = []
        for start in stride(from: AECScene.frame(5.5), to: AECScene.frame(6.0), by: AECScene.rate / 10) {
            var m = 0.0, o = 0.0
            for i in start..<start + AECScene.rate / 10 { m += Double(scene.mic[i]) * Double(scene.mic[i]); o += Double(out[i]) * Double(out[i]) }
            pieces.append(10 * log10(m / max(o, 1)))
        }
        print("path change, defaults: ERLE per 100 ms over 5.5-6 s: \(pieces.map { Self.fmt($0) })")
        #expect(pieces.allSatisfy { $0 >= 10 }, "not reconverged 1 s after the change: \(pieces.map { Self.fmt($0) })")
        let atDefaults = Self.number(after: "the last at ", in: note)
        #expect(atDefaults.map { (AECScene.pathChange...AECScene.pathChange + 1).contains($0) } == true, "no take-over within 1 s of the change: \(note ?? "")")
    }

    /// The same with clock drift: the 32 s drift scene at +500 ppm with the defaults
    /// (`drift=auto`), the echo path changing at 20 s: a shadow takes over within 1.5 s of the
    /// change (at 21.38 s), and the ERLE over 21.5–22.5 s is within 6 dB of the ERLE over
    /// 17–20 s (after the double talk, the drift compensated; 62 dB against a −70 dBFS noise).
    /// Within 1 s it is not: over 20.5–21 s it is 10 dB.
    @Test func pathChangeWithDriftReconverges() throws {
        let scene = DriftScene(ppm: 500, pathChange: 20)
        let ref = try write("drift-far.wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)"], mic: scene.mic)
        #expect(out.count == scene.mic.count)
        func erle(_ range: Range<Double>) -> Double {
            var m = 0.0, o = 0.0
            for i in DriftScene.frame(range.lowerBound)..<DriftScene.frame(range.upperBound) {
                m += Double(scene.mic[i]) * Double(scene.mic[i])
                o += Double(out[i]) * Double(out[i])
            }
            return 10 * log10(m / o)
        }
        let before = erle(17.0..<20.0), after = erle(21.5..<22.5)
        var halves: [String] = []
        for k in 0..<10 {
            let t = 20 + Double(k) / 2
            halves.append(Self.fmt(erle(t..<t + 0.5)))
        }
        print("path change at +500 ppm: ERLE \(Self.fmt(before)) dB before it, \(Self.fmt(after)) dB 1.5-2.5 s after it; per half second from the change: \(halves); \(note ?? "")")
        #expect(after >= before - 6, "ERLE \(Self.fmt(before)) dB before, \(Self.fmt(after)) dB 1.5-2.5 s after the change")
        let at = Self.number(after: "the last at ", in: note)
        #expect(at.map { (20.0...21.5).contains($0) } == true, "no take-over within 1.5 s of the change: \(note ?? "")")
    }

    /// A room at 80 ms, double talk 5–6.5 s. The linear canceller (`residual=0`): the ERLE
    /// over the second after the double talk (6.5–7.5 s) is within 3 dB of the ERLE before it
    /// (3–5 s), and the shadow canceller the double talk started never took over. With the
    /// defaults (the residual echo suppressor on) the second after is no worse than without
    /// it, and the near end is kept (≥ −2 dB). (The suppressor's own recovery after double talk
    /// is slower than its gain before it: before 39.8 dB, after 29.7.)
    @Test func doubleTalkNeitherDivergesNorSwitches() throws {
        let scene = RoomScene(rt60: 0.4, delayMS: 80)
        let ref = try write("room-far.wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)", "residual=0"], mic: scene.mic)
        let before = Self.erle(scene, out, 3.0..<5.0), after = Self.erle(scene, out, 6.5..<7.5)
        let (withSuppressor, _) = try aec(["ref=\(ref)"], mic: scene.mic)
        let afterWith = Self.erle(scene, withSuppressor, 6.5..<7.5)
        #expect(afterWith >= after - 0.5, "the suppressor made the second after double talk worse: \(Self.fmt(afterWith)) dB against \(Self.fmt(after))")
        let m = try cancel(scene)
        print("double talk: ERLE \(Self.fmt(before)) dB before it, \(Self.fmt(after)) dB in the second after it; \(note ?? "")")
        #expect(after >= before - 3, "the filter diverged in double talk: \(Self.fmt(before)) dB before, \(Self.fmt(after)) after")
        #expect(m.nearGain >= -2, "the near end in double talk: \(m)")
        #expect(note.map { !$0.contains("taking over") || $0.contains("never taking over") } ?? true, "a shadow took over in double talk: \(note ?? "")")
    }
}

extension EchoSceneTests {
    /// Echo-path changes in rooms with a direct path (`RoomScene`, the path changing at 3 s,
    /// heard a delay later), with the defaults: a short shadow takes over within 1 s of the
    /// change, and every 100 ms piece of far end alone over 1–1.5 s after it (up to the double
    /// talk at 5 s) cancels 10 dB or more (mic over output; pieces where the echo is under
    /// 10 dB above the noise are left out, as bench/aec/ does). The diffuse room of `AECScene`
    /// is `pathChangeReconvergesWithTheDefaults`. (Reached: 37–73 dB. Not every room makes it:
    /// here at RT60 0.6, 0.8 and 1.0 s no shadow took over and the pieces of 1–1.5 s after
    /// the change cancel 2–13 dB; bench/aec/'s pathchange-rt10-d120, RT60 1 s, cancels 10 dB
    /// again only 3.5 s after its change.)
    @Test(arguments: [(0.2, 40), (0.4, 80)])
    func pathChangeReconvergesInRooms(rt60: Double, delayMS: Int) throws {
        let scene = RoomScene(rt60: rt60, delayMS: delayMS, pathChange: 3.0)
        let ref = try write("room-path-\(delayMS).wav", scene.far)
        let (out, note) = try aec(["ref=\(ref)"], mic: scene.mic)
        #expect(out.count == scene.mic.count)
        let heard = 3.0 + Double(delayMS) / 1000
        var pieces: [Double] = []
        for start in stride(from: RoomScene.frame(heard + 1.0), to: RoomScene.frame(heard + 1.5), by: RoomScene.rate / 10) {
            var m = 0.0, o = 0.0, e = 0.0, z = 0.0
            for i in start..<start + RoomScene.rate / 10 {
                m += Double(scene.mic[i]) * Double(scene.mic[i])
                o += Double(out[i]) * Double(out[i])
                e += scene.echo[i] * scene.echo[i]
                z += scene.noise[i] * scene.noise[i]
            }
            if e >= 10 * z { pieces.append(10 * log10(m / max(o, 1))) }
        }
        print("path change in \(scene.name): ERLE per 100 ms over 1-1.5 s after it: \(pieces.map { Self.fmt($0) }); \(note ?? "")")
        #expect(pieces.count >= 3, "too few pieces with echo: \(pieces.count)")
        #expect(pieces.allSatisfy { $0 >= 10 }, "not reconverged 1 s after the change: \(pieces.map { Self.fmt($0) })")
        let at = Self.number(after: "the last at ", in: note)
        #expect(at.map { (heard...heard + 1).contains($0) } == true, "no take-over within 1 s of the change: \(note ?? "")")
    }
}

extension EchoSceneTests {
    /// A near end that starts within a second of an echo-path change (the change heard at
    /// 4.38 s, a shadow taking over about then, the near end talking from 5 s: while the residual
    /// echo suppressor learns the transition at full depth) keeps its level: its gain in double
    /// talk is −2 dB or better, and the suppressor takes at most 1 dB more of it than `residual=0`
    /// in the same scene (reached: −1.8 dB against −1.1; −0.6 without the path change. Before the
    /// suppressor's level test counted during the transition, −2.6: a near end louder than the
    /// echo estimate was suppressed at full depth).
    @Test func nearEndJustAfterAPathChangeIsKept() throws {
        let scene = RoomScene(rt60: 0.4, delayMS: 80, pathChange: 4.3)
        let on = try cancel(scene), off = try cancel(scene, ["residual=0"])
        #expect(on.note?.contains("taking over") == true, "no shadow took over: \(on)")
        #expect(on.nearGain >= -2, "the near end after a path change: \(on)")
        #expect(on.nearGain >= off.nearGain - 1, "the near end after a path change: \(Self.fmt(on.nearGain)) dB, \(Self.fmt(off.nearGain)) dB with residual=0")
    }
}

extension EchoSceneTests {
    /// A speex echo state for `frame`-frame frames with a `tail`-frame filter at `rate` Hz, one
    /// microphone and one loudspeaker (destroyed with the object).
    static func speexState(frame: Int, tail: Int, rate: Int) throws -> EchoState {
        try EchoState(frameFrames: frame, tailFrames: tail, rate: rate)
    }

    /// A shadow canceller (`ShadowCanceller`) of two fresh speex states with a 400 ms tail, for
    /// `frame`-frame frames at `rate` Hz, one microphone; no hand-back.
    static func freshShadow(frame: Int, rate: Int) throws -> ShadowCanceller {
        func state() throws -> EchoState { try speexState(frame: frame, tail: rate * 4 / 10, rate: rate) }
        return ShadowCanceller(state: try state(), learner: try state(), frameFrames: frame, mics: 1, rate: rate)
    }

    /// A short shadow that took over hands the canceller's place back (`ShadowCanceller`,
    /// `handsBack`): the replaced full-tail state runs on beside it; when its output is 1 dB or
    /// more quieter (here silent against a loud one in use), it is handed back after
    /// `handBackLeastSeconds` (25 frames of 20 ms) and not before; when it never is (here
    /// louder), after `handBackMostSeconds` (400 frames). `handBack` returns the full-tail
    /// state and keeps the short one for the next shadow.
    @Test func aShortShadowHandsBackToTheFullTail() throws {
        let rate = 16000, frame = 320
        func state(_ tail: Int) throws -> EchoState { try Self.speexState(frame: frame, tail: tail, rate: rate) }
        let short = [try state(rate / 5), try state(rate / 5)], full = [try state(rate * 4 / 10), try state(rate * 4 / 10)]
        var random = SeededRandom(0x4A2D)
        let silent = [Int16](repeating: 0, count: frame)
        let loud = (0..<frame).map { _ in Int16(random.uniform(-3000...3000)) }
        // The full-tail state's output is its microphone (the reference silent): silent or loud.
        for (fullOut, inUseOut, expected) in [(silent, loud, 25), (loud, silent, 400)] {
            let i = expected == 25 ? 0 : 1
            let shadow = ShadowCanceller(state: short[i], learner: short[1 - i], frameFrames: frame, mics: 1, rate: rate, handsBack: true)
            shadow.start()
            let inUse = shadow.takeOver(replacing: full[i], at: 1, trail: false)
            #expect(inUse === short[i] && shadow.state === full[i])
            var frames = 0, verdict = ShadowCanceller.Verdict.none
            while verdict == .none, frames < 500 {
                verdict = shadow.run(rec: fullOut, play: silent, inUseOutput: inUseOut, echo: true)
                frames += 1
            }
            print("hand-back after \(frames) frames (expected \(expected))")
            #expect(verdict == .handBack && frames == expected, "\(verdict) after \(frames) frames")
            let back = shadow.handBack(inUse: inUse)
            #expect(back === full[i] && shadow.state === short[i] && shadow.handedBack == 1 && shadow.trailing == 0)
        }
    }
}

// MARK: the shadow's retraining, spread over frames

extension EchoSceneTests {
    /// A shadow canceller driven directly for 1.6 s of 20 ms frames after it starts (the far
    /// end noise, the microphone an echo of it through a short decaying path): no frame makes
    /// more than `ShadowCanceller.replayCallsPerFrame` speex calls of retraining (counted by the
    /// shadow itself), the bound is reached (the retraining is what it holds back), one
    /// retraining takes several frames, and retrainings finish (caught up and swapped in).
    @Test func shadowRetrainingIsBoundedPerFrame() throws {
        let rate = 16000, frame = 320, frames = 80
        let bound = ShadowCanceller.replayCallsPerFrame
        func state() throws -> EchoState { try Self.speexState(frame: frame, tail: rate * 4 / 10, rate: rate) }
        let states = [try state(), try state(), try state()]
        let shadow = ShadowCanceller(state: states[0], learner: states[1], frameFrames: frame, mics: 1, rate: rate)
        let history = EchoHistory(frameFrames: frame, mics: 1, maxDelay: 0, capacity: shadow.historyFrames)
        var random = SeededRandom(0x5AD0)
        let far = (0..<frames * frame).map { _ in Float(random.uniform() * 0.2 - 0.1) }
        let path = (0..<64).map { 0.5 * exp(-Double($0) / 12) }
        let mic: [Int16] = (0..<far.count).map { n in
            var y = 0.0
            for (k, h) in path.enumerated() where n >= k { y += h * Double(far[n - k]) }
            return Int16((y * 32767).rounded())
        }
        let play = UnsafeMutablePointer<Int16>.allocate(capacity: frame), scratch = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        let inUseOut = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        defer { play.deallocate(); scratch.deallocate(); inUseOut.deallocate() }
        inUseOut.initialize(repeating: 0, count: frame)
        var perFrame: [Int] = []
        shadow.start()
        for f in 0..<frames {
            far.withUnsafeBufferPointer { history.pushReference($0.baseAddress! + f * frame) }
            _ = shadow.retrain(history: history, delay: 0, play: play, scratch: scratch, inUse: states[2])
            perFrame.append(shadow.replayCalls)
            history.reference(back: 0, delay: 0, into: play)
            mic.withUnsafeBufferPointer { m in
                // The state in use cancels nothing here: its output is the microphone.
                inUseOut.update(from: m.baseAddress! + f * frame, count: frame)
                _ = shadow.run(rec: m.baseAddress! + f * frame, play: play, inUseOutput: inUseOut, echo: true)
                history.record(mic: m.baseAddress! + f * frame)
            }
        }
        let busy = perFrame.filter { $0 > 0 }.count, total = perFrame.reduce(0, +)
        print("shadow retraining: \(total) speex calls over \(busy) of \(frames) frames, at most \(perFrame.max() ?? 0) in one (bound \(bound)), \(shadow.retrainsDone) retrainings swapped in; per frame: \(perFrame)")
        #expect(perFrame.allSatisfy { $0 <= bound }, "a frame made more than \(bound) calls: \(perFrame)")
        #expect(shadow.mostReplayCalls == bound, "the bound was never reached: \(perFrame)")
        let spread = perFrame.indices.dropLast().contains { perFrame[$0] == bound && perFrame[$0 + 1] > 0 }
        #expect(spread, "no retraining went on into the next frame: \(perFrame)")
        #expect(shadow.retrainsDone >= 2, "retrainings did not finish: \(shadow.retrainsDone)")
    }
}

extension EchoSceneTests {
    /// Double talk as the shadow sees it: the canceller in use still cancels the echo (its
    /// output here a hundredth of the microphone, −40 dB) and a fresh shadow cannot: the shadow
    /// is dropped once it has run `leastSeconds` (10 frames of 20 ms), without taking over, and
    /// a new one may start only after `pauseSeconds`.
    @Test func aShadowLosingInDoubleTalkIsDroppedEarly() throws {
        let rate = 16000, frame = 320
        let shadow = try Self.freshShadow(frame: frame, rate: rate)
        var random = SeededRandom(0xD7A1)
        let play = (0..<frame).map { _ in Int16(random.uniform(-3000...3000)) }
        var ranFrames = 0
        shadow.start()
        for _ in 0..<50 where shadow.running {
            let mic = (0..<frame).map { i in Int16(clamping: Int(play[i]) / 2 + Int(random.uniform(-2000...2000))) }
            let inUse = mic.map { $0 / 100 }
            let verdict = shadow.run(rec: mic, play: play, inUseOutput: inUse, echo: true)
            #expect(verdict == .none, "a shadow took over from a canceller 40 dB quieter")
            ranFrames += 1
        }
        print("double talk: the shadow was dropped after \(ranFrames) frames (least 10, most 100)")
        #expect(!shadow.running && ranFrames == 10, "the shadow ran \(ranFrames) frames")
        #expect(shadow.tookOver == 0 && !shadow.mayStart, "took over \(shadow.tookOver) times; may start again at once: \(shadow.mayStart)")
    }
}
