import Foundation
import Testing
@testable import AUPipeKit

extension RoomScene {
    /// bench/aec/scenes.py's small loudspeaker driven hard (`loudspeaker()`): the cone's
    /// resonance (+9 dB at 400 Hz, Q 2, a peaking biquad) before a tanh that saturates 1.8×
    /// sooner on the negative side, then a second-order high-pass at 180 Hz (Q 0.707). A linear
    /// filter explains its output to about 6 dB, and no power series of the far end alone does
    /// much better (the resonance comes first).
    static func smallLoudspeaker(_ x: [Double], drive: Double) -> [Double] {
        let rate = Double(Self.rate)
        func biquad(_ x: [Double], _ b: (Double, Double, Double), _ a: (Double, Double)) -> [Double] {
            var y = [Double](repeating: 0, count: x.count), x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            for i in x.indices {
                y[i] = b.0 * x[i] + b.1 * x1 + b.2 * x2 - a.0 * y1 - a.1 * y2
                (x2, x1, y2, y1) = (x1, x[i], y1, y[i])
            }
            return y
        }
        var w = 2 * Double.pi * 400 / rate
        let gain = pow(10, 9.0 / 40), q = 2.0
        var alpha = sin(w) / (2 * q)
        var a0 = 1 + alpha / gain
        let u = biquad(x, ((1 + alpha * gain) / a0, -2 * cos(w) / a0, (1 - alpha * gain) / a0), (-2 * cos(w) / a0, (1 - alpha / gain) / a0))
        let y = u.map { v in
            let k = v >= 0 ? drive : drive * 1.8
            return tanh(k * v) / k
        }
        w = 2 * Double.pi * 180 / rate
        alpha = sin(w) / (2 * 0.7071)
        a0 = 1 + alpha
        let c = (1 + cos(w)) / 2 / a0
        return biquad(y, (c, -2 * c, c), (-2 * cos(w) / a0, (1 - alpha) / a0))
    }
}

extension EchoSceneTests {
    /// The nonlinear canceller on the small loudspeaker takes its echo, not the near end: the
    /// defaults against `nonlinear=0` (nothing else changed), the ERLE higher by
    /// `nonlinearGainDB` at least and the near end in double talk within `nonlinearNearDB`
    /// (30.2 against 24.6 dB, the near end −0.9 dB in both; the gap holds the canceller's own
    /// gain and `DistortedEcho`'s, which runs only while the canceller models a distortion;
    /// before `DistortedEcho` the defaults reached 26.0 dB; before the canceller's two terms,
    /// least-squares share and short first pause 23.1 dB, under `nonlinear=0`'s).
    @Test func theNonlinearCancellerKeepsTheNearEndOfASmallLoudspeaker() throws {
        let scene = RoomScene(rt60: 0.3, delayMS: 80, drive: 3, smallSpeaker: true)
        let with = try cancel(scene), without = try cancel(scene, ["nonlinear=0"])
        #expect(with.erle >= without.erle + Self.nonlinearGainDB, "defaults \(with); nonlinear=0 \(without)")
        #expect(with.nearGain >= without.nearGain - Self.nonlinearNearDB, "the near end in double talk: defaults \(with); nonlinear=0 \(without)")
    }

    static let nonlinearGainDB = 3.5, nonlinearNearDB = 0.1

    /// A small loudspeaker driven hard (`RoomScene.smallLoudspeaker`): what the linear canceller
    /// leaves is mostly its distortion, which also makes the microphone incoherent with the echo
    /// estimate. While the nonlinear canceller models that distortion, the residual echo
    /// suppressor takes the frames its model explains for echo alone and keeps no bin of them as
    /// near end by coherence (`DistortedEcho`): the defaults cancel `distortedERLE` at least, with
    /// the near end in double talk at `distortedNearDB` or better (30.2 dB, near end −0.9; before
    /// `DistortedEcho` 26.0 dB, −0.91).
    @Test func aDistortingLoudspeakersExplainedFramesAreEchoAlone() throws {
        let m = try cancel(RoomScene(rt60: 0.3, delayMS: 80, drive: 3, smallSpeaker: true))
        #expect(m.erle >= Self.distortedERLE, "\(m)")
        #expect(m.nearGain >= Self.distortedNearDB, "the near end in double talk: \(m)")
    }

    static let distortedERLE = 29.5, distortedNearDB = -1.0
}
