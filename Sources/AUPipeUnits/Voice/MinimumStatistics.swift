#if canImport(Glibc)
import Glibc
#endif

/// A background's power spectrum by minimum statistics (after Martin, 2001, simplified): per
/// bin, the least of the smoothed power over the last `halfWindowSeconds` to twice that (the
/// least of two half windows, the older one dropped as each new one fills), times the bias of
/// such a minimum. It follows the background while speech or echo comes and goes, as long as
/// every bin has a moment of background alone within the window; it needs no decision of who
/// is talking, so it can run from a stream's first frame. Used by `ComfortNoise` for the
/// background before speex's denoise. Everything is allocated in `init`; `add` allocates nothing.
package final class MinimumStatistics {
    package let bins: Int
    /// The smoothing per frame, and frames per half window.
    private let smoothing: Float, halfFrames: Int
    private let smoothed, current, previous: UnsafeMutablePointer<Float>
    /// Frames taken in (frames of digital silence before the first sound are not counted).
    package private(set) var frames = 0
    private var inHalf = 0

    /// The power's smoothing per 20 ms (a frame of another length gets the same time constant,
    /// about 90 ms).
    package static let smoothingPer20ms: Float = 0.8
    /// The half window (s): the longest gap without a moment of background that the estimate
    /// rides over is 0.75–1.5 s (a far talker's pauses are 0.3–1 s).
    package static let halfWindowSeconds = 0.75
    /// The mean of a stationary noise over the least of its smoothed power, at this smoothing
    /// and window (×2, 3 dB: measured on white Gaussian noise through the aec's 2N-sample
    /// sqrt-Hann frames, 2.0–2.2 for half windows of 0.75–1 s).
    package static let bias: Float = 2

    /// For `bins` bins of frames `frameSeconds` long.
    package init(bins: Int, frameSeconds: Double) {
        self.bins = bins
        smoothing = Float(pow(Double(Self.smoothingPer20ms), frameSeconds / 0.02))
        halfFrames = max(1, Int((Self.halfWindowSeconds / frameSeconds).rounded()))
        smoothed = .allocate(capacity: bins)
        smoothed.initialize(repeating: 0, count: bins)
        current = .allocate(capacity: bins)
        current.initialize(repeating: .greatestFiniteMagnitude, count: bins)
        previous = .allocate(capacity: bins)
        previous.initialize(repeating: .greatestFiniteMagnitude, count: bins)
    }

    deinit {
        smoothed.deallocate()
        current.deallocate()
        previous.deallocate()
    }

    /// One frame's power spectrum (`bins` values).
    package func add(_ power: UnsafePointer<Float>) {
        if frames == 0 {
            var total: Float = 0
            for k in 0..<bins { total += power[k] }
            // A stream that starts in digital silence has no background yet.
            guard total > 0 else { return }
            for k in 0..<bins { smoothed[k] = power[k] }
        } else {
            let a = smoothing
            for k in 0..<bins { smoothed[k] = a * smoothed[k] + (1 - a) * power[k] }
        }
        frames += 1
        for k in 0..<bins { current[k] = min(current[k], smoothed[k]) }
        inHalf += 1
        if inHalf == halfFrames {
            for k in 0..<bins {
                previous[k] = current[k]
                current[k] = .greatestFiniteMagnitude
            }
            inHalf = 0
        }
    }

    /// The background's mean power in bin `k` (0 before the first frame).
    package func background(_ k: Int) -> Float {
        frames == 0 ? 0 : min(current[k], previous[k]) * Self.bias
    }
}
