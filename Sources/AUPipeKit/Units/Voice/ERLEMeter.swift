#if canImport(Glibc)
import Glibc
#endif

/// Echo return loss enhancement as `--stats` reports it: how much quieter the echo canceller's
/// output is than its microphone input while the far end is playing.
///
/// Frames count only while the reference (far end) is active: its RMS above −50 dBFS. They are
/// summed in half-second windows, each giving one ERLE value 10·log10(Σ mic² / Σ out²). The
/// canceller has converged at the start of the first window reaching 10 dB; the ERLE reported is
/// the upper quartile of the windows from then on (of all windows if it never converges), so
/// that stretches of double talk or of re-adaptation do not drag it down (see `erle`), with
/// the median beside it. Values are kept in a
/// histogram of 0.25 dB bins from −20 to 80 dB: constant memory, whatever the length.
struct ERLEMeter {
    let sampleRate: Int
    private var windowMic = 0.0, windowOut = 0.0, windowFrames = 0
    private var position = 0
    /// Stream time (s) when the canceller converged, or nil.
    private(set) var convergedAt: Double?
    private static let binsPerDB = 4.0, lowest = -20.0, bins = 400
    private var all = [Int](repeating: 0, count: bins)
    private var converged = [Int](repeating: 0, count: bins)

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    static let activeThreshold = pow(10, -50.0 / 10) // mean square of −50 dBFS

    /// Adds one DSP frame of `frames` stream frames: `n` microphone and output samples,
    /// `refCount` reference samples (all loudspeakers).
    mutating func add(mic: UnsafePointer<Int16>, out: UnsafePointer<Int16>, ref: UnsafePointer<Int16>, n: Int, refCount: Int, frames: Int) {
        var m = 0.0, o = 0.0, r = 0.0
        for i in 0..<n {
            m += Double(mic[i]) * Double(mic[i])
            o += Double(out[i]) * Double(out[i])
        }
        for i in 0..<refCount { r += Double(ref[i]) * Double(ref[i]) }
        let scale = 1.0 / (32768.0 * 32768.0)
        position += frames
        guard r * scale / Double(max(1, refCount)) > Self.activeThreshold else { return }
        windowMic += m * scale
        windowOut += o * scale
        windowFrames += frames
        guard windowFrames >= sampleRate / 2 else { return }
        let erle = windowOut > 0 ? 10 * log10(windowMic / windowOut) : 80
        if convergedAt == nil, erle >= 10 { convergedAt = Double(position - windowFrames) / Double(sampleRate) }
        let bin = min(Self.bins - 1, max(0, Int(((erle - Self.lowest) * Self.binsPerDB).rounded(.down))))
        all[bin] += 1
        if convergedAt != nil { converged[bin] += 1 }
        windowMic = 0
        windowOut = 0
        windowFrames = 0
    }

    /// The ERLE the canceller holds while only the far end talks, in dB: the upper quartile
    /// of the window ERLEs (since convergence), or nil before a whole active window. Double
    /// talk (where the output is the near end, not residual echo) and re-adaptation after an
    /// echo-path change pull windows down, and in a call they are a good part of the time:
    /// the upper quartile stays on the windows of echo alone as long as those are more than a
    /// quarter of the time (the median needs half).
    var erle: Double? { quantile(0.75) }

    /// The median window ERLE in dB: the ERLE over the run as a whole, double talk included.
    var medianERLE: Double? { quantile(0.5) }

    /// The `q` quantile (0...1) of the window ERLEs since convergence (of all if never), in dB.
    func quantile(_ q: Double) -> Double? {
        let histogram = convergedAt != nil ? converged : all
        let count = histogram.reduce(0, +)
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (bin, n) in histogram.enumerated() {
            seen += n
            if seen >= rank { return Self.lowest + (Double(bin) + 0.5) / Self.binsPerDB }
        }
        return nil
    }
}
