import Testing
@testable import AUPipeKit

extension EchoSceneTests {
    /// While `DistortionSign` is on, a frame `NearEndPresence` takes for the near end's stays so
    /// only if it still does with the loudspeaker's harmonics counted at their learnt percentile,
    /// or its near-end bins reach the low band or span 400 Hz (`DistortionBurst`): the bursts of
    /// harmonics it held are echo alone, a near word's first frame is not. On
    /// `LongSmallLoudspeakerScene` the defaults cancel `burstERLE` at least with the near end at
    /// `burstNearDB` or better (26.42 dB, the near end −0.287 dB; without the second reading 25.98,
    /// −0.283: the threshold sits between them).
    @Test func aDistortingLoudspeakersBurstIsNotANearWord() throws {
        let m = try cancel(LongSmallLoudspeakerScene())
        #expect(m.erle >= Self.burstERLE, "\(m)")
        #expect(m.nearGain >= Self.burstNearDB, "the near end in double talk: \(m)")
    }

    static let burstERLE = 26.2, burstNearDB = -0.35
}
