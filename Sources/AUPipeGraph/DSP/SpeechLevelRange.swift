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
    /// The tracking step, nats per 10 ms frame: the low level rises by 0.006 nats (0.026 dB) a frame
    /// and falls by 0.014, the high one rises by 0.018 and falls by 0.002 (0.87 dB/s), so that both
    /// span several seconds: a few sentences and their pauses.
    static let step: Float = 0.02
    /// One-pole smoothing of the frame's level per 10 ms frame (about 50 ms, as the odds).
    static let smoothing: Float = 0.8
    /// The gate opens when the smoothed level is at least this share of the range over the low
    /// level. This, `step` and `minimumRange` were chosen on bench/vad/vad_fit.py's fitting
    /// material (not the bench's clips): the most F1 in babble at 20 dB SNR while pink noise at
    /// every SNR stays at least 0.01 above WebRTC's best mode and babble at 0–10 dB above it.
    static let share: Float = 0.3
    /// A range under this (2 nats, 8.7 dB) keeps the gate open: the talker is not far enough above
    /// the noise for the level to tell them apart.
    static let minimumRange: Float = 2

    private var low: Float = 0, high: Float = 0, smoothed: Float = 0
    private var started = false

    package init() {}

    /// Takes the frame's band level (ln of its power) and returns whether it passes the gate; with
    /// `tracking` false (a silent frame) the quantiles stay where they are.
    package mutating func passes(level: Float, tracking: Bool = true) -> Bool {
        if !started {
            // The quantiles start at the first frame that is not silent.
            guard tracking else { return true }
            low = level; high = level; smoothed = level; started = true
        }
        if tracking {
            low += level > low ? Self.step * Self.lowQuantile : -Self.step * (1 - Self.lowQuantile)
            high += level > high ? Self.step * Self.highQuantile : -Self.step * (1 - Self.highQuantile)
        }
        smoothed = Self.smoothing * smoothed + (1 - Self.smoothing) * level
        let range = high - low
        return range < Self.minimumRange || smoothed - low >= Self.share * range
    }
}
