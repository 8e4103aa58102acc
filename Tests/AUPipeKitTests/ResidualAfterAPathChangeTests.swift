import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `ResidualEchoSuppressor.run(_:doubleTalk:pathChanged:)`: just after a confirmed echo-path
/// change the model learns from frames its coherence tests would refuse (a new filter's
/// estimate is not yet coherent with the microphone), never from double talk, and the weights
/// it had before come back when the change is over.
@Suite struct ResidualAfterAPathChangeTests {
    /// Frames of 320 samples at 16 kHz: an echo estimate of noise, and a canceller output that
    /// is either a tenth of it (coherent: the far end alone) or independent noise as loud as
    /// the estimate (what the coherence tests take for a near end); plus, in both the
    /// microphone and the canceller's output, independent noise whose RMS in each frame is
    /// `background` times a level between −10 and +5 dB (a room's babble, which comes and goes;
    /// the estimate's RMS is 0.1).
    static func feed(_ r: ResidualEchoSuppressor, frames: Int, coherent: Bool, doubleTalk: Bool, pathChanged: Bool,
                     background: Double = 0, random: inout SeededRandom) {
        var mic = [Int16](repeating: 0, count: 320), cancelled = [Int16](repeating: 0, count: 320), out = [Int16](repeating: 0, count: 320)
        for _ in 0..<frames {
            let level = background > 0 ? background * pow(10, (15 * random.uniform() - 10) / 20) : 0
            for i in 0..<320 {
                let y = random.gaussian() * 0.1
                let c = (coherent ? 0.1 * y : random.gaussian() * 0.1) + (background > 0 ? level * random.gaussian() : 0)
                mic[i] = Int16((y + c) * 32767)
                cancelled[i] = Int16(c * 32767)
                out[i] = cancelled[i]
            }
            r.capture(mic: mic, cancelled: cancelled)
            r.run(&out, doubleTalk: doubleTalk, pathChanged: pathChanged)
        }
    }

    @Test func aPathChangeLearnsAndThenGivesTheWeightsBack() {
        let r = ResidualEchoSuppressor(frameFrames: 320, rate: 16000, suppressDB: -80, activeDB: -30)
        var random = SeededRandom(0x9A7C)
        Self.feed(r, frames: 200, coherent: true, doubleTalk: false, pathChanged: false, random: &random)
        let before = r.weightSums, adaptedBefore = r.framesAdapted
        #expect(adaptedBefore > 100)
        // Incoherent frames: refused outside a path change (but for the first two or three,
        // while the smoothed coherence falls).
        Self.feed(r, frames: 30, coherent: false, doubleTalk: false, pathChanged: false, random: &random)
        let refused = r.framesAdapted
        #expect(refused <= adaptedBefore + 3, "adapted to \(refused - adaptedBefore) of 30 frames its coherence tests refuse")
        let kept = r.weightSums
        // The same just after a path change: learnt (the residual is ten times larger)...
        Self.feed(r, frames: 30, coherent: false, doubleTalk: false, pathChanged: true, random: &random)
        #expect(r.framesAdapted - refused >= 25, "adapted to \(r.framesAdapted - refused) of 30 frames")
        #expect(r.weightSums.0 > 2 * kept.0, "the weights did not grow: \(kept) -> \(r.weightSums)")
        // ...but never from double talk.
        let during = r.framesAdapted
        Self.feed(r, frames: 10, coherent: false, doubleTalk: true, pathChanged: true, random: &random)
        #expect(r.framesAdapted == during)
        // The change over: the weights of before it, exactly.
        Self.feed(r, frames: 1, coherent: false, doubleTalk: true, pathChanged: false, random: &random)
        #expect(r.weightSums == kept, "not given back: \(kept) -> \(r.weightSums)")
        print("residual weights: trained \(before), kept \(kept)")
    }
}

/// `ResidualEchoSuppressor`'s gain allows for the room's background: where the microphone is
/// less coherent with the echo estimate in every frame (babble), frames of the far end alone
/// are taken for such once the running median of the incoherence has followed (the model still
/// adapts only on the frames its strict test takes), and a near talker as loud as the echo is
/// still taken for one.
@Suite struct ResidualBackgroundTests {
    @Test func babbleIsBackgroundAndANearTalkerIsNot() {
        let r = ResidualEchoSuppressor(frameFrames: 320, rate: 16000, suppressDB: -80, activeDB: -30)
        var random = SeededRandom(0xBAB1)
        // Background noise 8.5 dB under the echo estimate on average (its level moving over
        // 15 dB from frame to frame): an incoherence of about 0.1, over the 0.07 that a quiet
        // room allows and under the 0.12 that any background may.
        let babble = 0.1 * 0.16.squareRoot()
        ResidualAfterAPathChangeTests.feed(r, frames: 10, coherent: true, doubleTalk: false, pathChanged: false, background: babble, random: &random)
        let early = r.framesEchoAlone
        ResidualAfterAPathChangeTests.feed(r, frames: 30, coherent: true, doubleTalk: false, pathChanged: false, background: babble, random: &random)
        #expect(r.framesEchoAlone - early <= 10, "before the median followed: \(r.framesEchoAlone - early) of 30 frames taken for the far end alone")
        // 8 s later (the median moves 0.0125 a second).
        ResidualAfterAPathChangeTests.feed(r, frames: 400, coherent: true, doubleTalk: false, pathChanged: false, background: babble, random: &random)
        let settled = r.framesEchoAlone, adapted = r.framesAdapted
        ResidualAfterAPathChangeTests.feed(r, frames: 100, coherent: true, doubleTalk: false, pathChanged: false, background: babble, random: &random)
        #expect(r.framesEchoAlone - settled >= 90, "after: \(r.framesEchoAlone - settled) of 100 frames taken for the far end alone")
        #expect(2 * (r.framesAdapted - adapted) <= r.framesEchoAlone - settled,
                "the model adapted on \(r.framesAdapted - adapted) of the \(r.framesEchoAlone - settled) frames the gain took for the far end alone: its test is the strict one")
        // A near talker as loud as the echo, the double-talk detector silent: near, every frame
        // but the first few (while the smoothed coherence falls).
        let before = r.framesEchoAlone
        ResidualAfterAPathChangeTests.feed(r, frames: 100, coherent: false, doubleTalk: false, pathChanged: false, background: babble, random: &random)
        #expect(r.framesEchoAlone - before <= 5, "a near talker: \(r.framesEchoAlone - before) of 100 frames taken for the far end alone")
        print("residual background: far end alone in \(early) of the first 10 frames, \(settled - early) of the next 430, then \(before - settled) of 100; a near talker \(r.framesEchoAlone - before) of 100")
    }

    /// In a quiet room nothing changes: coherent frames are the far end's alone from the start.
    @Test func aQuietRoomIsAsBefore() {
        let r = ResidualEchoSuppressor(frameFrames: 320, rate: 16000, suppressDB: -80, activeDB: -30)
        var random = SeededRandom(0x0A1E7)
        ResidualAfterAPathChangeTests.feed(r, frames: 100, coherent: true, doubleTalk: false, pathChanged: false, random: &random)
        #expect(r.framesEchoAlone >= 95 && r.framesAdapted >= 90, "\(r.framesEchoAlone) and \(r.framesAdapted) of 100")
    }
}
