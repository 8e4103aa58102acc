import Foundation
import Testing
@testable import AUPipeUnits

/// `BackgroundLevel` on made-up spectra (8 bins, frames of 20 ms): babble whose power swings
/// between 1 and 9 (units of full scale², per bin) around a median of 3, its noise floor at 1.
@Suite struct BackgroundLevelTests {
    /// Babble's frames alternate 1, 3, 9 (median 3): after 10 s the median stands within 1 dB of
    /// 3 in every bin, not at the floor of 1 (it steps about it by `stepDBPerSecond`); a frame
    /// under the median plus the predicted residual is explained, one where a near talker adds the
    /// background's power again is not.
    @Test func aFrameAtTheBackgroundsMedianIsExplainedAndATalkerOverItIsNot() {
        let bins = 8
        let background = BackgroundLevel(bins: bins, frameSeconds: 0.02)
        func frame(_ p: Float, heard: Bool = true, present: Bool = false, residual: Float = 0) -> Bool {
            let power = [Float](repeating: p, count: bins)
            return background.explains(power: power, heard: heard, present: present, powerSum: p * Float(bins), predicted: residual * Float(bins))
        }
        for i in 0..<500 { _ = frame([1, 3, 9][i % 3]) }
        for k in 0..<bins {
            #expect(abs(10 * log10(background.level[k] / 3)) < 1, "bin \(k): the median \(background.level[k]), babble's is 3")
        }
        #expect(frame(2.7, heard: false), "babble just under its median: explained")
        #expect(frame(3.2, heard: false, residual: 0.6), "babble and the residual R just under the median and R: explained")
        #expect(!frame(6, heard: false), "a near talker at the background's level over it: not explained")
    }

    /// For `heldSeconds` after a frame `NearEndPresence` took for a near end's, no frame is
    /// explained; nor before the first frame heard. C stands at 1 in every bin (the median too),
    /// each frame's sum 10 % under it.
    @Test func notWhileANearTalkerWasJustHeardNorBeforeTheFarEnd() {
        let bins = 8
        let background = BackgroundLevel(bins: bins, frameSeconds: 0.02)
        let power = [Float](repeating: 1, count: bins)
        func frame(heard: Bool = true, present: Bool = false) -> Bool {
            background.explains(power: power, heard: heard, present: present, powerSum: 0.9 * Float(bins), predicted: 0)
        }
        #expect(!frame(heard: false), "no frame heard yet")
        #expect(frame(), "the far end heard, C under its median")
        #expect(!frame(present: true), "NearEndPresence's frame")
        let held = Int((BackgroundLevel.heldSeconds / 0.02).rounded())
        let after = (0..<held + 1).map { _ in frame() }
        #expect(after.dropLast().allSatisfy { !$0 } && after.last == true, "held for \(held) frames, then explained again: \(after)")
    }
}
