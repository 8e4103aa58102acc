import Testing
@testable import AUPipeUnits

/// `PathChangeTransition`'s rule on made-up frames of 20 ms (the suppressor's frames at 16 kHz):
/// a change starts at the rising edge of the reported one, goes on after it until 0.5 s of
/// coherent far end (25 frames), 4 s in all (200 frames) or a near end, and holds the noise floor
/// where it was at the take-over.
@Suite struct PathChangeTransitionTests {
    static let frame = 0.02

    /// Runs `frames` frames; returns how many of them the change lasted.
    static func run(_ t: PathChangeTransition, frames: Int, reported: Bool, doubleTalk: Bool = false, coherent: Bool = false,
                    noise: [Float] = [1, 1]) -> Int {
        var on = 0
        for _ in 0..<frames where t.update(pathChanged: reported, doubleTalk: doubleTalk, farHeard: true, coherent: coherent, noise: noise) { on += 1 }
        return on
    }

    @Test func lastsUntilTheNewFilterIsCoherent() {
        let t = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        #expect(Self.run(t, frames: 10, reported: false) == 0, "no change before a take-over")
        #expect(Self.run(t, frames: 50, reported: true) == 50, "the reported change")
        // Incoherent frames: it goes on; coherent ones end it after 25 of them.
        #expect(Self.run(t, frames: 30, reported: false) == 30)
        #expect(Self.run(t, frames: 30, reported: false, coherent: true) == 24)
        #expect(t.framesExtended == 54 && !t.changing)
    }

    @Test func endsAfterFourSecondsOrAtANearEnd() {
        let t = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        _ = Self.run(t, frames: 50, reported: true)
        #expect(Self.run(t, frames: 300, reported: false) == 149, "200 frames from the take-over, 50 of them reported")
        let u = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        _ = Self.run(u, frames: 50, reported: true)
        #expect(Self.run(u, frames: 10, reported: false) == 10)
        #expect(Self.run(u, frames: 10, reported: false, doubleTalk: true) == 0, "double talk ends it at once")
        // A near end heard during the reported change: it ends with the reported one.
        let v = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        _ = Self.run(v, frames: 20, reported: true)
        v.heardNearEnd()
        _ = Self.run(v, frames: 30, reported: true)
        #expect(Self.run(v, frames: 10, reported: false) == 0)
        let w = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        _ = Self.run(w, frames: 20, reported: true)
        _ = Self.run(w, frames: 1, reported: true, doubleTalk: true)
        #expect(Self.run(w, frames: 10, reported: false) == 0)
    }

    @Test func holdsTheNoiseFloorOfTheTakeOver() {
        let t = PathChangeTransition(bins: 2, frameSeconds: Self.frame)
        _ = Self.run(t, frames: 50, reported: true, noise: [1, 2])
        var risen: [Float] = [5, 0.5]
        #expect(t.update(pathChanged: false, doubleTalk: false, farHeard: true, coherent: false, noise: risen))
        let sum = risen.withUnsafeMutableBufferPointer { t.hold($0.baseAddress!) }
        #expect(risen == [1, 0.5] && sum == 1.5, "\(risen), \(sum)")
    }
}
