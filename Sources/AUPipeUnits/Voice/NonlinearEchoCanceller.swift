import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// `aec`'s nonlinear echo canceller (`nonlinear=1`, with the residual echo suppressor): a second, short speex echo canceller
/// after the linear one, whose reference is a power-series term of the far end, so that
/// the pair is a Hammerstein model of a saturating loudspeaker (a memoryless nonlinearity, then
/// the room).
///
/// A loudspeaker driven into saturation plays f(x) instead of x; the linear filter cancels the
/// part of the room's response to f(x) that is correlated with x and leaves the rest. On the far
/// end of bench/aec's scenes, tanh(3x)/3 is explained to 12 dB by x alone and to 30 dB by x and
/// x·|x| (least squares, memoryless), and to 29 by x, x³ and x⁵: so the term is
/// z = x·|x|, made orthogonal to x (z − κx, κ = ⟨z, x⟩/⟨x, x⟩ over the last few seconds:
/// otherwise the second filter would mostly relearn what the first one has already cancelled),
/// and the filter's microphone is the linear canceller's output. The room's response to z is the
/// same room, so the filter converges to it, scaled; `tailSeconds` covers the direct path and the
/// early part of the room, where most of the energy is, at a quarter of the linear filter's cost.
/// speex's own adaptation (its step follows the residual it cannot explain) keeps it from
/// learning a near end, which is uncorrelated with z.
/// The state and its buffers are allocated in `init`; `run` allocates nothing.
package final class NonlinearEchoCanceller {
    /// The filter's length (s).
    package static let tailSeconds = 0.1
    /// The smoothing (per frame) of ⟨z, x⟩ and ⟨x, x⟩ for κ, and the scale of z' in 16 bits.
    package static let smoothing: Float = 0.995, zScale: Float = 4
    package let frameFrames: Int
    private let state: OpaquePointer
    private let z16, out16: UnsafeMutablePointer<Int16>
    /// The latest frame's far end x (its loudspeakers summed) and term z = x·|x| (then z − κx).
    private let x, z: UnsafeMutablePointer<Float>
    private var zx: Float = 0, xx: Float = 0
    /// The output (the input less the estimate) of the latest frame; ⟨input, estimate⟩ and
    /// ⟨estimate, estimate⟩ smoothed over frames.
    private let output: UnsafeMutablePointer<Float>
    private var smoothedCross: Float = 0, smoothedPower: Float = 0
    /// Whether the estimate is taken out: while it is echo, that is, while the input holds it
    /// (⟨input, estimate⟩ ≥ `gateRatio`·‖estimate‖² over the last `gateSeconds` or so; 1 when
    /// the estimate is exactly the input's component, 0 when unrelated to it; taking it out
    /// lowers the energy above 0.5). Without it a filter with nothing to model (no saturation)
    /// adds its misadjustment to the output; the near end, being unrelated to the estimate, does
    /// not close it, as a plain energy comparison over double talk would.
    package var gateOpen: Bool { smoothedCross > Self.gateRatio * smoothedPower }
    package static let gateRatio: Float = 0.75, gateSeconds = 10.0
    private let gateSmoothing: Float
    /// The filter runs in probes of `probeSeconds` of far end (frames whose mean square is above
    /// `farFloor`): after one in which its gate was open in less than `leastOpen` of them
    /// (nothing it models is there: a loudspeaker that does not saturate) it pauses for
    /// `pauseSeconds` (its input passes as it is, at no cost), then runs again from where it was,
    /// to find out whether that has changed: it runs through a saturating loudspeaker's echo
    /// and costs little where there is none. Its limit: with short frames a saturating
    /// loudspeaker's gate can flicker and a probe then pauses it. (The figures behind these
    /// constants are in bench/README.md, "Figures behind aec's constants".)
    package static let probeSeconds = 3.0, pauseSeconds = 60.0, farFloor: Float = 1e-6, leastOpen: Float = 0.25
    private let probeFrames: Int, pauseFrames: Int
    private var probed = 0, probedOpen = 0, paused = 0
    /// Frames seen, frames it ran (not paused), and frames its estimate was taken out.
    package private(set) var framesSeen = 0, framesRun = 0, framesOpen = 0
    /// speex's DC notch on its microphone input (as in mdc.c's filter_dc_notch16, float build):
    /// its radius and den2 at this rate, and its memory.
    private let notchRadius: Float, notchDen2: Float
    private var notch0: Float = 0, notch1: Float = 0

    /// For frames of `frameFrames` at `rate` Hz; throws when speexdsp cannot set up the state.
    package init(frameFrames: Int, rate: Int) throws {
        let tail = max(frameFrames, Int((Self.tailSeconds * Double(rate)).rounded()))
        guard let st = speex_echo_state_init(Int32(frameFrames), Int32(tail)) else {
            throw AUPipeError(.software, "aec: speexdsp could not set up its nonlinear echo canceller (\(frameFrames)-frame frames, \(tail)-frame tail); nonlinear=0 runs without it")
        }
        var r = Int32(rate)
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        state = st
        let seconds = Double(frameFrames) / Double(rate)
        gateSmoothing = Float(exp(-seconds / Self.gateSeconds))
        probeFrames = max(1, Int((Self.probeSeconds / seconds).rounded()))
        pauseFrames = max(1, Int((Self.pauseSeconds / seconds).rounded()))
        notchRadius = rate < 12000 ? 0.9 : rate < 24000 ? 0.982 : 0.992
        notchDen2 = notchRadius * notchRadius + 0.7 * (1 - notchRadius) * (1 - notchRadius)
        self.frameFrames = frameFrames
        z16 = .allocate(capacity: frameFrames); z16.initialize(repeating: 0, count: frameFrames)
        out16 = .allocate(capacity: frameFrames); out16.initialize(repeating: 0, count: frameFrames)
        x = .allocate(capacity: frameFrames); x.initialize(repeating: 0, count: frameFrames)
        z = .allocate(capacity: frameFrames); z.initialize(repeating: 0, count: frameFrames)
        output = .allocate(capacity: frameFrames); output.initialize(repeating: 0, count: frameFrames)
    }

    deinit {
        speex_echo_state_destroy(state)
        z16.deallocate(); out16.deallocate(); x.deallocate(); z.deallocate(); output.deallocate()
    }

    /// Cancels, in `cancelled` (the linear canceller's output, N samples), the echo of the far
    /// end's power-series term; `reference` is the far end as the linear canceller got it
    /// (N frames of `speakers` interleaved channels).
    package func run(cancelled: UnsafeMutablePointer<Int16>, reference: UnsafePointer<Int16>, speakers: Int) {
        framesSeen += 1
        if paused > 0 {
            paused -= 1
            return
        }
        framesRun += 1
        var fzx: Float = 0, fxx: Float = 0
        for i in 0..<frameFrames {
            var xs: Float = 0, zs: Float = 0
            for c in 0..<speakers {
                let v = Float(reference[i * speakers + c]) / 32768
                xs += v
                zs += v * abs(v)
            }
            x[i] = xs; z[i] = zs
            fzx += zs * xs; fxx += xs * xs
        }
        zx = Self.smoothing * zx + (1 - Self.smoothing) * fzx
        xx = Self.smoothing * xx + (1 - Self.smoothing) * fxx
        let kappa = xx > 0 ? zx / xx : 0
        for i in 0..<frameFrames {
            z[i] -= kappa * x[i]
            let v = z[i] * Self.zScale * 32768
            z16[i] = Int16(max(-32768, min(32767, v.rounded())))
        }
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
        if fxx > Self.farFloor * Float(frameFrames) {
            probed += 1
            if open { probedOpen += 1 }
            if probed >= probeFrames {
                if Float(probedOpen) < Self.leastOpen * Float(probed) { paused = pauseFrames }
                probed = 0; probedOpen = 0
            }
        }
        guard open else { return }
        framesOpen += 1
        for i in 0..<frameFrames { cancelled[i] = Int16(max(-32768, min(32767, output[i].rounded()))) }
    }
}
