import Foundation
import Testing
@testable import AUPipeGraph

/// `SpeechLevelRange` (vad's level gate) on a stream of band levels, nats per 10 ms frame: a noise
/// near 0 (±0.3) for 300 ms, then a talker 5 nats (21.7 dB) above it for 200 ms, over and over.
@Suite struct SpeechLevelRangeTests {
    /// Frame `j`'s level, and whether it is the talker's.
    static func level(_ j: Int) -> (level: Float, talker: Bool) {
        j % 50 >= 30 ? (5, true) : (0.3 * sinf(Float(j) * 1.7), false)
    }

    /// The gate opens out from its first frame within a second: from the second pause on (frame 50,
    /// 0.5 s), no noise frame 100 ms or more into a pause passes. With a constant step (0.02 nats a
    /// frame, as before the start's larger step) noise frames still passed 2.8 s in: babble read as
    /// speech for the first seconds of every stream.
    @Test func noiseIsGatedFromTheFirstSecond() {
        var gate = SpeechLevelRange()
        var lastNoisePassing = -1
        for j in 0..<600 {
            let (level, talker) = Self.level(j)
            if gate.passes(level: level), !talker, j % 50 >= 10 { lastNoisePassing = j }
        }
        #expect(lastNoisePassing >= 0 && lastNoisePassing < 50, "last noise frame passing: \(lastNoisePassing)")
    }

    /// The talker is not gated: every talker frame after the first of each burst (the 50 ms
    /// smoothing of the level lags there) passes, from the start to the end.
    @Test func talkerPasses() {
        var gate = SpeechLevelRange()
        var missed: [Int] = []
        for j in 0..<600 {
            let (level, talker) = Self.level(j)
            if !gate.passes(level: level), talker, j % 50 > 30 { missed.append(j) }
        }
        #expect(missed.isEmpty, "talker frames gated: \(missed)")
    }

    /// Silent frames before the range has started neither start it nor count towards the start:
    /// a stream that opens with 5 s of digital silence is gated as one that opens with the noise.
    @Test func silentFramesDoNotSpendTheStart() {
        var plain = SpeechLevelRange(), afterSilence = SpeechLevelRange()
        for _ in 0..<500 { _ = afterSilence.passes(level: -40, silent: true) }
        for j in 0..<600 {
            let level = Self.level(j).level
            #expect(plain.passes(level: level) == afterSilence.passes(level: level), "frame \(j)")
        }
    }

    /// Once started, silent frames count at the floor level they are given: speech whose pauses
    /// are digital silence (15 nats, 65 dB, under its loud syllables, as at the detector's floor)
    /// keeps its quieter syllables (2.5 nats under the loud ones), which a range spanning the
    /// speech alone gates (32 of these 128 frames when silent frames are not counted). The first
    /// 60 ms of each burst are left out: the level's smoothing rises from the silence there.
    @Test func silentPausesKeepQuietSyllables() {
        var gate = SpeechLevelRange()
        var quietGated = 0, quietFrames = 0
        for j in 0..<1000 {
            // 300 ms of speech (loud 5, quiet 2.5 every third frame), then 200 ms of digital silence.
            let inSpeech = j % 50 < 30
            let level: Float = inSpeech ? (j % 3 == 0 ? 2.5 : 5) : -10
            let passed = gate.passes(level: level, silent: !inSpeech)
            if inSpeech, j % 3 == 0, j % 50 >= 6, j >= 200 {
                quietFrames += 1
                if !passed { quietGated += 1 }
            }
        }
        #expect(quietFrames == 128 && quietGated == 0, "quiet syllables gated: \(quietGated) of \(quietFrames)")
    }
}
