import Foundation
import Testing
@testable import AUPipeUnits

/// A distorting loudspeaker's harmonics per bin (issue 26, `DistortionSpread`): nothing predicted
/// before it learns, the learnt level at the 90th percentile of C's power over its sources, the
/// prediction at this frame's harmonic sources only, and R itself when not used.
@Suite struct DistortionSpreadTests {
    static let bins = 64

    /// The predicted spread alone (R zero) for P `p`.
    static func spread(_ s: DistortionSpread, _ p: [Float]) -> [Float] {
        let zero = [Float](repeating: 0, count: bins)
        return zero.withUnsafeBufferPointer { r in
            p.withUnsafeBufferPointer { p in
                s.sources(from: p.baseAddress!)
                let out = s.residual(r.baseAddress!, used: true)
                return Array(UnsafeBufferPointer(start: out, count: bins))
            }
        }
    }

    @Test func nothingIsPredictedBeforeItLearnsAndRIsItselfWhenNotUsed() {
        let s = DistortionSpread(bins: Self.bins), p = [Float](repeating: 1, count: Self.bins)
        // The sources are 3 in every bin (P at k/2, k/3, k/4): at most 40 dB under them.
        #expect(Self.spread(s, p).allSatisfy { $0 <= 3e-4 * DistortionSpread.weight })
        let r = [Float](repeating: 0.5, count: Self.bins)
        r.withUnsafeBufferPointer { r in
            p.withUnsafeBufferPointer { p in
                s.sources(from: p.baseAddress!)
                #expect(s.residual(r.baseAddress!, used: false) == r.baseAddress!)
            }
        }
    }

    @Test func itLearnsTheNinetiethPercentileOfCOverItsSources() {
        let s = DistortionSpread(bins: Self.bins), p = [Float](repeating: 1, count: Self.bins)
        var state: UInt32 = 11, power = [Float](repeating: 0, count: Self.bins)
        // C's power 0 to 20 dB under the sources (3), uniform in dB: its 90th percentile is −2 dB.
        for _ in 0..<3000 {
            for k in 0..<Self.bins {
                state = state &* 1_664_525 &+ 1_013_904_223
                power[k] = 3 * powf(10, -2 * Float(state >> 8) / Float(1 << 24))
            }
            p.withUnsafeBufferPointer { s.sources(from: $0.baseAddress!) }
            power.withUnsafeBufferPointer { s.learn(power: $0.baseAddress!) }
        }
        // A step tracker: each bin wanders a few dB about the percentile; their mean is close to it.
        let db = Self.spread(s, p).map { 10 * log10(Double($0) / Double(3 * DistortionSpread.weight)) }
        for (k, v) in db.enumerated() { #expect(v > -9 && v < 0.5, "bin \(k): \(v) dB") }
        let mean = db.reduce(0, +) / Double(db.count)
        #expect(mean > -3.5 && mean < -0.5, "mean \(mean) dB")
    }

    @Test func itPredictsAtThisFramesHarmonicSourcesOnly() {
        let s = DistortionSpread(bins: Self.bins), flat = [Float](repeating: 1, count: Self.bins)
        let c = [Float](repeating: 3, count: Self.bins)
        flat.withUnsafeBufferPointer { s.sources(from: $0.baseAddress!) }
        for _ in 0..<100 { c.withUnsafeBufferPointer { s.learn(power: $0.baseAddress!) } }
        // One partial in bin 10: its 2nd, 3rd and 4th harmonics fall in bins 20–21, 30–32 and 40–43.
        var p = [Float](repeating: 0, count: Self.bins)
        p[10] = 1
        let v = Self.spread(s, p)
        for k in [20, 21, 30, 32, 40, 43] { #expect(v[k] > 0.1 * DistortionSpread.weight, "bin \(k): \(v[k])") }
        for k in [10, 15, 25, 35, 50] { #expect(v[k] == 0, "bin \(k): \(v[k])") }
    }
}
