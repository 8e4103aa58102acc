import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The feed-forward DSP of `compressor` and `gate`, frame by frame: each frame's detection
/// input (the stream, or a side chain) gives a level per channel (`LevelDetector`), linked
/// across channels (`StereoLink`), in dBFS; the law turns it into a gain in dB (`GainLaw`),
/// smoothed with the attack and release time constants (`GainSmoother`); the make-up gain is
/// added and the gain multiplies the frame `lookahead` frames before the one just detected.
///
/// The look-ahead is trimmed (`LatencyTrim`): the first `lookahead` frames out are dropped and
/// as many zeros are flushed at the end, so output frame k is input frame k times a gain
/// (exact length, zero delay). Frame by frame, so the output never depends on the blocks.
/// Nothing is allocated after `init`.
package final class DynamicsProcessor<Law: GainLaw> {
    /// Levels below this power (−200 dBFS) read as −200 dBFS.
    package static var floorPower: Float { 1e-20 }
    /// Levels above this power (+200 dBFS, from infinite samples) read as +200 dBFS.
    package static var ceilingPower: Float { 1e20 }
    /// 10·log10(2) and log2(10)/20: dB from log2 of a power, and log2 of an amplitude from dB.
    package static var dBPerLog2: Float { 3.0102999566 }
    package static var log2PerDB: Float { 0.1660964047 }

    package var law: Law
    package let channels: Int
    package let link: StereoLink
    package let lookahead: Int
    package let groups: Int
    /// The make-up gain, dB; may change between blocks.
    package var makeupDB: Float
    private let detector: LevelDetector
    private let smoother: GainSmoother
    private let levels: UnsafeMutablePointer<Float>
    /// The smoothed gain of each group, dB (≤ 0, make-up not included).
    private let gainsDB: UnsafeMutablePointer<Float>
    private let factors: UnsafeMutablePointer<Float>
    /// The frames waiting for their gain: `lookahead` frames (at least one slot), interleaved.
    private let delayLine: UnsafeMutablePointer<Float>
    private var delayPosition = 0
    package private(set) var trim: LatencyTrim
    private let discard: UnsafeMutablePointer<Float>
    /// The deepest reduction so far and now, dB (≥ 0): the most any group's gain was below 0 dB.
    package private(set) var deepestReduction: Float = 0
    package private(set) var reduction: Float = 0
    /// Gain reduction over stream time, for `plot=` (nil without it).
    package let series: GainReductionSeries?

    package init(law: Law, mode: LevelDetector.Mode, link: StereoLink, attackSeconds: Double, releaseSeconds: Double,
         lookaheadSeconds: Double, makeupDB: Float, channels: Int, sampleRate: Int, plot: Bool) {
        self.law = law
        self.channels = channels
        self.link = link
        self.makeupDB = makeupDB
        groups = link == .none ? channels : 1
        self.law.prepare(groups: groups, sampleRate: sampleRate)
        lookahead = Int((lookaheadSeconds * Double(sampleRate)).rounded())
        detector = LevelDetector(mode: mode, channels: channels, sampleRate: sampleRate)
        smoother = GainSmoother(attackSeconds: attackSeconds, releaseSeconds: releaseSeconds, rate: sampleRate)
        levels = .allocate(capacity: channels)
        levels.initialize(repeating: 0, count: channels)
        gainsDB = .allocate(capacity: groups)
        gainsDB.initialize(repeating: 0, count: groups)
        factors = .allocate(capacity: channels)
        factors.initialize(repeating: 1, count: channels)
        delayLine = .allocate(capacity: max(1, lookahead) * channels)
        delayLine.initialize(repeating: 0, count: max(1, lookahead) * channels)
        discard = .allocate(capacity: channels)
        discard.initialize(repeating: 0, count: channels)
        trim = LatencyTrim(latency: lookahead)
        series = plot ? GainReductionSeries(sampleRate: sampleRate) : nil
    }

    deinit {
        levels.deallocate()
        gainsDB.deallocate()
        factors.deallocate()
        delayLine.deallocate()
        discard.deallocate()
    }

    /// Counts `frames` frames of the stream coming in (the output owes as many).
    package func received(_ frames: Int) { trim.received(frames) }

    /// Whether frames are still owed after the stream's end (the look-ahead's tail).
    package var owesOutput: Bool { trim.owesOutput }

    /// One frame: `input` (the stream's), `detect` (what the level is read from: the same frame,
    /// or the side chain's). Writes the frame `lookahead` frames back to `output` and returns 1,
    /// or returns 0 while the look-ahead is being filled or the output is complete.
    @inline(__always)
    package func push(_ input: UnsafePointer<Float>, detect: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) -> Int {
        detector.push(detect, levels: levels)
        var deepest: Float = 0
        if groups == 1 {
            var p: Float = 0
            if link == .mean {
                for c in 0..<channels { p += levels[c] }
                p /= Float(channels)
            } else {
                for c in 0..<channels { p = Swift.max(p, levels[c]) }
            }
            let g = gain(group: 0, power: p)
            deepest = -g
            let f = exp2f((g + makeupDB) * Self.log2PerDB)
            for c in 0..<channels { factors[c] = f }
        } else {
            for c in 0..<channels {
                let g = gain(group: c, power: levels[c])
                deepest = Swift.max(deepest, -g)
                factors[c] = exp2f((g + makeupDB) * Self.log2PerDB)
            }
        }
        reduction = deepest
        deepestReduction = Swift.max(deepestReduction, deepest)
        series?.add(deepest)
        let kept = trim.keep(1).count
        let out = kept == 1 ? output : discard
        if lookahead == 0 {
            for c in 0..<channels { out[c] = input[c] * factors[c] }
        } else {
            let slot = delayLine + delayPosition * channels
            for c in 0..<channels {
                out[c] = slot[c] * factors[c]
                slot[c] = input[c]
            }
            delayPosition = delayPosition + 1 == lookahead ? 0 : delayPosition + 1
        }
        return kept
    }

    @inline(__always)
    private func gain(group g: Int, power: Float) -> Float {
        // NaN and infinite input would stick in the smoothed gain for good: read as the
        // floor and as +200 dBFS (the samples themselves pass through as they are).
        let p = power.isNaN ? Self.floorPower : Swift.min(Swift.max(power, Self.floorPower), Self.ceilingPower)
        let x = Self.dBPerLog2 * log2f(p)
        let target = law.target(x, group: g)
        let v = gainsDB[g]
        let next = smoother.step(v, to: target, isAttack: Law.attackFalls ? target < v : target > v)
        gainsDB[g] = next
        return next
    }
}
