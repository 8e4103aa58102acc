import Foundation
import Testing
@testable import AUPipeUnits
@testable import AUPipeGraph

/// `YoungFilterPasses`: when a young canceller gets an extra adaptation pass over the recent past,
/// and what a pass does to a speex state learning an echo under noise.
@Suite struct YoungFilterPassesTests {
    static let frameSeconds = 0.02, tail = 6400

    /// The frames (0-based) in which `due` granted a pass over `frames` frames, each frame's
    /// conditions given by `condition` (delay known, busy, DSP frames since double talk, near
    /// end heard), the far end playing in every frame.
    static func granted(_ frames: Int, _ condition: (Int) -> (Bool, Bool, Int, Bool)) -> [Int] {
        var passes = YoungFilterPasses(frameSeconds: frameSeconds, tailFrames: tail)
        var at: [Int] = []
        for f in 0..<frames {
            let (known, busy, since, near) = condition(f)
            if passes.due(delayKnown: known, busy: busy, sinceDoubleTalk: since, nearHeard: near) != nil { at.append(f) }
            passes.count(farEnd: true, delayKnown: known)
        }
        return at
    }

    @Test func passesComeEveryPeriodWhileTheFilterIsYoung() {
        let passes = YoungFilterPasses(frameSeconds: Self.frameSeconds, tailFrames: Self.tail)
        #expect(passes.periodFrames == 25 && passes.youngFrames == 750)
        // A pass is at most half the replay budget: 640 000 / 2 / 6400 taps = 50 frames (1 s).
        #expect(passes.passFrames == 50)
        let at = Self.granted(2000) { f in (f >= 10, false, 1000, false) }
        #expect(at.first == 10 + 24, "the first pass a period after the delay is known: \(at.prefix(3))")
        #expect(zip(at, at.dropFirst()).allSatisfy { $1 - $0 == 25 }, "every period")
        #expect(at.last! < 10 + 750, "none after youngSeconds of far end: the last at frame \(at.last!)")
        #expect(at.count == 30)
    }

    @Test func noPassWhileANearEndMayBeInIt() {
        // Double talk 0.4 s ago (fewer DSP frames than a pass replays), a near end heard, a
        // shadow running: no pass, but the young window still counts down.
        #expect(Self.granted(400) { _ in (true, false, 20, false) }.isEmpty)
        #expect(Self.granted(400) { _ in (true, false, 1000, true) }.isEmpty)
        #expect(Self.granted(400) { _ in (true, true, 1000, false) }.isEmpty)
        #expect(Self.granted(400) { _ in (false, false, 1000, false) }.isEmpty)
        // Once the condition clears, a pass at once (the period has long passed).
        #expect(Self.granted(400) { f in (true, f < 200, 1000, false) }.first == 200)
    }

    /// A room's echo (100 ms) of a noise far end under microphone noise 6 dB louder than the
    /// echo, through a 200 ms speex state for `seconds`; with `passes`, an extra pass over the last
    /// second every 0.5 s (the history replayed in order, as `LinearEchoCanceller.pass` does).
    /// Returns the echo-only ERLE over the last second (dB), by phase inversion as bench/aec
    /// measures it: the same run with the noise's sign flipped, the residual half the outputs' sum.
    static func echoOnlyERLE(passes: Bool, seconds: Double = 2) throws -> Double {
        let rate = 16000, frame = 320, frames = Int(seconds / frameSeconds)
        var random = SeededRandom(0x70_4E6)
        let room = (0..<1600).map { i in exp(-Double(i) / 250) * (random.uniform() * 2 - 1) * 0.03 }
        let far = (0..<frames * frame).map { _ in random.uniform() * 0.4 - 0.2 }
        var echo = [Double](repeating: 0, count: far.count)
        for n in far.indices { for k in 0...min(n, room.count - 1) { echo[n] += room[k] * far[n - k] } }
        let echoRMS = (echo.map { $0 * $0 }.reduce(0, +) / Double(echo.count)).squareRoot()
        let noise = far.indices.map { _ in 2 * echoRMS * random.gaussian() }
        func s16(_ x: Double) -> Int16 { Int16(max(-32768, min(32767, (x * 32768).rounded()))) }
        let play = far.map(s16)
        var outs: [[Int16]] = []
        for sign in [1.0, -1.0] {
            let state = try EchoState(frameFrames: frame, tailFrames: rate / 5, rate: rate)
            let mic = echo.indices.map { s16(echo[$0] + sign * noise[$0]) }
            var out = [Int16](repeating: 0, count: mic.count)
            let scratch = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
            defer { scratch.deallocate() }
            play.withUnsafeBufferPointer { p in mic.withUnsafeBufferPointer { m in out.withUnsafeMutableBufferPointer { o in
                for f in 0..<frames {
                    if passes, f % 25 == 24 {
                        for g in max(0, f - 50)..<f { state.cancel(m.baseAddress! + g * frame, p.baseAddress! + g * frame, into: scratch) }
                    }
                    state.cancel(m.baseAddress! + f * frame, p.baseAddress! + f * frame, into: o.baseAddress! + f * frame)
                }
            } } }
            outs.append(out)
        }
        let last = (frames - 50) * frame..<frames * frame
        let residual = last.map { i -> Double in let r = (Double(outs[0][i]) + Double(outs[1][i])) / 2 / 32768; return r * r }.reduce(0, +)
        let echoPower = last.map { echo[$0] * echo[$0] }.reduce(0, +)
        return 10 * log10(echoPower / max(residual, 1e-20))
    }

    /// After 2 s (the second second measured): 11.2 dB without passes, 15.5 with them.
    @Test func aPassLetsTheStateLearnUnderNoiseSooner() throws {
        let without = try Self.echoOnlyERLE(passes: false), with = try Self.echoOnlyERLE(passes: true)
        print("a speex state under noise 6 dB over the echo, 1-2 s: echo-only ERLE \(without) dB, with passes \(with) dB")
        #expect(with >= without + 3, "passes: \(with) dB against \(without)")
    }
}
