import Foundation
import Testing
@testable import AUPipeUnits

/// The loudspeaker's distortion sign (issue 26, `DistortionSign`): on when, over seconds of far end
/// alone, the linear canceller leaves a large share of the echo in its loudest frames; off for a
/// linear loudspeaker, whose residual is a small share that the background makes larger in quiet
/// frames; never on from a few frames; started again by an echo-path change.
@Suite struct DistortionSignTests {
    static let n = 320, rate = 16000
    static var frameSeconds: Double { Double(n) / Double(rate) }

    /// Frames of a far end whose level walks over 24 dB (Ŷ's mean square 1e-4 … 4e-2), a
    /// background at 1e-7, and a residual whose share of Ŷ is `share(level dB)`.
    struct Frames {
        var state: UInt32 = 7, step = 0
        let mic = UnsafeMutablePointer<Int16>.allocate(capacity: DistortionSignTests.n)
        let cancelled = UnsafeMutablePointer<Int16>.allocate(capacity: DistortionSignTests.n)

        mutating func noise() -> Double {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Double(Int32(state >> 8) - (1 << 23)) / Double(1 << 23) * 3.0.squareRoot()   // unit mean square
        }

        mutating func next(share: (Double) -> Double, into sign: inout DistortionSign, alone: Bool = true) {
            step += 1
            let levelDB = -40 + 24 * (0.5 + 0.5 * sin(Double(step) * 0.37) * cos(Double(step) * 0.051))
            let y = pow(10, levelDB / 20), c = (pow(10, (levelDB + share(levelDB)) / 10) + 1e-7).squareRoot()
            for i in 0..<DistortionSignTests.n {
                let yi = y * noise(), ci = c * noise()
                cancelled[i] = Int16((ci * 32768).rounded())
                mic[i] = Int16(max(-32768, min(32767, ((yi + ci) * 32768).rounded())))
            }
            sign.update(mic: mic, cancelled: cancelled, count: DistortionSignTests.n, alone: alone)
        }

        func free() { mic.deallocate(); cancelled.deallocate() }
    }

    static func frames(_ seconds: Double) -> Int { Int((seconds / frameSeconds).rounded()) }

    @Test func aLinearLoudspeakerLeavesItOff() {
        var sign = DistortionSign(frameSeconds: Self.frameSeconds), f = Frames()
        defer { f.free() }
        // A converged filter: the residual 25 dB under Ŷ at every level (the background on top).
        for _ in 0..<Self.frames(30) { f.next(share: { _ in -25 }, into: &sign) }
        #expect(!sign.on && sign.framesOn == 0, "\(sign.loudShareDB.map { "\($0)" } ?? "no verdict")")
        #expect(sign.loudShareDB.map { $0 < DistortionSign.offShareDB } == true)
    }

    @Test func aDistortingLoudspeakerTurnsItOnAfterSeconds() {
        var sign = DistortionSign(frameSeconds: Self.frameSeconds), f = Frames()
        defer { f.free() }
        // The residual's share grows with the level: −20 dB at the quietest, −4 at the loudest.
        let distorting: (Double) -> Double = { -20 + 16 * ($0 + 40) / 24 }
        for _ in 0..<Self.frames(DistortionSign.leastSeconds - 1) { f.next(share: distorting, into: &sign) }
        #expect(!sign.on, "no verdict from under leastSeconds of frames")
        for _ in 0..<Self.frames(10) { f.next(share: distorting, into: &sign) }
        #expect(sign.on, "\(sign.loudShareDB.map { "\($0)" } ?? "no verdict")")
        // Frames that are not far end alone do not count.
        var other = DistortionSign(frameSeconds: Self.frameSeconds)
        for _ in 0..<Self.frames(20) { f.next(share: distorting, into: &other, alone: false) }
        #expect(!other.on && other.loudShareDB == nil)
    }

    @Test func anEchoPathChangeStartsTheFitAgain() {
        var sign = DistortionSign(frameSeconds: Self.frameSeconds), f = Frames()
        defer { f.free() }
        for _ in 0..<Self.frames(12) { f.next(share: { _ in -6 }, into: &sign) }
        #expect(sign.on)
        sign.restart()
        #expect(sign.loudShareDB == nil)
        // The new fit: a linear path once it has converged turns it off.
        for _ in 0..<Self.frames(12) { f.next(share: { _ in -28 }, into: &sign) }
        #expect(!sign.on, "\(sign.loudShareDB.map { "\($0)" } ?? "no verdict")")
    }
}
