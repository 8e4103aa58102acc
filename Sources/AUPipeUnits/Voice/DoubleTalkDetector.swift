import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// Double talk as `aec` tells it: the near end talking while the far end plays, seen as a
/// sudden fall of the canceller's own cancellation.
///
/// Per DSP frame in which the far end plays (reference above −50 dBFS) and the microphone is
/// above −60 dBFS (`ERLEMeter`'s conditions): the filter's cancellation (microphone over the
/// filter's output, before the preprocessor) smoothed over about 100 ms, and a slow envelope of
/// it that rises with it within about 200 ms and falls only over about a second. A frame is
/// double talk when the smoothed cancellation is 10 dB or more below the envelope, and the
/// envelope is at least 10 dB (the canceller has cancelled something); the verdict holds for
/// 200 ms after. A near end alone (the far end silent) is not double talk. An echo-path change
/// reads as double talk until a shadow canceller takes over (`pathChanged()`), the filter has
/// re-adapted or the envelope has come down to it (the drift tracker is frozen meanwhile). A slow fall (clock drift left
/// uncompensated) is followed by the envelope and does not count.
///
/// `aec` runs two: the echo path's (shadow cancellers, drift freezing), whose envelope falls
/// over `fallSeconds` whether or not double talk holds, and the residual echo suppressor's
/// (`EchoPathChange.nearTalk`), whose envelope falls over `heldFallSeconds` while double talk
/// holds, so that a near talker who goes on for seconds stays double talk, and whose
/// cancellation is read with the output's background taken out (`noiseAware`), so that a quiet
/// near talker in noise shows.
package struct DoubleTalkDetector {
    private let smooth: Double, rise: Double, fall: Double, heldFall: Double
    private let hangFrames: Int
    private var mic = 0.0, out = 0.0
    /// With `noiseAware`: the filter's output's background (its power smoothed over every frame,
    /// the least over the last one to two `noiseSeconds`), taken from both before the
    /// cancellation is read.
    private let noiseAware: Bool
    private let noiseFrames: Int
    private var noiseCount = 0, minNow = Double.greatestFiniteMagnitude, minBefore = Double.greatestFiniteMagnitude
    private var allOut = 0.0
    private var background: Double { let m = min(minNow, minBefore); return m == .greatestFiniteMagnitude ? 0 : m }
    private var envelope = 0.0
    private var hang = 0
    /// Whether the latest frame is double talk.
    package private(set) var active = false

    /// The time constant (s) of the smoothed cancellation: about five 20 ms frames, short
    /// enough for a near end's first syllable to show, long enough that one loud frame does not.
    package static let smoothingSeconds = 0.1
    /// The envelope's time constants (s): it rises with the cancellation within about 200 ms
    /// (a converging filter is followed) and falls over about a second, so that a sudden fall
    /// of the cancellation stands below it while a slow one (uncompensated drift) is followed.
    package static let riseSeconds = 0.2, fallSeconds = 1.0
    /// How long (s) a verdict of double talk holds after the last frame that made it: the gaps
    /// between a near talker's words stay double talk.
    package static let hangSeconds = 0.2
    /// The envelope's fall time constant (s) while double talk holds, for the residual echo
    /// suppressor's detector: followed down within a second, a near talker who talks on for
    /// seconds (or under an echo 10–16 dB louder, whose fall is only just 10 dB) stops being double
    /// talk, and the suppressor then takes them for residual echo. On bench/aec's scenes with
    /// long double talk and quiet near talkers, 5 s kept 0.4–0.9 dB more of the near end than
    /// 1 s, for up to 3.3 dB of echo-only ERLE elsewhere; 3 s two thirds of that gain at about the
    /// same ERLE; 10 and 20 s 0.1–0.2 dB more, and lost 8 dB of echo-only ERLE under 1000 ppm of
    /// drift (figures in bench/README.md, "The near end kept in every scene").
    package static let heldFallSeconds = 5.0

    /// For frames of `frameFrames` at `rate` Hz; `heldFallSeconds`: the envelope's fall while
    /// double talk holds (`fallSeconds` by default: the echo path's detector); `noiseAware`: the
    /// cancellation read with the output's background taken out (`backgroundShare`; the
    /// residual echo suppressor's detector).
    package init(frameFrames: Int, rate: Int, heldFallSeconds: Double = Self.fallSeconds, noiseAware: Bool = false) {
        let seconds = Double(frameFrames) / Double(rate)
        self.noiseAware = noiseAware
        noiseFrames = max(1, Int((Self.noiseSeconds / seconds).rounded()))
        smooth = 1 - exp(-seconds / Self.smoothingSeconds)
        rise = 1 - exp(-seconds / Self.riseSeconds)
        fall = 1 - exp(-seconds / Self.fallSeconds)
        heldFall = 1 - exp(-seconds / heldFallSeconds)
        hangFrames = max(1, Int((Self.hangSeconds / seconds).rounded()))
    }

    /// The gap (dB) below the envelope that is double talk, and the least envelope (dB): a
    /// canceller that has not yet cancelled 10 dB has no cancellation to lose.
    package static let dropDB = 10.0, minimumDB = 10.0

    /// An echo-path change is confirmed (a shadow canceller took over: a linear filter cannot
    /// cancel a near end): the fall was not double talk. The verdict ends and the envelope
    /// restarts from the cancellation now, so the frames after a take-over count as the far
    /// end alone (the residual echo suppressor learns and suppresses in them) unless the
    /// cancellation falls again.
    package mutating func pathChanged() {
        envelope = cancellation
        hang = 0
        active = false
    }

    /// The smoothed cancellation (dB): the microphone over the filter's output (with
    /// `noiseAware`, each less the output's background, the output's at least
    /// `backgroundShare` of it).
    private var cancellation: Double {
        guard noiseAware else { return 10 * log10(max(mic, Self.leastPower) / max(out, Self.leastPower)) }
        return 10 * log10(max(mic - background, Self.leastPower) / max(out - background, Self.backgroundShare * background, Self.leastPower))
    }
    /// With `noiseAware`: the background's window (s; its least is over the last one to two),
    /// and the least share of it the output less it is taken as (−5 dB): the cancellation is
    /// read down to 5 dB under the background, not below, so its swings do not read as falls.
    /// In noise the plain cancellation is capped by the background (15 dB at 15 dB SNR), and a
    /// near talker 10 dB under the echo lowers it by only 4–5 dB, never the `dropDB` that is
    /// double talk; with the background taken from both by about 11 dB, which their louder
    /// syllables take past it. On bench/aec's four quiet near talkers: 0.2–0.6 dB more of the
    /// near end; a share of 0.1 about the same, with 0.3 dB less echo-only ERLE in babble; 1.0
    /// under half the gain (figures in bench/README.md, "The near end kept in every scene").
    /// For its first two to four seconds the background reads low (the smoothing starts from
    /// silence), and the detector reads much as the plain one does.
    package static let noiseSeconds = 2.0, backgroundShare = 0.3
    /// The least mean square the cancellation is read from (−200 dB: keeps the logarithm finite).
    package static let leastPower = 1e-20

    /// One frame: the mean squares (full scale 1.0) of the microphone, of the filter's output
    /// and of the reference. Returns `active`.
    @discardableResult
    package mutating func add(mic m: Double, filtered e: Double, reference r: Double) -> Bool {
        if noiseAware {
            // The output's background: its power smoothed, the least over one to two windows.
            allOut += smooth * (e - allOut)
            minNow = min(minNow, allOut)
            noiseCount += 1
            if noiseCount >= noiseFrames { noiseCount = 0; minBefore = minNow; minNow = .greatestFiniteMagnitude }
        }
        guard r > ERLEMeter.activeThreshold, m > ERLEMeter.micFloor else {
            hang = max(0, hang - 1)
            active = hang > 0
            return active
        }
        mic += smooth * (m - mic)
        out += smooth * (e - out)
        let cancel = cancellation
        envelope += (cancel > envelope ? rise : hang > 0 ? heldFall : fall) * (cancel - envelope)
        if envelope >= Self.minimumDB, cancel <= envelope - Self.dropDB {
            hang = hangFrames
        } else {
            hang = max(0, hang - 1)
        }
        active = hang > 0
        return active
    }
}
