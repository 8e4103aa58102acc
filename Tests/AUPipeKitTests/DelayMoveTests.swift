import Foundation
import Testing
@testable import AUPipeUnits
@testable import AUPipeGraph

/// `EchoAlignment.delayMoved`: once a delay is in use, a moved estimate is taken only when none
/// of the analyses that made it saw double talk (a near talker can raise a peak of its own at
/// another lag; at 48 kHz bench/aec's `drift+500` took one 300 ms off in double talk and lost
/// three seconds of cancellation to the retraining).
@Suite struct DelayMoveTests {
    static let rate = 16000, frame = 320

    /// Feeds `seconds` of a white far end and a microphone that is the far end `lagFrames`
    /// late, frame by frame; returns the frames at which `delayMoved` said the delay moved.
    static func run(_ alignment: EchoAlignment, seconds: Double, lagFrames: Int, from start: Int, far: [Float], sinceDoubleTalk: Int) throws -> [Int] {
        var moved: [Int] = []
        var mic = [Float](repeating: 0, count: frame), ref = [Float](repeating: 0, count: frame)
        for f in stride(from: start, to: start + Int(seconds * Double(rate)), by: frame) {
            for i in 0..<frame {
                ref[i] = far[f + i]
                mic[i] = f + i >= lagFrames ? 0.5 * far[f + i - lagFrames] : 0
            }
            try alignment.analyse(mic: mic, mics: 1, ref: ref, framesProcessed: Int64(f), sinceDoubleTalk: sinceDoubleTalk)
            if alignment.delayMoved(framesProcessed: Int64(f), sinceDoubleTalk: sinceDoubleTalk) { moved.append(f) }
        }
        return moved
    }

    @Test func aDelayThatMovesInDoubleTalkWaitsUntilItIsOver() throws {
        let rate = Self.rate
        let layout = EchoLayout(rate: rate, inChannels: 1, mics: 1, speakers: 1, frameFrames: Self.frame, tailFrames: rate * 2 / 5, maxDelayFrames: rate / 2)
        let alignment = try EchoAlignment(layout: layout, fixedDelay: nil, drift: .off, ownClock: false)
        var seed: UInt64 = 7
        let far = (0..<(12 * rate)).map { _ -> Float in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(Double(Int64(bitPattern: seed) >> 11) / Double(1 << 52)) * 0.3
        }
        // 70 ms for 3 s: the first delay (10 ms early).
        let first = try Self.run(alignment, seconds: 3, lagFrames: rate * 7 / 100, from: 0, far: far, sinceDoubleTalk: .max)
        #expect(first.count == 1)
        #expect(abs(alignment.delayFrames - rate * 6 / 100) <= 16, "first delay \(alignment.delayFrames) frames")
        // 200 ms for 3 s while the double-talk detector keeps firing: the estimate moves, the delay does not.
        let during = try Self.run(alignment, seconds: 3, lagFrames: rate / 5, from: 3 * rate, far: far, sinceDoubleTalk: 0)
        #expect(during.isEmpty, "the delay moved in double talk at frames \(during)")
        #expect(abs(alignment.delayFrames - rate * 6 / 100) <= 16)
        // The same once double talk is over: it moves, once.
        let after = try Self.run(alignment, seconds: 3, lagFrames: rate / 5, from: 6 * rate, far: far, sinceDoubleTalk: .max)
        #expect(after.count == 1)
        #expect(abs(alignment.delayFrames - rate * 19 / 100) <= 16, "moved delay \(alignment.delayFrames) frames")
    }
}
