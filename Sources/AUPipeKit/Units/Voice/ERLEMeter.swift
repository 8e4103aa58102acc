#if canImport(Glibc)
import Glibc
#endif

/// Echo return loss enhancement as `--stats` reports it: how much quieter the echo canceller's
/// output is than its microphone input while the far end is playing.
///
/// Frames count only while the reference (far end) is active: its RMS above −50 dBFS. They are
/// summed in half-second windows; the canceller has converged at the start of the first window
/// whose ERLE reaches 10 dB, and the ERLE reported is 10·log10(Σ mic² / Σ out²) over every
/// active frame from then on (over all active frames if it never converges).
struct ERLEMeter {
    let sampleRate: Int
    private var windowMic = 0.0, windowOut = 0.0, windowFrames = 0
    private var totalMic = 0.0, totalOut = 0.0
    private var convergedMic = 0.0, convergedOut = 0.0
    /// Stream time (s) when the canceller converged, or nil.
    private(set) var convergedAt: Double?
    private var position = 0

    init(sampleRate: Int) { self.sampleRate = sampleRate }

    static let activeThreshold = pow(10, -50.0 / 10) // mean square of −50 dBFS

    /// Adds one frame: `n` samples of each of microphone, output and reference.
    mutating func add(mic: UnsafePointer<Int16>, out: UnsafePointer<Int16>, ref: UnsafePointer<Int16>, n: Int, refCount: Int) {
        var m = 0.0, o = 0.0, r = 0.0
        for i in 0..<n {
            m += Double(mic[i]) * Double(mic[i])
            o += Double(out[i]) * Double(out[i])
        }
        for i in 0..<refCount { r += Double(ref[i]) * Double(ref[i]) }
        let scale = 1.0 / (32768.0 * 32768.0)
        m *= scale; o *= scale; r *= scale
        let frames = refCount
        position += frames
        guard r / Double(max(1, refCount)) > Self.activeThreshold else { return }
        windowMic += m; windowOut += o; windowFrames += frames
        totalMic += m; totalOut += o
        if convergedAt != nil { convergedMic += m; convergedOut += o }
        if windowFrames >= sampleRate / 2 {
            if convergedAt == nil, windowOut > 0, 10 * log10(windowMic / windowOut) >= 10 {
                convergedAt = Double(position - windowFrames) / Double(sampleRate)
                convergedMic = windowMic
                convergedOut = windowOut
            }
            windowMic = 0; windowOut = 0; windowFrames = 0
        }
    }

    /// The ERLE in dB, or nil before any active frame.
    var erle: Double? {
        let (m, o) = convergedAt != nil ? (convergedMic, convergedOut) : (totalMic, totalOut)
        guard m > 0 else { return nil }
        return o > 0 ? 10 * log10(m / o) : .infinity
    }
}
