#if canImport(Glibc)
import Glibc
#endif

/// A gate on a frame's level within the range a stream's levels have been spanning: a low and a
/// high quantile of the frame's band level, tracked over seconds, and the frame's smoothed level
/// against them.
///
/// When a near talker is well above a noise (20 dB over babble, say), the band level of the last
/// seconds spans from the noise (its 30 % quantile) to the talker (its 90 % quantile). A frame
/// whose level stays in the lower part of that range is the noise, however much of the spectrum
/// the noise's own voices light up: other talkers at a distance fill bins as a near talker does,
/// but not the near talker's level. When the range is narrow (a low SNR, or a steady stream) the
/// gate stays open and the spectral features decide alone.
///
/// Levels are natural logs of a power (nats); the figures below hold at every sample rate since
/// they are differences. No storage beyond a few numbers.
package struct SpeechLevelRange {
    /// The quantiles tracked: 30 % of the frames under the low one (the noise, as
    /// `SpectralNoiseQuantile` tracks it per bin), 90 % under the high one (the talker's loud frames).
    static let lowQuantile: Float = 0.3, highQuantile: Float = 0.9
    /// The tracking step once settled, nats per 10 ms frame: the low level rises by 0.0045 nats
    /// (0.02 dB) a frame and falls by 0.0105, the high one rises by 0.0135 and falls by 0.0015
    /// (0.65 dB/s), so that both span several seconds: a few sentences and their pauses.
    static let step: Float = 0.015
    /// The extra step at the start, nats per frame, decaying by e every `warmFrames` frames tracked
    /// (the shape of `SpectralNoiseQuantile`'s start): the quantiles start at one frame's level and
    /// would take seconds to open out to the range of a talker over a noise, with the gate open
    /// all that while (babble called speech in the first seconds of a stream).
    static let warmStep: Float = 0.2
    static let warmFrames: Float = 100
    /// One-pole smoothing of the frame's level per 10 ms frame (about 50 ms, as the odds).
    static let smoothing: Float = 0.8
    /// The gate opens when the smoothed level is at least this share of the range over the low
    /// level. This, `step`, the start and `minimumRange` were chosen on bench/vad/vad_fit.py's fitting
    /// material (not the bench's clips): the most F1 in babble at 20 dB SNR while pink noise at
    /// every SNR stays at least 0.01 above WebRTC's best mode and babble at 0–10 dB above it.
    static let share: Float = 0.25
    /// A range under this (2 nats, 8.7 dB) keeps the gate open: the talker is not far enough above
    /// the noise for the level to tell them apart.
    static let minimumRange: Float = 2

    private var low: Float = 0, high: Float = 0, smoothed: Float = 0
    private var started = false
    /// Frames tracked since the start, for the start's step.
    private var tracked = 0

    package init() {}

    /// Takes the frame's band level (ln of its power) and returns whether it passes the gate. A
    /// `silent` frame (digital silence, its level at the caller's floor) passes and moves nothing
    /// until the range has started; after that it counts as any other.
    package mutating func passes(level: Float, silent: Bool = false) -> Bool {
        if !started {
            // The quantiles start at the first frame that is not silent.
            guard !silent else { return true }
            low = level; high = level; smoothed = level; started = true
        }
        let step = Self.step + Self.warmStep * expf(-Float(tracked) / Self.warmFrames)
        tracked = min(tracked + 1, 1 << 20)
        low += level > low ? step * Self.lowQuantile : -step * (1 - Self.lowQuantile)
        high += level > high ? step * Self.highQuantile : -step * (1 - Self.highQuantile)
        smoothed = Self.smoothing * smoothed + (1 - Self.smoothing) * level
        let range = high - low
        return range < Self.minimumRange || smoothed - low >= Self.share * range
    }
}
