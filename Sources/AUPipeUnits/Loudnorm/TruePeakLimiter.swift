import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// A look-ahead true-peak limiter: the frames come out `latency` frames late, multiplied by a
/// gain envelope that is already down to what the loudest true peak needs when that peak
/// comes out, and that recovers slowly after it.
///
/// Per frame: the 4x oversampled peak p of the frame (`Oversampler`), the gain it needs
/// r = min(1, ceiling / p); the minimum of r over a window that reaches `attack` frames ahead
/// and `spread` frames either side (the interpolator's reach, so the frames that shape an
/// interpolated peak are all turned down); a release that lets the gain rise back towards 1
/// with a time constant of `releaseSeconds` but never above that minimum; then a moving average
/// over `attack` frames, which turns the step into a ramp. An average of values that are all at
/// most r is at most r, so every frame within `spread` of a peak leaves at or below the ceiling.
///
/// `latency` = Oversampler.delay + attack − 1 + spread frames; the caller trims them
/// (`LatencyTrim`: skipped at the start, flushed with zeros at the end). Nothing is allocated
/// after `init`.
package final class TruePeakLimiter {
    /// Frames each side of a frame the interpolator reaches.
    package static let spread = Oversampler.tapsPerPhase / 2
    /// Look-ahead (attack ramp) and release time constant, seconds.
    package static let attackSeconds = 0.01
    package static let releaseSeconds = 0.2

    package let channels: Int
    package let attack: Int
    package let latency: Int
    /// The ceiling as a linear amplitude (1 = full scale); may change between frames.
    package var ceiling: Float

    private let oversampler: Oversampler
    /// The frames waiting to come out: `latency` frames, interleaved.
    private let delayLine: UnsafeMutablePointer<Float>
    private let delayFrames: Int
    private var delayPosition = 0
    /// The sliding minimum: a monotonic queue of (frame index, gain) over `window` frames.
    private let window: Int
    private let queueIndex: UnsafeMutablePointer<Int64>
    private let queueGain: UnsafeMutablePointer<Float>
    private var queueHead = 0, queueCount = 0
    /// The release state and the moving average's ring and sum.
    private var released: Float = 1
    private let releaseStep: Float
    private let ring: UnsafeMutablePointer<Float>
    private var ringPosition = 0
    private var sum: Double
    private var frame: Int64 = 0
    /// The smallest gain applied so far.
    package private(set) var smallestGain: Float = 1

    /// - Parameters:
    ///   - ceiling: linear amplitude the output's true peak stays at or below.
    package init(channels: Int, sampleRate: Int, ceiling: Float) {
        self.channels = channels
        self.ceiling = ceiling
        attack = max(1, Int((Self.attackSeconds * Double(sampleRate)).rounded()))
        latency = Oversampler.delay + attack - 1 + Self.spread
        oversampler = Oversampler(channels: channels)
        delayFrames = latency
        delayLine = .allocate(capacity: delayFrames * channels)
        delayLine.initialize(repeating: 0, count: delayFrames * channels)
        window = attack + 2 * Self.spread
        queueIndex = .allocate(capacity: window + 1)
        queueIndex.initialize(repeating: 0, count: window + 1)
        queueGain = .allocate(capacity: window + 1)
        queueGain.initialize(repeating: 1, count: window + 1)
        releaseStep = Float(1 - exp(-1 / (Self.releaseSeconds * Double(sampleRate))))
        ring = .allocate(capacity: attack)
        ring.initialize(repeating: 1, count: attack)
        sum = Double(attack)
    }

    deinit {
        delayLine.deallocate()
        queueIndex.deallocate()
        queueGain.deallocate()
        ring.deallocate()
    }

    /// Pushes one frame in and writes the frame `latency` frames earlier, limited, to `output`.
    @inline(__always)
    package func push(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        let slot = delayLine + delayPosition * channels
        // The oldest frame is at this slot: read it out before it is overwritten.
        let peak = oversampler.push(input)
        let need: Float = peak > ceiling ? ceiling / peak : 1
        // The peak belongs to frame `frame - delay`; the queue holds the window ending there.
        let j = frame - Int64(Oversampler.delay)
        let cap = window + 1
        while queueCount > 0 {
            let back = (queueHead + queueCount - 1) % cap
            guard queueGain[back] >= need else { break }
            queueCount -= 1
        }
        let tail = (queueHead + queueCount) % cap
        queueIndex[tail] = j
        queueGain[tail] = need
        queueCount += 1
        while queueIndex[queueHead] <= j - Int64(window) {
            queueHead = (queueHead + 1) % cap
            queueCount -= 1
        }
        let minimum = queueGain[queueHead]
        released = min(minimum, released + (1 - released) * releaseStep)
        sum += Double(released) - Double(ring[ringPosition])
        ring[ringPosition] = released
        ringPosition = ringPosition + 1 == attack ? 0 : ringPosition + 1
        let gain = min(Float(sum / Double(attack)), 1)
        smallestGain = min(smallestGain, gain)
        for c in 0..<channels {
            output[c] = slot[c] * gain
            slot[c] = input[c]
        }
        delayPosition = delayPosition + 1 == delayFrames ? 0 : delayPosition + 1
        frame += 1
    }
}
