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
    /// Per channel (channel-major), the last `window` values of x² (rms) or the monotonic queue's
    /// values (peak).
    private let values: UnsafeMutablePointer<Float>
    /// rms: per channel, the sum of the ring; peak: per channel, the queue's frame indices.
    private let sums: UnsafeMutablePointer<Double>
    private let indices: UnsafeMutablePointer<Int64>
    private let heads: UnsafeMutablePointer<Int>
    private let counts: UnsafeMutablePointer<Int>
    private var position = 0
    private var frame: Int64 = 0

    package init(mode: Mode, channels: Int, sampleRate: Int) {
        self.mode = mode
        self.channels = channels
        window = max(1, Int((Self.windowSeconds * Double(sampleRate)).rounded()))
        let cap = window + 1
        values = .allocate(capacity: channels * cap)
        values.initialize(repeating: 0, count: channels * cap)
        sums = .allocate(capacity: channels)
        sums.initialize(repeating: 0, count: channels)
        indices = .allocate(capacity: channels * cap)
        indices.initialize(repeating: 0, count: channels * cap)
        heads = .allocate(capacity: channels)
        heads.initialize(repeating: 0, count: channels)
        counts = .allocate(capacity: channels)
        counts.initialize(repeating: 0, count: channels)
    }

    deinit {
        values.deallocate()
        sums.deallocate()
        indices.deallocate()
        heads.deallocate()
        counts.deallocate()
    }

    /// Pushes one interleaved frame and writes each channel's level (power, 1 = 0 dBFS) to `levels`.
    @inline(__always)
    package func push(_ x: UnsafePointer<Float>, levels: UnsafeMutablePointer<Float>) {
        let cap = window + 1
        switch mode {
        case .rms:
            let scale = 2 / Double(window)
            for c in 0..<channels {
                let ring = values + c * cap
                let s = x[c] * x[c]
                sums[c] += Double(s) - Double(ring[position])
                ring[position] = s
                levels[c] = Float(max(0, sums[c]) * scale)
            }
            position += 1
            if position == window {
                position = 0
                for c in 0..<channels {
                    let ring = values + c * cap
                    var exact = 0.0
                    for i in 0..<window { exact += Double(ring[i]) }
                    sums[c] = exact
                }
            }
        case .peak:
            for c in 0..<channels {
                let v = x[c] * x[c]
                let qv = values + c * cap, qi = indices + c * cap
                var head = heads[c], count = counts[c]
                while count > 0 {
                    let back = (head + count - 1) % cap
                    guard qv[back] <= v else { break }
                    count -= 1
                }
                let tail = (head + count) % cap
                qv[tail] = v
                qi[tail] = frame
                count += 1
                while qi[head] <= frame - Int64(window) {
                    head = (head + 1) % cap
                    count -= 1
                }
                heads[c] = head
                counts[c] = count
                levels[c] = qv[head]
            }
        }
        frame += 1
    }
}
