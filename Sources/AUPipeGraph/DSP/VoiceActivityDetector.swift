import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A voice activity detector on the spectrum of a mono signal at any sample rate, one decision per
/// 10 ms frame, with no model to download.
///
/// Each frame, the last 20 ms (Hann window, zero-padded to a power of two) gives the power of
/// every FFT bin between 150 Hz and 4 kHz (or 95 % of Nyquist); FFT bins of the same width in Hz
/// at every rate make the figures below the same at every rate. Per bin, the power smoothed over
/// frames and neighbours feeds a noise estimate that follows its 30 % quantile
/// (`SpectralNoiseQuantile`): babble's dips do not pull it down as they pull a minimum. Two
/// features against that noise:
/// - `presence`, the fraction of bins whose smoothed power is more than 6 dB over their noise
///   (0...1): a near talker lights up most of the band at once, the fluctuations of babble or a
///   noise a few bins;
/// - `snr`, the frame's power over the noise's in the band, nats (ln of the ratio).
///
/// A logistic model gives the log-odds of speech, `bias + presenceWeight × presence + snrWeight ×
/// snr`, smoothed over frames (about 50 ms); the frame is speech when the smoothed odds exceed the
/// caller's threshold and the frame's level passes `SpeechLevelRange` (in the upper 75 % of the
/// range the band level has been spanning, when that range is wide: a near talker over babble).
/// The weights were fitted by logistic regression on frames of speech in pink
/// and babble noise at 0–20 dB SNR (bench/vad/vad_bench.py's material with other seeds than the
/// bench's), labelled from the clean speech (bench/vad/vad_fit.py). `VoiceActivityUnit` adds the
/// hangover.
///
/// Everything is allocated in `init`; `decide` allocates nothing.
package final class VoiceActivityDetector {
    /// The lowest and highest frequency whose bins count, Hz: below 150 Hz is mostly hum and rumble,
    /// above 4 kHz speech has little energy next to most noises (WebRTC's VAD stops there too).
    package static let lowHz = 150.0, highHz = 4000.0
    /// A bin is "present" (above its noise) when its smoothed power exceeds the noise this many
    /// times (6 dB).
    static let presenceRatio: Float = 4
    /// The logistic model's weights: log-odds per unit of `presence` and per nat of `snr`.
    static let presenceWeight: Float = 2.856, snrWeight: Float = 0.367
    /// The log-odds with no presence and the noise's own level: the fitted −0.728 plus 0.25, so
    /// that at a threshold of 0.5 a missed speech frame costs a little more than a false alarm
    /// (frame F1 counts misses twice against one false alarm's once).
    static let bias: Float = -0.478
    /// Smoothing of the log-odds over frames (one-pole 0.8 per 10 ms frame, about 50 ms): a near
    /// talker holds for syllables, babble's peaks pass within a frame or two.
    static let oddsSmoothing: Float = 0.8
    /// Frames whose spectrum seeds the noise (the first 100 ms that are not silent, averaged); no
    /// decision before.
    static let seedFrames = 10
    /// Smoothing of a bin's power over frames (one-pole) before the noise tracks it: the
    /// periodogram of noise alone swings by ±10 dB from frame to frame.
    static let powerSmoothing: Float = 0.7
    /// A bin's power never counts below this, so that digital silence stays finite.
    static let powerFloor: Float = 1e-14
    /// The quietest noise the tracker settles on: white noise at −90 dBFS (under 16-bit dither's
    /// −101 dBFS per band would take seconds to climb out of when a noise starts).
    static let noiseFloorDBFS: Float = -90

    package let frameSamples: Int, windowSamples: Int
    private let fft: RealFFT
    private let window, history, scratch, re, im: UnsafeMutablePointer<Float>
    private let smoothed, power, seed: UnsafeMutablePointer<Float>
    private let noise: SpectralNoiseQuantile
    private let firstBin: Int, binCount: Int
    private var framesSeen = 0, seedFramesSeen = 0
    /// A frame whose band power is under this (white noise at `noiseFloorDBFS` over the band) is
    /// silent: digital silence before a noise starts, or a pause in speech with no background
    /// (synthetic speech, an edited or gated recording). Silent frames before the seed neither
    /// seed the noise nor start the level range, so that a noise starting after silence is
    /// measured as itself, not as a rise over a floor the trackers would take seconds to climb
    /// out of. After it they move both, at this floor: where the pauses are digital silence there
    /// is no noise, and speech is judged against the floor (with the trackers held there, a
    /// talker's own quieter syllables read as the noise and were cut). What that costs: a noise
    /// that resumes after a stretch of digital silence reads as speech until the noise has
    /// climbed back to it (6.5 dB a second).
    private let silentPower: Float
    private var levelRange = SpeechLevelRange()
    /// A frame's band power above this (white noise at `InputFault.levelDBFS`) is a fault in the input.
    private let faultPower: Float
    /// The last frame's decision, kept through a frame that cannot be analysed.
    private var lastDecision = false
    /// The smoothed log-odds of speech of the last frame.
    package private(set) var odds: Float = 0
    /// The smoothed probability of speech of the last frame, 0...1.
    package var probability: Float { 1 / (1 + expf(-odds)) }

    /// For a stream at `sampleRate` Hz (8 000 Hz and up gives the whole band; lower rates use what
    /// they have); a frame is `frameSamples` samples (10 ms, rounded up).
    package init(sampleRate: Int) {
        frameSamples = (sampleRate + 99) / 100
        windowSamples = 2 * frameSamples
        var size = 2
        while size < windowSamples { size *= 2 }
        fft = RealFFT(size: size)
        window = .allocate(capacity: windowSamples)
        var energy: Float = 0
        for i in 0..<windowSamples {
            window[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(windowSamples)))
            energy += window[i] * window[i]
        }
        history = .allocate(capacity: windowSamples); history.initialize(repeating: 0, count: windowSamples)
        scratch = .allocate(capacity: size); scratch.initialize(repeating: 0, count: size)
        re = .allocate(capacity: fft.bins); im = .allocate(capacity: fft.bins)
        re.initialize(repeating: 0, count: fft.bins); im.initialize(repeating: 0, count: fft.bins)
        let binHz = Double(sampleRate) / Double(size)
        let top = min(Self.highHz, 0.95 * Double(sampleRate) / 2)
        firstBin = max(1, Int((Self.lowHz / binHz).rounded(.up)))
        binCount = max(1, Int((top / binHz).rounded(.down)) - firstBin + 1)
        smoothed = .allocate(capacity: binCount); smoothed.initialize(repeating: 0, count: binCount)
        power = .allocate(capacity: binCount); power.initialize(repeating: 0, count: binCount)
        seed = .allocate(capacity: binCount); seed.initialize(repeating: 0, count: binCount)
        // A bin's expected power for white noise of variance σ² is σ² × Σ window².
        let floorPower = powf(10, Self.noiseFloorDBFS / 10) * energy
        noise = SpectralNoiseQuantile(count: binCount, floor: floorPower)
        silentPower = floorPower * Float(binCount)
        faultPower = Float(InputFault.power) * energy * Float(binCount)
    }

    deinit {
        window.deallocate(); history.deallocate(); scratch.deallocate(); re.deallocate(); im.deallocate()
        smoothed.deallocate(); power.deallocate(); seed.deallocate()
    }

    /// Adds `count` mono samples (`count` <= `frameSamples`) to the analysis window.
    package func add(_ samples: UnsafePointer<Float>, count: Int) {
        // Shift the window left and append: at most 2 × 10 ms of copying per frame.
        let keep = windowSamples - count
        history.update(from: history + count, count: keep)
        (history + keep).update(from: samples, count: count)
    }

    /// Ends a frame: analyses the window and returns whether the frame is speech by itself (the
    /// smoothed log-odds above `threshold`, a log-odds).
    package func decide(threshold: Float) -> Bool {
        for i in 0..<windowSamples { scratch[i] = history[i] * window[i] }
        fft.forward(scratch, re: re, im: im)
        framesSeen += 1
        var framePower: Float = 0
        for b in 0..<binCount {
            let k = firstBin + b
            power[b] = max(re[k] * re[k] + im[k] * im[k], Self.powerFloor)
            framePower += power[b]
        }
        // A NaN, an infinity or a sample far beyond full scale in the window: the frame keeps
        // the last decision and moves nothing, so that one bad sample does not stick in the
        // smoothed spectra, the noise, the odds or the level range for seconds or for good.
        guard framePower <= faultPower else { return lastDecision }
        let silent = framePower < silentPower
        // The power smoothed over frames and over a bin's neighbours, for the noise to follow.
        for b in 0..<binCount {
            let across = (power[max(0, b - 1)] + power[b] + power[min(binCount - 1, b + 1)]) / 3
            smoothed[b] = framesSeen == 1 ? across : Self.powerSmoothing * smoothed[b] + (1 - Self.powerSmoothing) * across
        }
        if seedFramesSeen < Self.seedFrames {
            if silent { return false }
            seedFramesSeen += 1
            for b in 0..<binCount { seed[b] += power[b] / Float(Self.seedFrames) }
            if seedFramesSeen == Self.seedFrames { noise.seed(seed) }
            return false
        }
        let n = noise.noise
        var present = 0
        var noisePower: Float = 0
        for b in 0..<binCount {
            if smoothed[b] > Self.presenceRatio * n[b] { present += 1 }
            noisePower += n[b]
        }
        let presence = Float(present) / Float(binCount)
        let snr = logf(framePower / noisePower)
        let z = Self.bias + Self.presenceWeight * presence + Self.snrWeight * snr
        odds = Self.oddsSmoothing * odds + (1 - Self.oddsSmoothing) * z
        noise.update(smoothed)
        let loudEnough = levelRange.passes(level: logf(max(framePower, silentPower)), silent: silent)
        lastDecision = odds > threshold && loudEnough
        return lastDecision
    }
}
