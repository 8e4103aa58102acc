import Testing
@testable import AUPipeUnits

/// The nonlinear canceller's probes (issue 26, `NonlinearEchoCanceller.firstPauseSeconds`): a first
/// probe in which it models nothing is over before the linear filter and it have converged, so it
/// probes again at once; only a later failed probe pauses it (`pauseSeconds`), where a loudspeaker
/// that does not saturate should cost nothing.
@Suite struct NonlinearProbeTests {
    @Test func aFirstFailedProbeIsFollowedByASecondAtOnceAndOnlyThatOnePauses() throws {
        let n = 320, rate = 16000
        let canceller = try NonlinearEchoCanceller(frameFrames: n, rate: rate)
        let probe = Int((NonlinearEchoCanceller.probeSeconds * Double(rate) / Double(n)).rounded())
        // A far end well above the floor and a canceller output with nothing of it: no distortion
        // to model, so every probe fails.
        var state: UInt32 = 1
        let reference = UnsafeMutablePointer<Int16>.allocate(capacity: n), cancelled = UnsafeMutablePointer<Int16>.allocate(capacity: n)
        defer { reference.deallocate(); cancelled.deallocate() }
        func frame() {
            for i in 0..<n {
                state = state &* 1_664_525 &+ 1_013_904_223
                reference[i] = Int16(truncatingIfNeeded: Int32(state >> 16) - 32768) / 4
                cancelled[i] = 0
            }
            canceller.run(cancelled: cancelled, reference: reference, speakers: 1)
        }
        for _ in 0..<(probe + 10) { frame() }
        #expect(canceller.framesRun == probe + 10, "after the first failed probe it runs on (ran \(canceller.framesRun) of \(canceller.framesSeen))")
        for _ in 0..<(probe - 10 + 10) { frame() }
        #expect(canceller.framesRun == 2 * probe, "after the second failed probe it pauses (ran \(canceller.framesRun) of \(canceller.framesSeen))")
        #expect(canceller.framesSeen == 2 * probe + 10)
    }
}
