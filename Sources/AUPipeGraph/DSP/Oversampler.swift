import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A 4x polyphase interpolator for true-peak detection (ITU-R BS.1770-4 Annex 2): for every
/// frame pushed, the largest magnitude of the frame `delay` frames back and of the three
/// interpolated points after it, over all channels, in the same units as the samples.
///
/// The filter is a 49-tap Hann-windowed sinc with cut-off at the input's Nyquist frequency (the
/// design libebur128 uses for its true-peak meter); phase 0 is the sample itself, phases 1...3
/// use 12 taps each. Its centre is `delay` = 6 frames back. libebur128 only reports the
/// largest peak so far; the limiter needs a value per frame, hence this one.
package final class Oversampler {
    /// Oversampling factor and taps per phase.
    package static let factor = 4
    package static let tapsPerPhase = 12
    /// Frames between the newest input and the frame whose peak `push` returns.
    package static let delay = 6

    package let channels: Int
    /// Phases 1...3, each `tapsPerPhase` coefficients for history[newest], history[newest-1], ...
    private let coefficients: UnsafeMutablePointer<Float>
    /// Per channel, the last `tapsPerPhase` samples, kept twice (`2 * tapsPerPhase`) so the
    /// window is always contiguous.
    private let history: UnsafeMutablePointer<Float>
    private var position = 0

    package init(channels: Int) {
        self.channels = channels
        let taps = Self.factor * Self.tapsPerPhase + 1 // 49
        let centre = Double(taps - 1) / 2
        coefficients = .allocate(capacity: (Self.factor - 1) * Self.tapsPerPhase)
        for q in 1..<Self.factor {
            for t in 0..<Self.tapsPerPhase {
                let i = q + Self.factor * t
                let x = (Double(i) - centre) / Double(Self.factor)
                let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
                let window = 0.5 * (1 - cos(2 * Double.pi * Double(i) / Double(taps - 1)))
                coefficients[(q - 1) * Self.tapsPerPhase + t] = Float(sinc * window)
            }
        }
        history = .allocate(capacity: channels * 2 * Self.tapsPerPhase)
        history.initialize(repeating: 0, count: channels * 2 * Self.tapsPerPhase)
    }

    deinit {
        coefficients.deallocate()
        history.deallocate()
    }

    /// Adds one frame (`channels` samples); returns the peak magnitude of the frame `delay`
    /// frames back and of the interpolated points between it and the next.
    @inline(__always)
    package func push(_ frame: UnsafePointer<Float>) -> Float {
        let n = Self.tapsPerPhase
        // The newest sample sits at `position + n - 1` of a channel's doubled ring... kept in
        // reverse: index `position` is the newest, `position + t` is t frames back.
        position = position == 0 ? n - 1 : position - 1
        var peak: Float = 0
        for c in 0..<channels {
            let h = history + c * 2 * n
            h[position] = frame[c]
            h[position + n] = frame[c]
            let w = h + position // w[t]: t frames back
            peak = max(peak, abs(w[Self.delay]))
            for q in 0..<(Self.factor - 1) {
                let k = coefficients + q * n
                var s: Float = 0
                for t in 0..<n { s += k[t] * w[t] }
                peak = max(peak, abs(s))
            }
        }
        return peak
    }
}
