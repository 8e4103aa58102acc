import AUPipeFormats
import AUPipeGraph

/// A live change of one band's frequency, gain or Q, made in small steps: the band's
/// parameters move from where they are to the new ones over `seconds`, and its coefficients
/// are designed again every `stepFrames` frames of the stream. The filter's state is kept
/// throughout, so the change never clicks, and every step is a stable filter of its own.
package struct FilterGlide {
    /// How long a live change takes: 20 ms, longer than one period of the lowest frequency
    /// the ear hears as pitch (≈ 50 Hz) so that a sweep sounds smooth, short enough to feel immediate.
    package static let seconds = 0.02
    /// Frames between two designs of the coefficients during a glide (0.7 ms at 48 kHz):
    /// each step then moves the response by 1/30 of the change, too little to be heard.
    package static let stepFrames = 32

    /// The band as its coefficients are designed now, and where it is going.
    package private(set) var current: FilterBand
    package private(set) var target: FilterBand
    private var from: FilterBand
    private var left = 0
    private var total = 1

    package init(_ band: FilterBand) {
        current = band
        target = band
        from = band
    }

    package var isGliding: Bool { left > 0 }

    /// Starts a glide from the band as it is now to `band`, over `frames` frames (≥ 1).
    package mutating func start(to band: FilterBand, frames: Int) {
        from = current
        target = band
        total = max(1, frames)
        left = total
    }

    /// The band for the next `step` frames (≤ stepFrames, as returned): at the end of that step
    /// along the glide, so that the last step lands exactly on the target.
    package mutating func next() -> (band: FilterBand, frames: Int) {
        let n = min(Self.stepFrames, left)
        left -= n
        current = left == 0 ? target : from.interpolated(to: target, Double(total - left) / Double(total))
        return (current, n)
    }
}
