import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// `--progress`: one line on stderr, redrawn at most four times a second. With a known input
/// size it shows percent done and the time left; otherwise the stream time so far and the speed
/// as a multiple of real time.
package final class ProgressMeter {
    private let totalBytes: UInt64?
    private let rate: Double
    private let start: Double
    private var lastDraw = 0.0
    private var drawn = false

    /// `totalBytes` is the audio the input holds, when known (a regular file).
    package init(totalBytes: UInt64?, sampleRate: Int) {
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
        rate = Double(sampleRate)
        start = Self.now()
        lastDraw = start
    }

    package static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Called after each read: redraws when a quarter of a second has passed.
    package func update(bytes: UInt64, frames: Int64) {
        let t = Self.now()
        guard t - lastDraw >= 0.25 else { return }
        lastDraw = t
        draw(bytes: bytes, frames: frames, elapsed: t - start, final: false)
    }

    /// Draws the last state and ends the line.
    package func finish(bytes: UInt64, frames: Int64) {
        draw(bytes: bytes, frames: frames, elapsed: Self.now() - start, final: true)
    }

    private func draw(bytes: UInt64, frames: Int64, elapsed: Double, final: Bool) {
        let streamSeconds = Double(frames) / rate
        let speed = elapsed > 0 ? streamSeconds / elapsed : 0
        var line: String
        if let total = totalBytes {
            let fraction = min(1, Double(bytes) / Double(total))
            let width = 30, filled = Int(fraction * Double(width))
            let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
            line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            line += "\(Int(fraction * 100))%  \(Self.clock(streamSeconds))  ETA \(Self.clock(eta))"
        } else {
            line = "\(Self.clock(streamSeconds)) of audio"
        }
        line += "  \(String(format3: speed))x"
        let text = "\r\u{1B}[K" + line + (final ? "\n" : "")
        _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        drawn = true
    }

    package static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.down))
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return s >= 3600 ? "\(s / 3600):\(two(s / 60 % 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }
}
