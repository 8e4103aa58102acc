import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// `aec`'s nonlinear echo canceller (`nonlinear=1`, with the residual echo suppressor): a second, short speex echo canceller
/// after the linear one, whose references are power-series terms of the far end, so that
/// the pair is a Hammerstein model of a saturating loudspeaker (a memoryless nonlinearity, then
/// the room).
///
/// A loudspeaker driven into saturation plays f(x) instead of x; the linear filter cancels the
/// part of the room's response to f(x) that is correlated with x and leaves the rest. On the far
/// end of bench/aec's scenes, tanh(3x)/3 is explained to 12 dB by x alone and to 30 dB by x and
/// x·|x| (least squares, memoryless); a hard clip to 23 by x and x·|x| or x³ and to 28 by terms up
/// to x⁵. So the terms (`NonlinearTerms`) are z₁ = x·|x| and z₂ = x³, made orthogonal to x and to
/// each other (otherwise the second filter would mostly relearn what the first one has already
/// cancelled) and each scaled to the far end's own level, and the filter's microphone is the
/// linear canceller's output. The room's response to them is the same room, so the filter
/// converges to it, scaled; `tailSeconds` covers the direct path and the early part of the room,
/// where most of the energy is, at a quarter of the linear filter's cost (per term).
/// speex's own adaptation (its step follows the residual it cannot explain) keeps it from
/// learning most of a near end, which is uncorrelated with the terms.
/// The state and its buffers are allocated in `init`; `run` allocates nothing.
package final class NonlinearEchoCanceller {
    /// The filter's length (s).
    package static let tailSeconds = 0.1
    package let frameFrames: Int
    private let state: OpaquePointer
    /// The terms, interleaved as speex's loudspeakers, and speex's output.
    private let z16, out16: UnsafeMutablePointer<Int16>
    private let terms: NonlinearTerms
    /// The output (the input less the estimate) of the latest frame; ⟨input, estimate⟩ and
    /// ⟨estimate, estimate⟩ smoothed over frames.
    private let output: UnsafeMutablePointer<Float>
    private var smoothedCross: Float = 0, smoothedPower: Float = 0
    /// The share of the estimate that is echo: ⟨input, estimate⟩ / ‖estimate‖² over the last
    /// `gateSeconds` or so, within 0...1 (1 when the estimate is exactly the input's component, 0
    /// when unrelated to it). The estimate is taken out times this share, the least-squares scale
    /// (which lowers the output's energy whatever the share): a filter with nothing to model (no
    /// saturation) takes out little of its misadjustment; the near end, being unrelated to the
    /// estimate, does not move it, as a plain energy comparison over double talk would.
    package var share: Float { smoothedPower > 0 ? min(1, max(0, smoothedCross / smoothedPower)) : 0 }
    /// Whether the filter models something: its share at least `leastShare` (for the probes).
    package var gateOpen: Bool { share >= Self.leastShare }
    package static let gateSeconds = 10.0
    /// Whether it models a distortion now: running (not paused) with its gate open (for the
    /// residual echo suppressor's `DistortedEcho`).
    package var modelling: Bool { paused == 0 && gateOpen }
    /// A share at least `confidentShare` (the estimate 5 dB above its misadjustment) is taken out
    /// in every frame (double talk too: what it leaves there the suppressor would take with the
    /// near end); a lower one only once no near end has been heard for a second (`run`'s
    /// `doubleTalk`, `nearHeard`): a weak model of a loudspeaker that no memoryless
    /// curve explains (a resonance before the saturation) has learnt a share of a near talker
    /// too, and took 0.15 dB of it in double talk without this (bench/README.md, "The saturating
    /// loudspeaker's own terms").
    package static let leastShare: Float = 0.5, confidentShare: Float = 0.75
    private let gateSmoothing: Float
    /// The filter runs in probes of `probeSeconds` of far end (frames whose mean square is above
    /// `farFloor`): after one in which its share was under `leastShare` in more than three
    /// quarters of them (`leastOpen`: nothing it models is there, a loudspeaker that does not
    /// saturate) it pauses (its input passes as it is, at no cost), then runs again from where it
    /// was, to find out whether that has changed. A first failed probe does not pause (`firstPauseSeconds`,
    /// 0): it is over before the linear filter and this one have converged, so a second probe
    /// follows at once (a pause of 3 s there left a hard clip's and a small loudspeaker's
    /// distortion uncancelled, and their frames not `DistortedEcho`'s, for those 3 s); the later
    /// pauses are `pauseSeconds` and keep the cost low where there is no saturation (pauses
    /// doubling from 3 s gave the same ERLE at twice the added cost in a room). (The figures
    /// behind these constants are in bench/README.md, "The saturating loudspeaker's own terms"
    /// and "The distorting loudspeaker's first probe".)
    package static let probeSeconds = 3.0, firstPauseSeconds = 0.0, pauseSeconds = 60.0, farFloor: Float = 1e-6, leastOpen: Float = 0.25
    private let probeFrames: Int, pauseFrames: Int
    private var probed = 0, probedOpen = 0, paused = 0, nextPause: Int
    /// Frames seen, frames it ran (not paused), and frames it took out half or more of its
    /// estimate (a share of at least `leastShare`).
    package private(set) var framesSeen = 0, framesRun = 0, framesOpen = 0
    /// speex's DC notch on its microphone input (as in mdc.c's filter_dc_notch16, float build):
    /// its radius and den2 at this rate, and its memory.
    private let notchRadius: Float, notchDen2: Float
    private var notch0: Float = 0, notch1: Float = 0

    /// For frames of `frameFrames` at `rate` Hz; throws when speexdsp cannot set up the state.
    package init(frameFrames: Int, rate: Int) throws {
        let tail = max(frameFrames, Int((Self.tailSeconds * Double(rate)).rounded()))
        guard let st = speex_echo_state_init_mc(Int32(frameFrames), Int32(tail), 1, Int32(NonlinearTerms.count)) else {
            throw AUPipeError(.software, "aec: speexdsp could not set up its nonlinear echo canceller (\(frameFrames)-frame frames, \(tail)-frame tail); nonlinear=0 runs without it")
        }
        var r = Int32(rate)
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        state = st
        let seconds = Double(frameFrames) / Double(rate)
        gateSmoothing = Float(exp(-seconds / Self.gateSeconds))
        probeFrames = max(1, Int((Self.probeSeconds / seconds).rounded()))
        pauseFrames = max(1, Int((Self.pauseSeconds / seconds).rounded()))
        nextPause = Int((Self.firstPauseSeconds / seconds).rounded())   // 0: no pause
        notchRadius = rate < 12000 ? 0.9 : rate < 24000 ? 0.982 : 0.992
        notchDen2 = notchRadius * notchRadius + 0.7 * (1 - notchRadius) * (1 - notchRadius)
        self.frameFrames = frameFrames
        terms = NonlinearTerms(frameFrames: frameFrames)
        z16 = .allocate(capacity: frameFrames * NonlinearTerms.count); z16.initialize(repeating: 0, count: frameFrames * NonlinearTerms.count)
        out16 = .allocate(capacity: frameFrames); out16.initialize(repeating: 0, count: frameFrames)
        output = .allocate(capacity: frameFrames); output.initialize(repeating: 0, count: frameFrames)
    }

    deinit {
        speex_echo_state_destroy(state)
        z16.deallocate(); out16.deallocate(); output.deallocate()
    }

    /// Cancels, in `cancelled` (the linear canceller's output, N samples), the echo of the far
    /// end's power-series terms; `reference` is the far end as the linear canceller got it
    /// (N frames of `speakers` interleaved channels). `doubleTalk`: `aec`'s double-talk detector
    /// in this frame; `nearHeard`: a near end heard within the last second (the residual echo
    /// suppressor's `nearHeardRecently`, as of the frame before).
    package func run(cancelled: UnsafeMutablePointer<Int16>, reference: UnsafePointer<Int16>, speakers: Int,
                     doubleTalk: Bool = false, nearHeard: Bool = false) {
        framesSeen += 1
        if paused > 0 {
            paused -= 1
            return
        }
        framesRun += 1
        let farPower = terms.make(reference: reference, speakers: speakers, into: z16)
        speex_echo_cancellation(state, cancelled, z16, out16)
        // speex's output is its DC-notched input less its echo estimate: the estimate is taken
        // from the input itself (the linear canceller has notched it already).
        var cross: Float = 0, power: Float = 0
        for i in 0..<frameFrames {
            let vin = Float(cancelled[i])
            let vout = notch0 + vin
            notch0 = notch1 + 2 * (notchRadius * vout - vin)
            notch1 = vin - notchDen2 * vout
            let v = vin - (notchRadius * vout - Float(out16[i]))
            output[i] = v
            cross += vin * (vin - v)
            power += (vin - v) * (vin - v)
        }
        smoothedCross = gateSmoothing * smoothedCross + cross
        smoothedPower = gateSmoothing * smoothedPower + power
        let open = gateOpen
        if farPower > Self.farFloor * Float(frameFrames) {
            probed += 1
            if open { probedOpen += 1 }
            if probed >= probeFrames {
                if Float(probedOpen) < Self.leastOpen * Float(probed) {
                    paused = nextPause
                    nextPause = pauseFrames
                }
                probed = 0; probedOpen = 0
            }
        }
        let a = share
        let taken = a >= Self.confidentShare || !(doubleTalk || nearHeard)
        guard a > 0, taken else { return }
        if open { framesOpen += 1 }
        for i in 0..<frameFrames {
            let vin = Float(cancelled[i])
            cancelled[i] = Int16(max(-32768, min(32767, (vin - a * (vin - output[i])).rounded())))
        }
    }
}
