import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// A statistical voice activity detector (Sohn, Kim and Sung, "A statistical model-based voice
/// activity detection", IEEE SPL 1999) on the spectrum of a mono signal at any sample rate, one
/// decision per 10 ms frame, with no model to download.
///
/// Each frame, the last 20 ms (Hann window, zero-padded to a power of two) gives the power of
/// every FFT bin between 150 Hz and 4 kHz (or 95 % of Nyquist). Per bin, a noise power is tracked
/// (it falls fast to a quieter spectrum, follows slowly where the frame is judged noise or the
/// bin is within 6 dB of it, and
/// rises by a small step every frame so that it finds a louder noise floor); the a posteriori SNR
/// γ and the decision-directed a priori SNR ξ give the Gaussian log-likelihood ratio
/// γξ/(1+ξ) − ln(1+ξ), averaged over the bins. That mean, smoothed over frames, against
/// `threshold` (nats) is the raw decision; `VoiceActivityUnit` adds the hangover.
///
/// Everything is allocated in `init`; `frame` allocates nothing.
package final class VoiceActivityDetector {
    /// The lowest and highest frequency whose bins count, Hz: below 150 Hz is mostly hum and rumble,
    /// above 4 kHz speech has little energy next to most noises (WebRTC's VAD stops there too).
    package static let lowHz = 150.0, highHz = 4000.0
    /// Decision-directed a priori SNR: the weight of the previous frame's estimate (Ephraim–Malah's 0.98).
    static let decisionDirected: Float = 0.98
    /// The smallest a priori SNR, −15 dB: keeps the ratio of noise-only bins near zero.
    static let minimumPrioriSNR: Float = 0.0316
    /// Per frame, the noise of a bin judged noise moves this far towards its power (about 100 ms).
    static let noiseFollow: Float = 0.1
    /// A bin whose smoothed power is less than this many times its noise (6 dB) is taken for
    /// noise even in a speech frame (minima-controlled recursive averaging): the noise follows a
    /// noise that fluctuates, such as babble, instead of staying at its dips.
    static let presenceRatio: Float = 4
    /// Where a bin's power is under its noise, the noise moves this far towards it (fast fall).
    static let noiseFall: Float = 0.3
    /// Every frame, every bin's noise rises by this factor: 0.04 dB per 10 ms, 4 dB a second,
    /// so that a louder noise floor is found within seconds even when it is taken for speech.
    static let noiseRise: Float = 1.0092
    /// Frames whose spectrum seeds the noise (the first 100 ms, averaged).
    static let seedFrames = 10
    /// Smoothing of a bin's power over frames (one-pole) before the noise tracks it: the
    /// periodogram of noise alone swings by ±10 dB from frame to frame.
    static let powerSmoothing: Float = 0.7
    /// Smoothing of the mean log-likelihood ratio over frames (one-pole, about 20 ms).
    static let ratioSmoothing: Float = 0.5
    /// A bin's power never counts below this (−140 dBFS-ish), so that digital silence is noise.
    static let powerFloor: Float = 1e-14

    package let frameSamples: Int, windowSamples: Int
    private let fft: RealFFT
    private let window, history, scratch, re, im: UnsafeMutablePointer<Float>
    private let noise, smoothed, previousSpeech, power: UnsafeMutablePointer<Float>
    private let firstBin: Int, binCount: Int
    private var filled = 0, framesSeen = 0
    /// The smoothed mean log-likelihood ratio of the last frame, nats per bin.
    package private(set) var ratio: Float = 0

    /// For a stream at `sampleRate` Hz (8 000 Hz and up gives the whole band; lower rates use what
    /// they have); a frame is `frameSamples` samples (10 ms, rounded up).
    package init(sampleRate: Int) {
        frameSamples = (sampleRate + 99) / 100
        windowSamples = 2 * frameSamples
        var size = 2
        while size < windowSamples { size *= 2 }
        fft = RealFFT(size: size)
        window = .allocate(capacity: windowSamples)
        for i in 0..<windowSamples {
            window[i] = Float(0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(windowSamples)))
        }
        history = .allocate(capacity: windowSamples); history.initialize(repeating: 0, count: windowSamples)
        scratch = .allocate(capacity: size); scratch.initialize(repeating: 0, count: size)
        re = .allocate(capacity: fft.bins); im = .allocate(capacity: fft.bins)
        re.initialize(repeating: 0, count: fft.bins); im.initialize(repeating: 0, count: fft.bins)
        let binHz = Double(sampleRate) / Double(size)
        let top = min(Self.highHz, 0.95 * Double(sampleRate) / 2)
        firstBin = max(1, Int((Self.lowHz / binHz).rounded(.up)))
        binCount = max(1, Int((top / binHz).rounded(.down)) - firstBin + 1)
        noise = .allocate(capacity: binCount); noise.initialize(repeating: 0, count: binCount)
        smoothed = .allocate(capacity: binCount); smoothed.initialize(repeating: 0, count: binCount)
        power = .allocate(capacity: binCount); power.initialize(repeating: 0, count: binCount)
        previousSpeech = .allocate(capacity: binCount); previousSpeech.initialize(repeating: 0, count: binCount)
    }

    deinit {
        window.deallocate(); history.deallocate(); scratch.deallocate(); re.deallocate(); im.deallocate()
        noise.deallocate(); smoothed.deallocate(); previousSpeech.deallocate(); power.deallocate()
    }

    /// Adds `count` mono samples (`count` <= `frameSamples`) to the analysis window.
    package func add(_ samples: UnsafePointer<Float>, count: Int) {
        // Shift the window left and append: at most 2 × 10 ms of copying per frame.
        let keep = windowSamples - count
        history.update(from: history + count, count: keep)
        (history + keep).update(from: samples, count: count)
        filled = min(windowSamples, filled + count)
    }

    /// Ends a frame: analyses the window and returns whether the frame is speech by itself (`ratio`
    /// above `threshold`, nats per bin).
    package func decide(threshold: Float) -> Bool {
        for i in 0..<windowSamples { scratch[i] = history[i] * window[i] }
        fft.forward(scratch, re: re, im: im)
        framesSeen += 1
        for b in 0..<binCount {
            let k = firstBin + b
            power[b] = max(re[k] * re[k] + im[k] * im[k], Self.powerFloor)
        }
        // The power smoothed over frames and over a bin's neighbours, for the noise to follow.
        for b in 0..<binCount {
            let across = (power[max(0, b - 1)] + power[b] + power[min(binCount - 1, b + 1)]) / 3
            smoothed[b] = framesSeen == 1 ? across : Self.powerSmoothing * smoothed[b] + (1 - Self.powerSmoothing) * across
        }
        if framesSeen <= Self.seedFrames {
            for b in 0..<binCount { noise[b] += power[b] / Float(Self.seedFrames) }
            return false
        }
        var sum: Float = 0
        for b in 0..<binCount {
            let p = power[b], n = noise[b]
            let gamma = p / n
            let xi = max(Self.decisionDirected * previousSpeech[b] / n + (1 - Self.decisionDirected) * max(gamma - 1, 0),
                         Self.minimumPrioriSNR)
            sum += gamma * xi / (1 + xi) - logf(1 + xi)
            let gain = xi / (1 + xi)
            previousSpeech[b] = gain * gain * p
        }
        let mean = sum / Float(binCount)
        ratio = Self.ratioSmoothing * ratio + (1 - Self.ratioSmoothing) * mean
        let speech = ratio > threshold
        for b in 0..<binCount {
            let s = smoothed[b]
            var n = noise[b]
            if s < n { n += Self.noiseFall * (s - n) }
            else if !speech || s < Self.presenceRatio * n { n += Self.noiseFollow * (s - n) }
            noise[b] = n * Self.noiseRise
        }
        return speech
    }
}
