import AUPipeFormats

/// The level a compressor or a gate reads, per channel, as a power in AES17 units: a
/// full-scale sine reads 1 (0 dBFS) with either mode, so thresholds mean the same.
///
/// - `rms`: 2 × the mean of x² over the last `window` frames (a boxcar; × 2 is AES17's
///   +3.01 dB, so a sine reads its peak). A 1 kHz tone reads exactly at 44.1 and 48 kHz with
///   the 10 ms window (ten whole periods); a tone of f Hz ripples by at most 1/(2π f window).
/// - `peak`: the largest x² of the last `window` frames (a sliding maximum): the level rises
///   on the frame a peak comes and holds it `window` frames, which lets a 50 Hz wave read its
///   peak between its crests; a release starts when the peak leaves the window.
///
/// The running sum of `rms` is recomputed from its ring once per window, so rounding never
/// accumulates. O(1) per frame; nothing is allocated after `init`.
package final class LevelDetector {
    package enum Mode: String, CaseIterable, Sendable {
        case rms, peak
    }

    /// The detector's window, seconds: the longest half-period read at its peak (50 Hz).
    package static let windowSeconds = 0.01

    package let mode: Mode
    package let channels: Int
    package let window: Int
    /// rms: per channel (channel-major), the last `window` values of x², and the sum of that ring.
    private let values: UnsafeMutablePointer<Float>
    private let sums: UnsafeMutablePointer<Double>
    /// peak: per channel, the largest x² of the last `window` frames.
    private let peaks: UnsafeMutablePointer<SlidingMaximum>
    private var position = 0
    private var frame: Int64 = 0

    package init(mode: Mode, channels: Int, sampleRate: Int) {
        self.mode = mode
        self.channels = channels
        window = max(1, Int((Self.windowSeconds * Double(sampleRate)).rounded()))
        values = .allocate(capacity: channels * window)
        values.initialize(repeating: 0, count: channels * window)
        sums = .allocate(capacity: channels)
        sums.initialize(repeating: 0, count: channels)
        peaks = .allocate(capacity: channels)
        for c in 0..<channels { (peaks + c).initialize(to: SlidingMaximum(window: window)) }
    }

    deinit {
        values.deallocate()
        sums.deallocate()
        for c in 0..<channels { peaks[c].deallocate() }
        peaks.deinitialize(count: channels)
        peaks.deallocate()
    }

    /// Pushes `frames` interleaved frames and writes each frame's level per channel (power,
    /// 1 = 0 dBFS) to `levels` (frame-major, `frames × channels`). The ring's position is held
    /// in a local for the call.
    @inline(__always)
    package func push(_ x: UnsafePointer<Float>, frames: Int, levels: UnsafeMutablePointer<Float>) {
        let channels = self.channels, window = self.window, values = self.values, sums = self.sums
        switch mode {
        case .rms:
            let scale = 2 / Double(window)
            var position = self.position
            for f in 0..<frames {
                let frame = x + f * channels, level = levels + f * channels
                for c in 0..<channels {
                    let ring = values + c * window
                    let s = frame[c] * frame[c]
                    sums[c] += Double(s) - Double(ring[position])
                    ring[position] = s
                    level[c] = Float(max(0, sums[c]) * scale)
                }
                position += 1
                if position == window {
                    position = 0
                    for c in 0..<channels {
                        let ring = values + c * window
                        var exact = 0.0
                        for i in 0..<window { exact += Double(ring[i]) }
                        sums[c] = exact
                    }
                }
            }
            self.position = position
        case .peak:
            let start = self.frame
            for f in 0..<frames {
                for c in 0..<channels {
                    let v = x[f * channels + c]
                    levels[f * channels + c] = peaks[c].push(v * v, at: start + Int64(f))
                }
            }
        }
        self.frame += Int64(frames)
    }
}
