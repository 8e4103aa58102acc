import Foundation
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// The parts of `aec`'s drift compensation on their own: the warped history a retraining
/// replays, the compensation's offset over the last second, the timing of a smoothed
/// analysis, and the tracker's refusal of a lag that hops between a room's taps.
@Suite struct DriftPartsTests {
    /// A 440 Hz sine at half scale pushed into two histories, the past of one warped by 1000
    /// ppm (`warpPast`): each sample `k` frames back is the sine `warp × k` frames later, within
    /// 32 LSB of the exact value (Lanczos interpolation over 12 taps: 23 LSB, −57 dB of the
    /// sine; a retraining asks for far less), the other reads the samples as pushed; frames
    /// pushed after the warp read as pushed in both, and a frame straddling the moment is warped
    /// only before it.
    @Test func warpedHistoryIsThePastAsCompensated() {
        let frame = 160, rate = 16000.0, warp = 1e-3
        let plainHistory = EchoHistory(frameFrames: frame, mics: 1, maxDelay: 400, capacity: 100)
        let warped = EchoHistory(frameFrames: frame, mics: 1, maxDelay: 400, capacity: 100)
        let omega = 2 * Double.pi * 440 / rate
        var x = [Float](repeating: 0, count: frame)
        var pushed = 0
        func push(_ frames: Int) {
            for _ in 0..<frames {
                for i in 0..<frame { x[i] = Float(0.5 * sin(omega * Double(pushed + i))) }
                x.withUnsafeBufferPointer { plainHistory.pushReference($0.baseAddress!); warped.pushReference($0.baseAddress!) }
                pushed += frame
            }
        }
        // 250 frames: the ring (101 frames and the longest delay) has wrapped.
        push(250)
        warped.warpPast(by: warp)
        let anchor = pushed
        push(3)
        var y = [Int16](repeating: 0, count: frame), plain = [Int16](repeating: 0, count: frame)
        var worst = 0.0, unchanged = 0, compared = 0
        for back in [0, 1, 2, 3, 20, 60, 99] {
            for delay in [0, 123, 400] {
                y.withUnsafeMutableBufferPointer { warped.reference(back: back, delay: delay, into: $0.baseAddress!) }
                plain.withUnsafeMutableBufferPointer { plainHistory.reference(back: back, delay: delay, into: $0.baseAddress!) }
                for i in 0..<frame {
                    let n = pushed - (back + 1) * frame - delay + i
                    #expect(abs(Double(plain[i]) - 0.5 * sin(omega * Double(n)) * 32768) <= 0.5 + 1e-9)
                    if n >= anchor {
                        if y[i] == plain[i] { unchanged += 1 }
                        compared += 1
                        continue
                    }
                    let k = Double(anchor - n)
                    let exact = 0.5 * sin(omega * (Double(n) + warp * k)) * 32768
                    worst = max(worst, abs(Double(y[i]) - exact))
                }
            }
        }
        print("warped history: worst error \(worst) LSB; \(unchanged) of \(compared) samples after the warp unchanged")
        #expect(worst <= 32, "warped history off by \(worst) LSB")
        #expect(compared > 0 && unchanged == compared, "samples pushed after the warp changed")
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
        // Two seconds back is beyond the trail (a second and two takes: 102 of them): its
        // oldest value, the 199th take's.
        let old = c.offset(at: Double(c.taken - 32000))
        #expect(old == offsets[198], "beyond the trail: \(old), not \(offsets[198])")
        #expect(c.offset > 0.001 * Double(c.taken) * 0.99 / 1.001, "1000 ppm adds a frame per 1000: \(c.offset) after \(c.taken)")
    }

    /// The compensation's direction, which the warp must share: engaged at factor 1 + d after
    /// 10 frames passed through, its output at frame k is the reference at K + (k − K) / (1 + d)
    /// (K: the frame it engaged at) — a stretched reference, the echo held later and later —
    /// within 2 % of full scale on a 440 Hz sine (1.2 % measured: a seventh of a frame); read
    /// the other way (K + (k − K)(1 + d)) it would be several radians off by the end.
    @Test func theCompensationStretchesTheReference() throws {
        let frame = 160, omega = 2 * Double.pi * 440 / 16000, d = 1e-3
        let c = try DriftCompensator(channels: 1, rate: 16000, frameFrames: frame)
        var read = 0
        var out = [Float](repeating: 0, count: frame), got: [Float] = []
        func take() throws {
            try out.withUnsafeMutableBufferPointer { o in
                try c.take(into: o.baseAddress!) { buffer, frames in
                    for i in 0..<frames { buffer[i] = Float(0.5 * sin(omega * Double(read + i))) }
                    read += frames
                }
            }
            got += out
        }
        for _ in 0..<10 { try take() }
        let engagedAt = got.count
        try c.engage(factor: 1 + d)
        for _ in 0..<120 { try take() }
        var worst = 0.0, flipped = 0.0
        for k in (engagedAt + 50 * frame)..<got.count {
            let t = Double(k - engagedAt)
            worst = max(worst, abs(Double(got[k]) - 0.5 * sin(omega * (Double(engagedAt) + t / (1 + d)))))
            flipped = max(flipped, abs(Double(got[k]) - 0.5 * sin(omega * (Double(engagedAt) + t * (1 + d)))))
        }
        print("compensation: worst \(worst) against the stretched reference, \(flipped) against the squeezed one")
        #expect(worst <= 0.02 && flipped > 0.2)
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

    /// The early line (`EarlyDriftFit`) of a coarse tracker: the lags `EchoSceneTests`' 9 s
    /// scene at 0 ms gave in its first seconds (a diffuse room: the peak hops between taps;
    /// as the first five to seven of them stand, −1308 ppm about 11 standard errors from zero,
    /// 1.4 frames off their line), and the wandering lag above, give none; a lag moving 8
    /// frames a second (500 ppm) with ±0.2 frames of jitter gives it from the fifth
    /// measurement over half a second (at 1.25 s), within 20 ppm, and not before.
    @Test func anEarlyLineNeedsItsMeasurementsOnIt() {
        func tracker() -> DriftTracker {
            DriftTracker(sampleRate: 16000, limitPPM: 2000, lockStrength: 20, windowSeconds: 0.25, firstSpan: 1.5, firstCount: 8, early: true)
        }
        func measure(_ t: DriftTracker, _ time: Double, _ lag: Double) {
            t.analysis(time: time * 16000, offset: 0, trusted: true, strongest: (lag, 25)) { centre, radius in
                abs(lag - centre) <= Double(radius) ? (lag, 25) : nil
            }
        }
        let hops = tracker()
        var everHops = false
        for (time, lag) in [(1.375, 668.9), (1.5, 668.7), (1.75, 661.5), (2.125, 652.9), (2.25, 652.5), (2.375, 657.3), (2.5, 661.7)] {
            measure(hops, time, lag)
            everHops = everHops || hops.earlyDrift != nil
        }
        let wander = tracker()
        var everWanders = false
        var time = 1.25
        for lag in [28.8, 28.9, 28.6, 21.5, 18.1, 3.7, 4.0, 14.9, 12.3, 12.3, 5.5, 4.2] {
            measure(wander, time, lag)
            everWanders = everWanders || wander.earlyDrift != nil
            time += 0.125
        }
        #expect(!everHops && !everWanders)
        let line = tracker()
        let jitter: [Double] = [0.2, -0.1, 0, -0.2, 0.1, 0.2, -0.2]
        var found: [Double?] = []
        time = 0.75
        for i in 0..<8 {
            measure(line, time, 1000 - 8 * time + jitter[i % jitter.count])
            found.append(line.earlyDrift.map { $0 * 1e6 })
            time += 0.125
        }
        print("early line: \(found)")
        #expect(found[0..<4].allSatisfy { $0 == nil })
        #expect(found[4...].allSatisfy { $0.map { abs($0 + 500) <= 20 } == true })
    }

    /// The coarse analyses of a recorded far-end voice at the start of a call (bench/out/aec16r's
    /// `drift-500`, echo at 1289 frames moving 8 frames a second; the peaks as the estimator gave
    /// them, height over its floor): before the echo is heard, the voice's likeness to itself
    /// about 490 ms later stands 1–1.5 times the threshold and takes the lock, and the peak near it
    /// is measured once more; from 1.125 s the echo's own path stands 4–30 times the threshold.
    /// The lock moves to it at once (`DriftTracker.strongerPath`), the stray measurements are
    /// dropped, and the early line reads the drift from the echo's path by 2.5 s, within 60 ppm;
    /// held on the stray path until eight misses (2 s) drop it, the tracker has no line by then.
    @Test func aStrayFirstLockGivesWayToTheEcho() {
        let analyses: [(Double, [(Double, Double)])] = [
            (0.625, [(6633.4, 20.0)]), (0.75, [(7933.6, 30.9)]), (0.875, [(5300.6, 17.3)]), (1.0, [(7795.2, 15.4), (7924.6, 12)]),
            (1.125, [(1289.2, 79.6)]), (1.25, [(1289.5, 425.9)]), (1.375, [(1289.7, 35.2)]), (1.5, [(1291.4, 24.3)]),
            (1.625, [(1292.2, 15.5)]), (1.75, [(7782.9, 13.2)]), (1.875, [(6871.5, 14.6)]), (2.0, [(7815.7, 45.8)]),
            (2.125, [(7954.5, 26.2)]), (2.25, [(7879.5, 25.4)]), (2.375, [(41.2, 20.8)]), (2.5, [(1300.0, 267.2)]),
            (2.625, [(1300.4, 147.2)]), (2.75, [(1301.5, 58.5)]),
        ]
        let tracker = DriftTracker(sampleRate: 16000, limitPPM: 2000, lockStrength: 20, windowSeconds: 0.25, firstSpan: 1.5, firstCount: 8, early: true)
        for (time, peaks) in analyses {
            let strongest = peaks.max { $0.1 < $1.1 }.map { (lag: $0.0, height: $0.1) }
            tracker.analysis(time: time * 16000, offset: 0, trusted: true, strongest: strongest) { centre, radius in
                peaks.filter { abs($0.0 - centre) <= Double(radius) }.max { $0.1 < $1.1 }.map { (lag: $0.0, height: $0.1) }
            }
        }
        print("stray first lock: early drift \(tracker.earlyDrift.map { $0 * 1e6 } ?? .nan) ppm, stronger-path locks \(tracker.strongerPathLocks)")
        #expect(tracker.strongerPathLocks == 1)
        #expect(tracker.earlyDrift.map { abs($0 * 1e6 - 500) <= 60 } == true)
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

/// `DoubleTalkDetector.pathChanged`: after a sudden fall of the cancellation the frames read as
/// double talk; once a take-over has confirmed an echo-path change they do not, unless the
/// cancellation falls again.
@Suite struct DoubleTalkAfterAPathChangeTests {
    @Test func aConfirmedPathChangeIsNotDoubleTalk() {
        var d = DoubleTalkDetector(frameFrames: 320, rate: 16000)
        let ref = 1e-2
        // 2 s cancelling 30 dB, then 0.3 s cancelling 5 dB: double talk by the detector's rule.
        for _ in 0..<100 { d.add(mic: 1e-3, filtered: 1e-6, reference: ref) }
        var fell = false
        for _ in 0..<15 { fell = d.add(mic: 1e-3, filtered: 3e-4, reference: ref) || fell }
        #expect(fell && d.active)
        d.pathChanged()
        #expect(!d.active)
        // The same 5 dB goes on, and then the new filter cancels more: no double talk.
        var after = false
        for _ in 0..<25 { after = d.add(mic: 1e-3, filtered: 3e-4, reference: ref) || after }
        for _ in 0..<25 { after = d.add(mic: 1e-3, filtered: 3e-5, reference: ref) || after }
        #expect(!after)
        // A new fall of 20 dB from there is double talk again.
        var again = false
        for _ in 0..<15 { again = d.add(mic: 1e-3, filtered: 1e-3, reference: ref) || again }
        for _ in 0..<50 { _ = d.add(mic: 1e-3, filtered: 1e-6, reference: ref) }
        for _ in 0..<15 { again = d.add(mic: 1e-3, filtered: 5e-4, reference: ref) || again }
        #expect(again)
    }
}
