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
    /// Frames the detector reads in one call (a block is taken in runs of this many).
    package static var levelRun: Int { 256 }

    package var law: Law
    package let channels: Int
    package let link: StereoLink
    package let lookahead: Int
    package let groups: Int
    /// The make-up gain, dB; may change between blocks.
    package var makeupDB: Float
    private let detector: LevelDetector
    private let smoother: GainSmoother
    /// The detector's levels of up to `levelRun` frames (frame-major).
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
        levels = .allocate(capacity: Self.levelRun * channels)
        levels.initialize(repeating: 0, count: Self.levelRun * channels)
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

    /// `frames` frames: `input` (the stream's), `detect` (what the level is read from: the same
    /// frames, or the side chain's), interleaved. Writes the frames `lookahead` frames back to
    /// `output` (fewer while the look-ahead is being filled, none once the output is complete)
    /// and returns how many. The state the frames move is held in locals for the block and
    /// stored back at its end (a class's stored properties would be checked for exclusive
    /// access at every frame).
    package func process(_ input: UnsafePointer<Float>, detect: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        var law = self.law, trim = self.trim, delayPosition = self.delayPosition
        var reduction = self.reduction, deepestReduction = self.deepestReduction
        defer {
            self.law = law; self.trim = trim; self.delayPosition = delayPosition
            self.reduction = reduction; self.deepestReduction = deepestReduction
        }
        let channels = self.channels, lookahead = self.lookahead, makeupDB = self.makeupDB, mean = link == .mean
        let levels = self.levels, factors = self.factors, gainsDB = self.gainsDB, smoother = self.smoother
        let delayLine = self.delayLine, discard = self.discard, series = self.series
        var written = 0, done = 0
        while done < frames {
            let n = Swift.min(Self.levelRun, frames - done)
            detector.push(detect + done * channels, frames: n, levels: levels)
            for f in 0..<n {
                let level = levels + f * channels
                var deepest: Float = 0
                if groups == 1 {
                    var p: Float = 0
                    if mean {
                        for c in 0..<channels { p += level[c] }
                        p /= Float(channels)
                    } else {
                        for c in 0..<channels { p = Swift.max(p, level[c]) }
                    }
                    let g = Self.gain(group: 0, power: p, law: &law, gainsDB: gainsDB, smoother: smoother)
                    deepest = -g
                    let factor = exp2f((g + makeupDB) * Self.log2PerDB)
                    for c in 0..<channels { factors[c] = factor }
                } else {
                    for c in 0..<channels {
                        let g = Self.gain(group: c, power: level[c], law: &law, gainsDB: gainsDB, smoother: smoother)
                        deepest = Swift.max(deepest, -g)
                        factors[c] = exp2f((g + makeupDB) * Self.log2PerDB)
                    }
                }
                reduction = deepest
                deepestReduction = Swift.max(deepestReduction, deepest)
                series?.add(deepest)
                let kept = trim.keep(1).count
                let out = kept == 1 ? output + written * channels : discard
                let frame = input + (done + f) * channels
                if lookahead == 0 {
                    for c in 0..<channels { out[c] = frame[c] * factors[c] }
                } else {
                    let slot = delayLine + delayPosition * channels
                    for c in 0..<channels {
                        out[c] = slot[c] * factors[c]
                        slot[c] = frame[c]
                    }
                    delayPosition = delayPosition + 1 == lookahead ? 0 : delayPosition + 1
                }
                written += kept
            }
            done += n
        }
        return written
    }

    /// The smoothed gain of `group` (dB, make-up not included) after a level of `power`.
    @inline(__always)
    private static func gain(group g: Int, power: Float, law: inout Law, gainsDB: UnsafeMutablePointer<Float>, smoother: GainSmoother) -> Float {
        // NaN and infinite input would stick in the smoothed gain for good: read as the
        // floor and as +200 dBFS (the samples themselves pass through as they are).
        let p = power.isNaN ? floorPower : Swift.min(Swift.max(power, floorPower), ceilingPower)
        let target = law.target(dBPerLog2 * log2f(p), group: g)
        let v = gainsDB[g]
        let next = smoother.step(v, to: target, isAttack: Law.attackFalls ? target < v : target > v)
        gainsDB[g] = next
        return next
    }
}
