import Foundation
import Testing
@testable import AUPipeUnits
@testable import AUPipeGraph

/// `ShadowCanceller.promiseDB`: a shadow started at a fall of the cancellation is retrained
/// after `leastSeconds` only while its output is within `promiseDB` of the canceller's in use.
@Suite struct ShadowPromiseTests {
    /// Double talk as a shadow sees it: a microphone of noise that the far end (other noise)
    /// does not explain, which the shadow cannot cancel, and a canceller in use whose output is
    /// the microphone `louderDB` down (so the shadow stays about that much louder: not dropped
    /// under `loseDB`, never taking over), for `frames` frames of 20 ms; the speex calls of
    /// retraining per frame and whether the shadow still runs.
    static func retrainingCalls(louderDB: Double, frames: Int = 60) throws -> (perFrame: [Int], running: Bool) {
        let rate = 16000, frame = 320
        func state() throws -> EchoState { try EchoState(frameFrames: frame, tailFrames: rate / 5, rate: rate) }
        let states = [try state(), try state(), try state()]
        let shadow = ShadowCanceller(state: states[0], learner: states[1], frameFrames: frame, mics: 1, rate: rate)
        let history = EchoHistory(frameFrames: frame, mics: 1, maxDelay: 0, capacity: shadow.historyFrames)
        var random = SeededRandom(0x960D)
        let far = (0..<frames * frame).map { _ in Float(random.uniform() * 0.2 - 0.1) }
        let mic: [Int16] = far.indices.map { _ in Int16(random.uniform(-3000...3000)) }
        let play = UnsafeMutablePointer<Int16>.allocate(capacity: frame), scratch = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        let inUseOut = UnsafeMutablePointer<Int16>.allocate(capacity: frame)
        defer { play.deallocate(); scratch.deallocate(); inUseOut.deallocate() }
        let gain = Float(pow(10, -louderDB / 20))
        var perFrame: [Int] = []
        shadow.start()
        for f in 0..<frames where shadow.running {
            far.withUnsafeBufferPointer { history.pushReference($0.baseAddress! + f * frame) }
            _ = shadow.retrain(history: history, delay: 0, play: play, scratch: scratch, inUse: states[2])
            perFrame.append(shadow.replayCalls)
            history.reference(back: 0, delay: 0, into: play)
            for i in 0..<frame { inUseOut[i] = Int16((Float(mic[f * frame + i]) * gain).rounded()) }
            mic.withUnsafeBufferPointer { m in
                _ = shadow.run(rec: m.baseAddress! + f * frame, play: play, inUseOutput: inUseOut, echo: true)
                history.record(mic: m.baseAddress! + f * frame)
            }
        }
        return (perFrame, shadow.running)
    }

    /// 3 dB louder (between `promiseDB` and `loseDB`): retrained in its first `leastSeconds`
    /// (10 frames) and never after; 1 dB louder: retrained on, every `retrainSeconds`, up to
    /// `replaySeconds` (50 frames). Both still run after 60 frames.
    @Test func aShadowLouderThanItsPromiseIsNotRetrained() throws {
        let loud = try Self.retrainingCalls(louderDB: 3), close = try Self.retrainingCalls(louderDB: 1)
        print("shadow 3 dB louder: \(loud.perFrame); 1 dB louder: \(close.perFrame)")
        #expect(ShadowCanceller.promiseDB < 3 && 3 < ShadowCanceller.loseDB && 1 < ShadowCanceller.promiseDB)
        #expect(loud.running && close.running && loud.perFrame.count == 60 && close.perFrame.count == 60)
        #expect(loud.perFrame[..<10].reduce(0, +) > 0 && loud.perFrame[10...].allSatisfy { $0 == 0 }, "\(loud.perFrame)")
        #expect(close.perFrame[10..<50].filter { $0 > 0 }.count >= 8, "\(close.perFrame)")
    }
}
