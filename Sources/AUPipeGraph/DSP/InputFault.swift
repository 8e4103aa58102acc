/// Where a float sample stops being a level and becomes a fault in the input: 40 dB over full
/// scale. Float keeps far more headroom than that, but no signal reaches it; a sample of 1e20 (or
/// an infinity) is a fault upstream. Units that track a level over time (`vad`'s noise and level
/// range, `silence`'s running loudness) leave such frames out, so that one bad sample does not
/// hold their trackers for seconds, or for good.
package enum InputFault {
    /// The fault level, dBFS (a full-scale sine reads 0 dBFS; power 1 is full scale).
    package static let levelDBFS = 40.0
    /// The same as a power (amplitude squared): 1e4.
    package static let power = 1e4
}
