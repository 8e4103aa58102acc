import Testing
@testable import AUPipeUnits

/// A warm start left to the frames that follow (`EchoState.deferReplay`, `catchUp`) leaves the
/// state exactly as a replay all at once would (the same speex calls in the same order), and
/// a drift's retraining split over two frames pairs the same frames, and
/// `LinearEchoCanceller.replayFits` leaves the whole history's replay in one frame at 16 kHz
/// (the defaults' bytes) but not at 48 kHz.
@Suite struct WarmStartSpreadTests {
    static func layout(rate: Int) -> EchoLayout {
        EchoLayout(rate: rate, inChannels: 1, mics: 1, speakers: 1, frameFrames: rate / 50, tailFrames: rate * 2 / 5, maxDelayFrames: rate / 2)
    }

    /// A frame of a seeded signal: the reference, and the microphone as its echo (a delay and a
    /// gain) plus a little noise.
    static func frame(_ index: Int, n: Int) -> (ref: [Float], mic: [Int16]) {
        var state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
        let ref = (0..<n).map { _ in 0.3 * next() }
        let mic = ref.enumerated().map { i, x in Int16(max(-32768, min(32767, (0.5 * x + 0.001 * next()) * 32768 * (i % 7 == 0 ? 0.9 : 1)))) }
        return (ref, mic)
    }

    @Test func aDeferredReplayGivesTheSameOutputs() throws {
        let layout = Self.layout(rate: 16000), n = layout.frameFrames
        let history = EchoHistory(frameFrames: n, mics: 1, maxDelay: layout.maxDelayFrames, capacity: 40)
        let now = try EchoState(frameFrames: n, tailFrames: 1600, rate: 16000), later = try EchoState(frameFrames: n, tailFrames: 1600, rate: 16000)
        var play = [Int16](repeating: 0, count: n), a = play, b = play
        let delay = 37
        for f in 0..<60 {
            let (ref, mic) = Self.frame(f, n: n)
            history.pushReference(ref)
            if f == 30 {
                // Frame 30: one state replays the 30 frames before it at once, the other defers them.
                for back in stride(from: 30, through: 1, by: -1) {
                    history.reference(back: back, delay: delay, into: &play)
                    now.cancel(history.mic(back: back), play, into: &a)
                }
                later.deferReplay(30, history: history, delay: delay)
            }
            history.reference(back: 0, delay: delay, into: &play)
            if f >= 30 {
                now.cancel(mic, play, into: &a)
                var late: [[Int16]] = []
                if later.catchUp(most: 4, live: { out, _ in late.append(Array(UnsafeBufferPointer(start: out, count: n))) }) {
                    later.cancel(mic, play, into: &b)
                    #expect(b == a, "frame \(f)")
                }
                #expect(late.count <= 4)
            }
            history.record(mic: mic)
        }
        #expect(later.backlog == nil)
    }

    /// A warm start beside a running shadow (`delayMoved`'s `beside`) resets the state in use and
    /// catches up `replayBudget`'s worth of frames a frame: at 48 kHz the 100 frames of history
    /// and the frames that come meanwhile, 33 a frame, take three frames left to the shadow;
    /// `settle` finishes at once.
    @Test func aWarmStartBesideAShadowCatchesUpAtTheBudget() throws {
        for settles in [false, true] {
            let layout = Self.layout(rate: 48000), n = layout.frameFrames
            let linear = try LinearEchoCanceller(layout: layout, automatic: true, historyFrames: 60)
            var play = [Int16](repeating: 0, count: n), out = play, scratch = play
            var f = 0
            func frame(delay: Int, moving: Bool = false) -> Bool {
                let (ref, mic) = Self.frame(f, n: n)
                linear.history.pushReference(ref)
                // (As in `EchoCancellerUnit.runFrame`: the delay moves once the frame's reference is in.)
                if moving { linear.delayMoved(to: delay, play: &play, scratch: &scratch, beside: true) }
                linear.history.reference(back: 0, delay: delay, into: &play)
                var done = linear.cancel(mic, play, into: &out)
                if !done, settles {
                    linear.settle(mic, play, into: &out)
                    done = true
                }
                linear.history.record(mic: mic)
                f += 1
                return done
            }
            // (More frames than the history holds: the state in use is reset, not the spare taken.)
            for _ in 0..<linear.history.capacity + 20 { #expect(frame(delay: 100)) }
            #expect(!linear.replayFits(drift: false))
            let state = linear.state
            var waited = frame(delay: 200, moving: true) ? 0 : 1
            #expect(waited == (settles ? 0 : 1))
            while waited > 0, !frame(delay: 200), waited < 10 { waited += 1 }
            #expect(waited == (settles ? 0 : 3))
            #expect(!linear.catchingUp)
            #expect(linear.state === state && state.backlog == nil)
        }
    }

    /// A drift's engagement retrained after the frame it engaged in (`driftEngaged`'s `split`:
    /// half the replay then, the rest at the next frame's cancel) gives the state the same
    /// frames, microphone and reference paired as a replay all at once before that next frame
    /// (no warp here: the split's bookkeeping is what is checked, the recorded microphone being
    /// one frame nearer after `record`).
    @Test func aDriftsRetrainingSplitOverTwoFramesPairsTheSameFrames() throws {
        let layout = Self.layout(rate: 16000), n = layout.frameFrames
        let split = try LinearEchoCanceller(layout: layout, automatic: false, historyFrames: 20)
        let whole = try LinearEchoCanceller(layout: layout, automatic: false, historyFrames: 20)
        var play = [Int16](repeating: 0, count: n), scratch = play, a = play, b = play
        // The microphone is the reference's echo at no delay: a replay that paired a frame's
        // reference with another frame's microphone would learn another filter.
        let delay = 0
        for f in 0..<60 {
            let (ref, mic) = Self.frame(f, n: n)
            for linear in [split, whole] { linear.history.pushReference(ref) }
            if f == 41 { whole.driftEngaged(warp: 0, delay: delay, play: &play, scratch: &scratch) }
            split.history.reference(back: 0, delay: delay, into: &play)
            split.cancel(mic, play, into: &a)
            whole.history.reference(back: 0, delay: delay, into: &play)
            whole.cancel(mic, play, into: &b)
            if f >= 41 { #expect(a == b, "frame \(f)") }
            for linear in [split, whole] { linear.history.record(mic: mic) }
            if f == 40 {
                split.driftEngaged(warp: 0, delay: delay, play: &play, scratch: &scratch, split: true)
                // Half of the 19 frames before this one run, the rest and this one left.
                #expect(split.state.backlog?.next == 40 - 19 + 9)
            }
        }
        #expect(split.driftRetrainedFrames == 20 && whole.driftRetrainedFrames == 20)
        #expect(split.state.backlog == nil)
    }

    @Test func theWholeHistoryFitsOneFrameAt16kHzNotAt48() throws {
        for (rate, fits) in [(16000, true), (48000, false)] {
            let layout = Self.layout(rate: rate)
            let linear = try LinearEchoCanceller(layout: layout, automatic: true, historyFrames: 60)
            let ref = [Float](repeating: 0, count: layout.frameFrames), mic = [Int16](repeating: 0, count: layout.frameFrames)
            for _ in 0..<linear.history.capacity + 1 {
                linear.history.pushReference(ref)
                linear.history.record(mic: mic)
            }
            #expect(linear.replayFits(drift: true) == fits, "\(rate) Hz")
            #expect(linear.replayFits(drift: false) == fits, "\(rate) Hz")
        }
    }
}
