import AUPipeFormats
import AUPipeGraph

/// How a level becomes a gain in `compressor` and `gate` (`DynamicsProcessor`): the static
/// curve, and any state the law keeps between frames (a gate's hysteresis and hold).
package protocol GainLaw {
    /// Whether a falling gain is the attack (a compressor reducing more) rather than the
    /// release (a gate closing).
    static var attackFalls: Bool { get }
    /// Sets up `groups` independent gains (one per channel without a stereo link, else one).
    mutating func prepare(groups: Int, sampleRate: Int)
    /// The gain in dB (≤ 0) asked for at `levelDB` dBFS for gain `group`, one frame later.
    mutating func target(_ levelDB: Float, group: Int) -> Float
}

/// `compressor`'s law: the soft-knee curve, no state.
package struct CompressorLaw: GainLaw {
    package var curve: CompressorCurve
    package static var attackFalls: Bool { true }
    package mutating func prepare(groups: Int, sampleRate: Int) {}
    @inline(__always)
    package mutating func target(_ levelDB: Float, group: Int) -> Float { curve.gain(levelDB) }
}

/// `gate`'s law: the gate (or expander) opens when the level reaches the threshold and closes
/// when it has stayed below threshold − hysteresis for `hold`; open, the gain is 0 dB; closed,
/// the curve's (`ExpanderCurve`: `range` for a gate).
package struct GateLaw: GainLaw {
    package var curve: ExpanderCurve
    /// dB below the threshold the level must fall to before the gate closes (≥ 0).
    package var hysteresis: Float
    package let holdSeconds: Double
    private var holdFrames = 0
    /// Each gain's open flag and the frames its level has stayed below the threshold, in storage
    /// of their own: the processor works on a copy of the law for a block, which shares them
    /// (an array would be copied at the block's first change).
    private var hold = GateHold(groups: 0)

    package init(curve: ExpanderCurve, hysteresis: Float, holdSeconds: Double) {
        self.curve = curve
        self.hysteresis = hysteresis
        self.holdSeconds = holdSeconds
    }

    package static var attackFalls: Bool { false }

    package mutating func prepare(groups: Int, sampleRate: Int) {
        holdFrames = Int((holdSeconds * Double(sampleRate)).rounded())
        hold = GateHold(groups: groups)
    }

    /// Whether gain `group` is open now.
    package func isOpen(_ group: Int) -> Bool { group < hold.groups && hold.open[group] }

    @inline(__always)
    package mutating func target(_ levelDB: Float, group g: Int) -> Float {
        let open = hold.open, below = hold.below
        if open[g] {
            if levelDB < curve.threshold - hysteresis {
                below[g] += 1
                if below[g] > holdFrames { open[g] = false }
            } else {
                below[g] = 0
            }
        } else if levelDB >= curve.threshold {
            open[g] = true
            below[g] = 0
        }
        return open[g] ? 0 : curve.gain(levelDB)
    }
}

/// `GateLaw`'s state per gain: whether it is open, and for how many frames its level has been
/// below threshold − hysteresis. Allocated once, when the law is prepared.
final class GateHold {
    let groups: Int
    let open: UnsafeMutablePointer<Bool>
    let below: UnsafeMutablePointer<Int>

    init(groups: Int) {
        self.groups = groups
        open = .allocate(capacity: max(1, groups)); open.initialize(repeating: false, count: max(1, groups))
        below = .allocate(capacity: max(1, groups)); below.initialize(repeating: 0, count: max(1, groups))
    }

    deinit { open.deallocate(); below.deallocate() }
}
