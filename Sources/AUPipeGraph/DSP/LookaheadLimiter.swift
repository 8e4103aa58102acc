import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A look-ahead brickwall limiter, shared by `loudnorm` and `limiter`: the frames come out
/// `latency` frames late, multiplied by a gain envelope that is already down to what the
/// loudest peak needs when that peak comes out, and that recovers slowly after it.
///
/// Per frame: the peak p of the frame over all channels, either its sample peak (max |x|) or,
/// with `truePeak`, its 4x oversampled peak (`Oversampler`, the design of libebur128's
/// true-peak meter); the gain it needs r = min(1, ceiling / p); the minimum of r over a window
/// that reaches `attack` frames ahead and `spread` frames either side (the interpolator's
/// reach, so the frames that shape an interpolated peak are all turned down; 0 for sample
/// peaks); a release that lets the gain rise back towards 1 with a time constant of
/// `releaseSeconds` (1 − 1/e of the way in that time) but never above that minimum; then a
/// moving average over `attack` frames, which turns the step into a ramp. An average of values
/// that are all at most r is at most r, so every frame within `spread` of a peak leaves at or
/// below the ceiling.
///
/// `latency` = delay + attack − 1 + spread frames (delay: the interpolator's, 6 frames, or 0
/// for sample peaks); the caller trims them (`LatencyTrim`: skipped at the start, flushed with
/// zeros at the end). Nothing is allocated after `init`.
package final class LookaheadLimiter {
    /// Frames each side of a frame the true-peak interpolator reaches.
    package static let truePeakSpread = Oversampler.tapsPerPhase / 2
    /// `loudnorm`'s look-ahead (attack ramp) and release time constant, seconds.
    package static let attackSeconds = 0.01
    package static let releaseSeconds = 0.2

    package let channels: Int
    /// Look-ahead (the attack ramp), frames, ≥ 1.
    package let attack: Int
    package let latency: Int
    /// The ceiling as a linear amplitude (1 = full scale); may change between frames.
    package var ceiling: Float

    /// The true-peak interpolator, nil for sample peaks; its delay and reach, frames.
    private let oversampler: Oversampler?
    private let delay: Int
    private let spread: Int
    /// The frames waiting to come out: `latency` frames (at least one slot), interleaved.
    private let delayLine: UnsafeMutablePointer<Float>
    private let delayFrames: Int
    private var delayPosition = 0
    /// The smallest gain needed over attack + 2 × spread frames, as the largest of the negated gains.
    private var negatedGains: SlidingMaximum
    /// The release state and the moving average's ring and sum.
    private var released: Float = 1
    private let releaseStep: Float
    private let ring: UnsafeMutablePointer<Float>
    private var ringPosition = 0
    private var sum: Double
    private var frame: Int64 = 0
    /// The smallest gain applied so far, and the gain applied to the last frame out.
    package private(set) var smallestGain: Float = 1
    package private(set) var lastGain: Float = 1

    /// - Parameters:
    ///   - ceiling: linear amplitude the output's peak (true peak with `truePeak`) stays at or below.
    ///   - truePeak: limit the 4x oversampled peak (else the sample peak).
    ///   - attackSeconds: the look-ahead, over which the gain ramps down, seconds (at least one frame).
    ///   - releaseSeconds: the time constant of the gain's return towards 1, seconds (> 0).
    package init(channels: Int, sampleRate: Int, ceiling: Float, truePeak: Bool = true,
         attackSeconds: Double = LookaheadLimiter.attackSeconds, releaseSeconds: Double = LookaheadLimiter.releaseSeconds) {
        self.channels = channels
        self.ceiling = ceiling
        attack = max(1, Int((attackSeconds * Double(sampleRate)).rounded()))
        oversampler = truePeak ? Oversampler(channels: channels) : nil
        delay = truePeak ? Oversampler.delay : 0
        spread = truePeak ? Self.truePeakSpread : 0
        latency = delay + attack - 1 + spread
        delayFrames = max(1, latency)
        delayLine = .allocate(capacity: delayFrames * channels)
        delayLine.initialize(repeating: 0, count: delayFrames * channels)
        negatedGains = SlidingMaximum(window: attack + 2 * spread)
        releaseStep = Float(1 - exp(-1 / (releaseSeconds * Double(sampleRate))))
        ring = .allocate(capacity: attack)
        ring.initialize(repeating: 1, count: attack)
        sum = Double(attack)
    }

    deinit {
        delayLine.deallocate()
        negatedGains.deallocate()
        ring.deallocate()
    }

    /// How far (0.01 dB) a sample may come out over the ceiling before it is taken for what the
    /// gain could not bring down (an infinity, or a peak beyond `leastGain`) and set to the
    /// ceiling: a float rounding of the gain stays within it and is left as it is.
    static let faultMargin: Float = 1.001

    /// `y`, or ±`ceiling` where it is beyond `fault` (an infinity included); a NaN as it is.
    @inline(__always)
    private static func bounded(_ y: Float, fault: Float, ceiling: Float) -> Float {
        abs(y) <= fault || y.isNaN ? y : (y > 0 ? ceiling : -ceiling)
    }

    /// The least gain, −120 dB: a peak that needs more is a fault in the input, not a level (a
    /// sample of 1e20), and `bounded` sets what is left of it to the ceiling. Below it the
    /// window's running sum would lose the gain in rounding and read as a gain of 0.
    static let leastGain: Float = 1e-6

    /// The peak of the frame `delay` frames back (its true peak, or its sample peak). A NaN or
    /// an infinity (in the frame, or in the interpolator's reach) counts as no peak: no gain
    /// turns it into a sample within the ceiling (`bounded` sets an infinity to it), and a
    /// gain of 0 would silence the look-ahead window around it and stay in the figures.
    @inline(__always)
    private func peak(_ input: UnsafePointer<Float>) -> Float {
        if let oversampler {
            let p = oversampler.push(input)
            return p.isFinite ? p : 0
        }
        var p: Float = 0
        for c in 0..<channels {
            let a = abs(input[c])
            if a > p, a.isFinite { p = a }
        }
        return p
    }

    /// Pushes one frame in and writes the frame `latency` frames earlier, limited, to `output`.
    @inline(__always)
    package func push(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        let slot = delayLine + delayPosition * channels
        // The oldest frame is at this slot: read it out before it is overwritten.
        let peak = peak(input)
        let need: Float = peak > ceiling ? max(ceiling / peak, Self.leastGain) : 1
        // The peak belongs to frame `frame - delay`; the queue holds the window ending there.
        let minimum = -negatedGains.push(-need, at: frame - Int64(delay))
        released = min(minimum, released + (1 - released) * releaseStep)
        sum += Double(released) - Double(ring[ringPosition])
        ring[ringPosition] = released
        ringPosition = ringPosition + 1 == attack ? 0 : ringPosition + 1
        let gain = min(Float(sum / Double(attack)), 1)
        smallestGain = min(smallestGain, gain)
        lastGain = gain
        let fault = ceiling * Self.faultMargin
        if latency == 0 {
            // No look-ahead (a one-frame attack on sample peaks): the frame goes out now.
            for c in 0..<channels { output[c] = Self.bounded(input[c] * gain, fault: fault, ceiling: ceiling) }
        } else {
            for c in 0..<channels {
                output[c] = Self.bounded(slot[c] * gain, fault: fault, ceiling: ceiling)
                slot[c] = input[c]
            }
            delayPosition = delayPosition + 1 == delayFrames ? 0 : delayPosition + 1
        }
        frame += 1
    }
}
