import Testing
@testable import AUPipeKit

/// `ResidualEchoSuppressor.run(_:doubleTalk:pathChanged:)`: just after a confirmed echo-path
/// change the model learns from frames its coherence tests would refuse (a new filter's
/// estimate is not yet coherent with the microphone), never from double talk, and the weights
/// it had before come back when the change is over.
@Suite struct ResidualAfterAPathChangeTests {
    /// Frames of 320 samples at 16 kHz: an echo estimate of noise, and a canceller output that
    /// is either a tenth of it (coherent: the far end alone) or independent noise as loud as
    /// the estimate (what the coherence tests take for a near end).
    static func feed(_ r: ResidualEchoSuppressor, frames: Int, coherent: Bool, doubleTalk: Bool, pathChanged: Bool,
                     random: inout SeededRandom) {
        var mic = [Int16](repeating: 0, count: 320), cancelled = [Int16](repeating: 0, count: 320), out = [Int16](repeating: 0, count: 320)
        let reference = [Int16](repeating: 0, count: 320)
        for _ in 0..<frames {
            for i in 0..<320 {
                let y = random.gaussian() * 0.1
                let c = coherent ? 0.1 * y : random.gaussian() * 0.1
                mic[i] = Int16((y + c) * 32767)
                cancelled[i] = Int16(c * 32767)
                out[i] = cancelled[i]
            }
            r.capture(mic: mic, cancelled: &cancelled, reference: reference, speakers: 1)
            r.run(&out, doubleTalk: doubleTalk, pathChanged: pathChanged)
        }
    }

    @Test func aPathChangeLearnsAndThenGivesTheWeightsBack() {
        let r = ResidualEchoSuppressor(frameFrames: 320, rate: 16000, suppressDB: -80, activeDB: -30, nonlinear: false)
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
