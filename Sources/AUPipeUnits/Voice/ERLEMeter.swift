import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// Echo return loss enhancement as `--stats` reports it: how much quieter the echo canceller's
/// output is than its microphone input while there is echo to cancel.
///
/// A frame counts only when there can be echo in it: the reference (far end) is active, its
/// RMS above −50 dBFS, and the microphone is above an absolute floor, its RMS above −60 dBFS
/// (a silent or near-silent microphone holds no echo, and its ratio to a silent output is
/// meaningless). Counted frames are summed in half-second windows, each giving one ERLE value
/// 10·log10(Σ mic² / Σ out²). The canceller has converged when its filter itself cancels:
/// the filter's output (before the preprocessor, which can suppress without cancelling) is
/// 10 dB or more below the microphone in two windows in a row; convergence is dated at the
/// start of the first. The ERLE reported is the upper quartile of the windows from then on
/// (of all windows if it never converges), so that stretches of double talk or of
/// re-adaptation do not drag it down (see `erle`), with the median beside it. Values are kept
/// in a histogram of 0.25 dB bins from −20 to 80 dB: constant memory, whatever the length.
package struct ERLEMeter {
    package let sampleRate: Int
    private var windowMic = 0.0, windowOut = 0.0, windowFiltered = 0.0, windowFrames = 0
    /// Stream frames so far, and where the current window's first counted frame was.
    private var position = 0, windowStart = 0
    /// Whether the reference was ever active.
    package private(set) var referencePlayed = false
    /// Stream time (s) when the canceller converged, or nil.
    package private(set) var convergedAt: Double?
    /// The start (s) and histogram bin of the last window whose filter cancelled 10 dB, while
    /// not converged yet: the first of the two windows convergence needs.
    private var candidate: (start: Double, bin: Int)?
    private static let binsPerDB = 4.0, lowest = -20.0, bins = 400
    private var all = [Int](repeating: 0, count: bins)
    private var converged = [Int](repeating: 0, count: bins)

    package init(sampleRate: Int) { self.sampleRate = sampleRate }

    /// The RMS (dBFS) above which the reference is active, and above which the microphone may
    /// hold echo; as mean squares (1.0 = full scale).
    package static let activeDBFS = -50.0, micFloorDBFS = -60.0
    package static let activeThreshold = pow(10, activeDBFS / 10), micFloor = pow(10, micFloorDBFS / 10)
    /// The filter's own cancellation (dB) that counts as converged, held for two windows; as
    /// an energy ratio.
    package static let convergedDB = 10.0
    private static let convergedRatio = pow(10, convergedDB / 10)

    /// Σ x² of `count` 16-bit samples, full scale 1.0.
    package static func energy(_ x: UnsafePointer<Int16>, count: Int) -> Double {
        var e = 0.0
        for i in 0..<count { e += Double(x[i]) * Double(x[i]) }
        return e / (32768.0 * 32768.0)
    }

    /// Adds one DSP frame of `frames` stream frames: `n` microphone and output samples,
    /// `refCount` reference samples (all loudspeakers), and `filtered`, the `energy` of the
    /// echo filter's output before the preprocessor.
    package mutating func add(mic: UnsafePointer<Int16>, out: UnsafePointer<Int16>, filtered: Double, ref: UnsafePointer<Int16>,
                      n: Int, refCount: Int, frames: Int) {
        let m = Self.energy(mic, count: n), r = Self.energy(ref, count: refCount)
        position += frames
        guard r / Double(max(1, refCount)) > Self.activeThreshold else { return }
        referencePlayed = true
        guard m / Double(max(1, n)) > Self.micFloor else { return }
        if windowFrames == 0 { windowStart = position - frames }
        windowMic += m
        windowOut += Self.energy(out, count: n)
        windowFiltered += filtered
        windowFrames += frames
        guard windowFrames >= sampleRate / 2 else { return }
        let erle = windowOut > 0 ? 10 * log10(windowMic / windowOut) : 80
        let bin = min(Self.bins - 1, max(0, Int(((erle - Self.lowest) * Self.binsPerDB).rounded(.down))))
        all[bin] += 1
        if convergedAt != nil {
            converged[bin] += 1
        } else if windowFiltered * Self.convergedRatio <= windowMic {
            if let first = candidate {
                convergedAt = first.start
                converged[first.bin] += 1
                converged[bin] += 1
            } else {
                candidate = (Double(windowStart) / Double(sampleRate), bin)
            }
        } else {
            candidate = nil
        }
        windowMic = 0
        windowOut = 0
        windowFiltered = 0
        windowFrames = 0
    }

    /// The ERLE the canceller holds while only the far end talks, in dB: the upper quartile
    /// of the window ERLEs (since convergence), or nil before a whole window with echo. Double
    /// talk (where the output is the near end, not residual echo) and re-adaptation after an
    /// echo-path change pull windows down, and in a call they are a good part of the time:
    /// the upper quartile stays on the windows of echo alone as long as those are more than a
    /// quarter of the time (the median needs half).
    package var erle: Double? { quantile(0.75) }

    /// The median window ERLE in dB: the ERLE over the run as a whole, double talk included.
    package var medianERLE: Double? { quantile(0.5) }

    /// The `q` quantile (0...1) of the window ERLEs since convergence (of all if never), in dB.
    package func quantile(_ q: Double) -> Double? {
        let histogram = convergedAt != nil ? converged : all
        let count = histogram.reduce(0, +)
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        // An index loop: `enumerated()` allocates per element in unoptimized builds.
        for bin in histogram.indices {
            seen += histogram[bin]
            if seen >= rank { return Self.lowest + (Double(bin) + 0.5) / Self.binsPerDB }
        }
        return nil
    }
}
