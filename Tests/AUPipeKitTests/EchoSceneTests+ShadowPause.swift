import Foundation
import Testing
@testable import AUPipeUnits
@testable import AUPipeGraph

extension EchoSceneTests {
    /// A shadow started in a pause of the far end (frames without echo: it has learnt nothing
    /// of the echo path) is judged only on frames with echo: it is dropped for being `loseDB`
    /// louder than the canceller in use only after `leastSeconds` (10 frames of 20 ms) of them,
    /// not at the first frame of echo that follows the pause (which dropped the shadow of an
    /// echo-path change heard in a pause, and the next could start only `pauseSeconds` later).
    @Test func aShadowStartedInAFarEndPauseIsJudgedOnFramesWithEcho() throws {
        let rate = 16000, frame = 320
        let shadow = try Self.freshShadow(frame: frame, rate: rate)
        var random = SeededRandom(0x5A05E)
        let silent = [Int16](repeating: 0, count: frame)
        shadow.start()
        // 20 frames (0.4 s) of far-end pause: the microphone holds only the room's noise, which
        // neither filter cancels.
        for _ in 0..<20 {
            let mic = (0..<frame).map { _ in Int16(random.uniform(-100...100)) }
            #expect(shadow.run(rec: mic, play: silent, inUseOutput: mic, echo: false) == .none)
        }
        #expect(shadow.running, "dropped in the far end's pause")
        // Then the far end plays; the canceller in use cancels its echo (40 dB), the fresh shadow not yet.
        let play = (0..<frame).map { _ in Int16(random.uniform(-3000...3000)) }
        var heard = 0
        for _ in 0..<50 where shadow.running {
            let mic = (0..<frame).map { i in Int16(clamping: Int(play[i]) / 2 + Int(random.uniform(-100...100))) }
            let inUse = mic.map { $0 / 100 }
            #expect(shadow.run(rec: mic, play: play, inUseOutput: inUse, echo: true) == .none)
            heard += 1
        }
        print("a shadow started in a far-end pause of 20 frames was dropped after \(heard) frames with echo (least 10)")
        #expect(!shadow.running && heard == 10, "the shadow was dropped after \(heard) frames with echo")
    }
}
