import Foundation
import Testing
@testable import AUPipeKit

/// The parts of `aec`'s drift compensation on their own: the warped history a retraining
/// replays, the compensation's offset over the last second, the timing of a smoothed
/// analysis, and the tracker's refusal of a lag that hops between a room's taps.
@Suite struct DriftPartsTests {
    /// A 440 Hz sine at half scale pushed into the history; read back with a warp of 1000 ppm,
    /// each sample `k` frames back is the sine `warp × k` frames later, within 32 LSB of the
    /// exact value (Lanczos interpolation over 12 taps: 23 LSB, −57 dB of the sine; a
    /// retraining asks for far less), and with no warp it is the sample as pushed.
    @Test func warpedHistoryIsThePastAsCompensated() {
        let frame = 160, rate = 16000.0, warp = 1e-3
        let history = EchoHistory(frameFrames: frame, mics: 1, maxDelay: 400, capacity: 100)
        let omega = 2 * Double.pi * 440 / rate
        var x = [Float](repeating: 0, count: frame)
        var pushed = 0
        // 250 frames: the ring (101 frames and the longest delay) has wrapped.
        for _ in 0..<250 {
            for i in 0..<frame { x[i] = Float(0.5 * sin(omega * Double(pushed + i))) }
            x.withUnsafeBufferPointer { history.pushReference($0.baseAddress!) }
            pushed += frame
        }
        var y = [Int16](repeating: 0, count: frame), plain = [Int16](repeating: 0, count: frame)
        var worst = 0.0
        for back in [1, 20, 60, 99] {
            for delay in [0, 123, 400] {
                y.withUnsafeMutableBufferPointer { history.reference(back: back, delay: delay, warp: warp, into: $0.baseAddress!) }
                plain.withUnsafeMutableBufferPointer { history.reference(back: back, delay: delay, into: $0.baseAddress!) }
                for i in 0..<frame {
                    // The sample's index in the stream and how far back from the newest it lies.
                    let n = pushed - (back + 1) * frame - delay + i
                    let k = Double(pushed - n)
                    let exact = 0.5 * sin(omega * (Double(n) + warp * k)) * 32768
                    worst = max(worst, abs(Double(y[i]) - exact))
                    #expect(abs(Double(plain[i]) - 0.5 * sin(omega * Double(n)) * 32768) <= 0.5 + 1e-9)
                }
            }
        }
        print("warped history: worst error \(worst) LSB")
        #expect(worst <= 32, "warped history off by \(worst) LSB")
    }

    /// The offset the compensation has added, at a frame of the last second: the value after
    /// each take at its end, linear between takes, the oldest kept value beyond the trail.
    @Test func compensationOffsetIsKeptForALastSecond() throws {
        let frame = 160
        let c = try DriftCompensator(channels: 1, rate: 16000, frameFrames: frame)
        try c.engage(factor: 1.001)
        var out = [Float](repeating: 0, count: frame)
        var offsets: [Double] = []
        for _ in 0..<300 {
            try out.withUnsafeMutableBufferPointer { o in
                try c.take(into: o.baseAddress!) { buffer, frames in buffer.initialize(repeating: 0.25, count: frames) }
            }
            offsets.append(c.offset)
        }
        #expect(c.taken == 300 * frame)
        #expect(c.offset(at: Double(c.taken)) == c.offset)
        let a = offsets[280], b = offsets[281]
        let mid = c.offset(at: Double(281 * frame + frame / 2))
        #expect(abs(mid - (a + b) / 2) <= 1e-12, "between two takes: \(mid), not halfway from \(a) to \(b)")
        // Two seconds back is beyond the trail (a second and two takes): its oldest value.
        let old = c.offset(at: Double(c.taken - 32000))
        #expect(old > 0 && old < offsets[200], "beyond the trail: \(old)")
        #expect(c.offset > 0.001 * Double(c.taken) * 0.99 / 1.001, "1000 ppm adds a frame per 1000: \(c.offset) after \(c.taken)")
    }

    /// A smoothed analysis (the estimator's 0.5) stands for the same blend of windows: after
    /// middles 0, 4000, 8000 the time is (0.125·0 + 0.25·4000 + 0.5·8000) / 0.875; without
    /// smoothing, the latest window's middle.
    @Test func aSmoothedAnalysisStandsForItsBlendOfWindows() {
        var t = DriftLagTiming(smoothing: 0.5)
        for (m, o) in [(0.0, 0.0), (4000.0, 1.0), (8000.0, 3.0)] { t.add(middle: m, offset: o) }
        #expect(abs(t.time - 5000 / 0.875) < 1e-9)
        #expect(abs(t.offset - (0.25 * 1 + 0.5 * 3) / 0.875) < 1e-12)
        var plain = DriftLagTiming(smoothing: 0)
        for m in [0.0, 4000, 8000] { plain.add(middle: m, offset: m / 1000) }
        #expect(plain.time == 8000 && plain.offset == 8)
    }

    /// Measurements every quarter second over 12 s, fed to a tracker as the estimator would:
    /// `lag(t)` in frames at time `t` (s), found by `near` within its radius.
    static func feed(_ tracker: DriftTracker, seconds: Double = 12, lag: (Double, Int) -> Double) {
        var t = 0.75, i = 0
        while t <= seconds {
            let l = lag(t, i)
            tracker.analysis(time: t * 16000, offset: 0, trusted: true, strongest: (l, 60)) { centre, radius in
                abs(centre - l) <= Double(radius) ? (l, 60) : nil
            }
            t += 0.25
            i += 1
        }
    }

    /// A lag that wanders between the taps of a diffuse room without a direct path (the
    /// sequence is like the coarse lags measured in the tests' `AECScene` at 0 ms, whose peak
    /// stands 10-30 times over the floor at taps 3-30 frames apart), with no drift, over the
    /// 1.25-3.75 s in which `aec` listens to its coarse tracker: whatever slope the median of
    /// its pairs gives, the measurements never follow one path, and the tracker never engages.
    @Test func aLagWanderingBetweenTapsIsNoDrift() {
        let tracker = DriftTracker(sampleRate: 16000, limitPPM: 2000, lockStrength: 20, windowSeconds: 0.25, firstSpan: 1.5, firstCount: 8)
        let wander: [Double] = [28.8, 28.9, 28.6, 21.5, 18.1, 3.7, 4.0, 14.9, 12.3, 12.3, 5.5, 4.2, 17.7, 12.3, 21.0,
                                27.5, 24.1, 16.0, 9.8, 3.9, 4.4]
        var t = 1.25, everOnOnePath = false, engagedEver = false
        for lag in wander {
            tracker.analysis(time: t * 16000, offset: 0, trusted: true, strongest: (lag, 25)) { centre, radius in
                abs(lag - centre) <= Double(radius) ? (lag, 25) : nil
            }
            everOnOnePath = everOnOnePath || tracker.followsOnePath
            engagedEver = engagedEver || tracker.engaged
            t += 0.125
        }
        print("wandering lag: drift \(tracker.driftPPM ?? .nan) ppm, spread \(tracker.spread) frames, slope quartiles \(tracker.slopeQuartiles)")
        #expect(tracker.driftPPM != nil, "the fixture gives the median a slope to read")
        #expect(!everOnOnePath && !engagedEver && tracker.factor == 1)
    }

    /// A lag that moves 16 frames a second (1000 ppm) with ±0.3 frames of jitter: the drift
    /// is found within 10 ppm, on one path, and the compensation engages at once.
    @Test func aLagOnOnePathIsFollowed() {
        let tracker = DriftTracker(sampleRate: 16000, limitPPM: 2000, lockStrength: 20, windowSeconds: 0.25, firstSpan: 1.5, firstCount: 8)
        let jitter: [Double] = [0.3, -0.2, 0.1, -0.3, 0.2, 0, -0.1]
        Self.feed(tracker, seconds: 3) { t, i in 1000 + 16 * t + jitter[i % jitter.count] }
        print("one path: drift \(tracker.driftPPM ?? .nan) ppm, spread \(tracker.spread) frames, factor \(tracker.factor)")
        #expect(tracker.driftPPM.map { abs($0 - 1000) <= 10 } == true)
        #expect(tracker.followsOnePath && tracker.engaged)
    }
}
