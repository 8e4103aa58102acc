/// The largest of the last `window` values pushed, in O(1) amortised time per push: a
/// monotonic queue (each value waits only while nothing larger has come after it), in a ring of
/// `window + 1` slots allocated once. `LevelDetector`'s peak mode holds a peak with it, and
/// `LookaheadLimiter` takes the smallest gain over its look-ahead as the largest of the negated
/// gains (negation is exact, so the minimum is exact).
///
/// A value type over memory it owns: call `deallocate()` once, from the owner's `deinit`.
package struct SlidingMaximum {
    /// Values at positions p − window < position ≤ p count, p the last position pushed; ≥ 1.
    package let window: Int
    private let values: UnsafeMutablePointer<Float>
    private let positions: UnsafeMutablePointer<Int64>
    private var head = 0, count = 0

    /// - Parameter window: how many of the latest positions the maximum spans, ≥ 1.
    package init(window: Int) {
        precondition(window >= 1, "a sliding maximum spans at least one value")
        self.window = window
        values = .allocate(capacity: window + 1)
        values.initialize(repeating: 0, count: window + 1)
        positions = .allocate(capacity: window + 1)
        positions.initialize(repeating: 0, count: window + 1)
    }

    package func deallocate() {
        values.deallocate()
        positions.deallocate()
    }

    /// Pushes `value` at `position` (one more than the last position pushed) and returns the
    /// largest value at the last `window` positions.
    @inline(__always)
    package mutating func push(_ value: Float, at position: Int64) -> Float {
        let slots = window + 1
        while count > 0 {
            let back = (head + count - 1) % slots
            guard values[back] <= value else { break }
            count -= 1
        }
        let tail = (head + count) % slots
        values[tail] = value
        positions[tail] = position
        count += 1
        while positions[head] <= position - Int64(window) {
            head = (head + 1) % slots
            count -= 1
        }
        return values[head]
    }
}
