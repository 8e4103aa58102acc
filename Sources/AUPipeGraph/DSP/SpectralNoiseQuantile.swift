import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// The noise power of every bin of a spectrum as a low quantile of the bin's smoothed power over
/// time (quantile-based noise estimation: Stahl, Fischer and Bippus, ICASSP 2000), tracked in the
/// log domain one frame at a time, times a bias compensation that turns that quantile into a mean.
///
/// Per frame and bin, the log of the noise steps up by `step × quantile` where the smoothed power
/// is above it and down by `step × (1 − quantile)` where it is under: it settles where a fraction
/// `quantile` of the frames are under it. Unlike a minimum (which sits in the dips of a noise that
/// fluctuates, such as babble) it stays near the noise's typical level; unlike a mean it does not
/// climb into speech, which takes a bin's upper frames, not its lowest 30 %. The step is large
/// for the first second (the estimate finds the noise from silence or from a seed taken in a
/// word) and decays to its steady value.
///
/// Everything is allocated in `init`; `update` allocates nothing.
package final class SpectralNoiseQuantile {
    /// The quantile tracked: 30 % of the frames of a bin lie under the tracked level (speech in a
    /// bin rarely fills 70 % of the frames, even in a talk without pauses).
    static let quantile: Float = 0.3
    /// The steady step, nats of power per 10 ms frame: the estimate rises by up to 0.065 dB per
    /// frame (6.5 dB/s) and falls by up to 0.15 dB per frame.
    static let step: Float = 0.05
    /// The extra step at the start, nats per frame, decaying by e every `warmFrames`: from silence
    /// to a noise 40 dB louder in about a second.
    static let warmStep: Float = 0.25
    static let warmFrames: Float = 100
    /// The mean over the 30 % quantile of the smoothed periodogram (one-pole 0.7 over frames,
    /// three bins) of Gaussian noise, measured: 1.28 (1.07 dB).
    static let bias: Float = 1.28

    package let count: Int
    /// The tracked log power of every bin, nats.
    private let level: UnsafeMutablePointer<Float>
    /// The noise power of every bin (the tracked level times the bias), after the last `update`.
    package let noise: UnsafeMutablePointer<Float>
    private let floorLevel: Float
    private var frames = 0

    /// For `count` bins; no bin's noise goes under `floor` (a power).
    package init(count: Int, floor: Float) {
        self.count = count
        floorLevel = logf(floor)
        level = .allocate(capacity: count); level.initialize(repeating: floorLevel, count: count)
        noise = .allocate(capacity: count); noise.initialize(repeating: floor * Self.bias, count: count)
    }

    deinit { level.deallocate(); noise.deallocate() }

    /// Starts every bin at `power` (the mean power of the first frames), no lower than the floor.
    package func seed(_ power: UnsafePointer<Float>) {
        for b in 0..<count {
            level[b] = max(logf(power[b]), floorLevel)
            noise[b] = expf(level[b]) * Self.bias
        }
        frames = 0
    }

    /// Moves every bin's level one step towards the frame's smoothed `power`.
    package func update(_ power: UnsafePointer<Float>) {
        let step = Self.step + Self.warmStep * expf(-Float(frames) / Self.warmFrames)
        let up = step * Self.quantile, down = step * (1 - Self.quantile)
        frames = min(frames + 1, 1 << 20)
        for b in 0..<count {
            var l = level[b]
            l = logf(power[b]) > l ? l + up : max(l - down, floorLevel)
            level[b] = l
            noise[b] = expf(l) * Self.bias
        }
    }
}
