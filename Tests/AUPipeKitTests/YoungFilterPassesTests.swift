import Testing
@testable import AUPipeUnits

/// `YoungFilterPasses`: which far-end spurts a young canceller gets an extra adaptation pass over.
@Suite struct YoungFilterPassesTests {
    /// 20 ms frames, the default 400 ms tail at 16 kHz: a pause is 20 frames, a pass at most
    /// `replayBudget` / 6400 taps = 100 frames.
    static func passes() -> YoungFilterPasses { YoungFilterPasses(frameSeconds: 0.02, frameFrames: 320, tailFrames: 6400) }

    /// The passes granted over `farEnd`'s frames (the far end playing or not per frame), with
    /// `delayKnownFrom` and the other conditions per frame from `condition` (busy, DSP frames
    /// since double talk, near end heard): (frame, frames replayed) each.
    static func granted(_ farEnd: [Bool], delayKnownFrom: Int = 0, _ condition: (Int) -> (Bool, Int, Bool) = { _ in (false, 1000, false) }) -> [(Int, Int)] {
        var p = passes()
        var at: [(Int, Int)] = []
        for (f, playing) in farEnd.enumerated() {
            let (busy, since, near) = condition(f)
            if let n = p.due(delayKnown: f >= delayKnownFrom, busy: busy, sinceDoubleTalk: since, nearHeard: near) { at.append((f, n)) }
            p.count(farEnd: playing, delayKnown: f >= delayKnownFrom)
        }
        return at
    }

    /// Far end in spurts: `talk` frames on, `pause` frames off, `count` times, then silence.
    static func spurts(talk: Int, pause: Int, count: Int) -> [Bool] {
        (0..<count).flatMap { _ in [Bool](repeating: true, count: talk) + [Bool](repeating: false, count: pause) } + [Bool](repeating: false, count: 40)
    }

    @Test func theFramesFollowTheTail() {
        let p = Self.passes()
        #expect(p.pauseFrames == 20 && p.mostFrames == 100 && p.youngFrames == 750)
    }

    @Test func aSpurtBetweenTwoPausesOfTheTailIsPassedOverOnceThePauseHasLasted() {
        // 60 frames of talk, 30 of pause: the pass comes 20 frames into each pause, back over
        // the spurt and those 20 frames (80 frames), the first spurt's included (the stream's
        // start counts as a pause: speex's history holds zeros there).
        let at = Self.granted(Self.spurts(talk: 60, pause: 30, count: 4))
        #expect(at.map(\.0) == [80, 170, 260, 350] && at.allSatisfy { $0.1 == 80 }, "\(at)")
    }

    @Test func noPassOverASpurtAfterAShortPauseOrTooLongForOneFrame() {
        // Pauses of 10 frames: one spurt of 270 frames in speex's eyes, over the budget.
        #expect(Self.granted(Self.spurts(talk: 60, pause: 10, count: 4)).isEmpty)
        // A spurt of 81 frames and its 20 of pause: 101 frames, one over the budget.
        #expect(Self.granted(Self.spurts(talk: 81, pause: 30, count: 1)).isEmpty)
        #expect(Self.granted(Self.spurts(talk: 80, pause: 30, count: 1)).map(\.1) == [100])
    }

    @Test func noPassWhileANearEndMayBeInItOrAnotherReplayRuns() {
        let far = Self.spurts(talk: 60, pause: 30, count: 4)
        #expect(Self.granted(far) { _ in (true, 1000, false) }.isEmpty)
        #expect(Self.granted(far) { _ in (false, 1000, true) }.isEmpty)
        // Double talk within the spurt: none; long before it: granted.
        #expect(Self.granted(far) { _ in (false, 80, false) }.isEmpty)
        #expect(Self.granted(far) { _ in (false, 81, false) }.count == 4)
        // Before the delay is known: none (the second spurt's pass is the first).
        #expect(Self.granted(far, delayKnownFrom: 100).map(\.0) == [170, 260, 350])
    }

    @Test func passesStopOnceTheFilterHasHadYoungSecondsOfFarEnd() {
        // 60 frames of far end a spurt: 750 frames of far end after 12.5 spurts.
        let at = Self.granted(Self.spurts(talk: 60, pause: 30, count: 20))
        #expect(at.count == 12, "\(at.count) passes")
    }
}
