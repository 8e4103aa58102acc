import AUPipeFormats

/// One channel delayed by a fractional number of frames (`delay`): a ring of past input and the
/// taps of `FractionalDelayTaps`, with a crossfade when the delay changes while running.
///
/// `process(_:)` takes input frame n and gives frame n − `FractionalDelayTaps.lookAhead` of the
/// delayed signal: the caller drops that look-ahead (`LatencyTrim`). A whole-frame delay is a
/// copy. A new delay (`set(_:)`) does not move the read point, which would pitch-shift the
/// signal: the output crossfades linearly, over `fadeFrames`, from the old read point to the
/// new one, both reading the same history. Memory is allocated in `init`, never after.
package final class FractionalDelayLine {
    /// Past input, a power of two long; `mask` wraps an index into it.
    private let ring: UnsafeMutablePointer<Float>
    private let mask: Int
    /// Input frames written so far.
    private var written = 0
    /// The longest delay the ring holds, in whole frames.
    package let maxWholeFrames: Int
    /// The read point now, and the one faded to.
    private var current: Tap
    private var next: Tap
    /// Frames of the crossfade done, and its length.
    private var faded = 0
    private let fadeFrames: Int
    private var fading = false

    /// A read point: whole frames, and taps for the fraction (nil for a whole-frame delay).
    private struct Tap {
        package var whole: Int
        package var taps: UnsafeMutablePointer<Float>
        package var isWhole: Bool
    }

    /// A line for delays up to `maxFrames` frames, starting at `delay` frames, with silence
    /// before the first input.
    package init(delay: Double, maxFrames: Int, fadeFrames: Int) {
        let h = FractionalDelayTaps.halfLength
        maxWholeFrames = maxFrames
        var size = 1
        while size < maxFrames + FractionalDelayTaps.lookAhead + h + 2 { size <<= 1 }
        ring = .allocate(capacity: size)
        ring.initialize(repeating: 0, count: size)
        mask = size - 1
        self.fadeFrames = max(1, fadeFrames)
        let a = UnsafeMutablePointer<Float>.allocate(capacity: 2 * h), b = UnsafeMutablePointer<Float>.allocate(capacity: 2 * h)
        a.initialize(repeating: 0, count: 2 * h)
        b.initialize(repeating: 0, count: 2 * h)
        current = Tap(whole: 0, taps: a, isWhole: true)
        next = Tap(whole: 0, taps: b, isWhole: true)
        Self.point(&current, at: delay)
        Self.point(&next, at: delay)
    }

    deinit {
        ring.deallocate()
        current.taps.deallocate()
        next.taps.deallocate()
    }

    /// Sets `tap` to read `delay` frames back.
    private static func point(_ tap: inout Tap, at delay: Double) {
        let whole = delay.rounded(.down)
        tap.whole = Int(whole)
        tap.isWhole = delay == whole
        if !tap.isWhole { FractionalDelayTaps.fill(tap.taps, fraction: delay - whole) }
    }

    /// Moves to a delay of `delay` frames (≤ `maxWholeFrames`), crossfading from the current one;
    /// a fade under way ends at once where it was going.
    package func set(_ delay: Double) {
        if fading { swap(&current, &next) }
        Self.point(&next, at: delay)
        faded = 0
        fading = true
    }

    /// Takes one input frame, gives one frame of the delayed signal (`lookAhead` frames behind).
    @inline(__always)
    package func process(_ x: Float) -> Float {
        ring[written & mask] = x
        let newest = written
        written += 1
        let y = read(current, newest: newest)
        guard fading else { return y }
        faded += 1
        let a = Float(faded) / Float(fadeFrames)
        let z = read(next, newest: newest)
        if faded == fadeFrames {
            swap(&current, &next)
            fading = false
            return z
        }
        return y + (z - y) * a
    }

    @inline(__always)
    private func read(_ tap: Tap, newest: Int) -> Float {
        let h = FractionalDelayTaps.halfLength
        let base = newest - FractionalDelayTaps.lookAhead - tap.whole
        if tap.isWhole { return ring[base & mask] }
        var sum: Float = 0
        let top = base + h - 1
        for i in 0..<(2 * h) { sum += ring[(top - i) & mask] * tap.taps[i] }
        return sum
    }
}
