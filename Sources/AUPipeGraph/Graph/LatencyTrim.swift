import AUPipeFormats

/// The bookkeeping that keeps a unit with latency exact in length and alignment: of what the
/// DSP gives out, the first `latency` frames are dropped (the delay it adds), and nothing is
/// kept past the output's length, so that an impulse on input frame k comes out on output
/// frame k and the flushed tail ends where the output's length says.
///
/// A unit that keeps the frame count counts the frames it is given (`received`); a unit whose
/// length follows its own rule sets it (`owe(upTo:)`: `resample`'s round(N × out / in)). For
/// every run of DSP output it asks which part to keep (`keep`); after the end of the stream it
/// flushes zeros through the DSP while `owesOutput`. `FixedFrames` applies it to fixed frames,
/// `loudnorm` to its limiter's look-ahead, `lv2`/`ladspa` to a plugin's reported latency,
/// `resample` to its tail. No allocation: a value type of four integers.
public struct LatencyTrim: Sendable {
    /// The latency compensated, in output frames (0 until `setLatency` for a latency learned
    /// while running, as a plugin's).
    public private(set) var latency: Int
    /// Output frames still to drop.
    public private(set) var skip: Int
    /// The output's length so far (for a unit that keeps the frame count, the input frames
    /// received), and the output frames kept.
    public private(set) var length: Int64 = 0
    public private(set) var framesOut: Int64 = 0

    /// A trim of `latency` (≥ 0) output frames.
    public init(latency: Int = 0) {
        precondition(latency >= 0, "LatencyTrim: latency \(latency)")
        self.latency = latency
        skip = latency
    }

    /// Sets the latency once it is known, before any output is kept (a plugin reports it
    /// after its first run).
    public mutating func setLatency(_ frames: Int) {
        precondition(frames >= 0 && framesOut == 0 && skip == latency, "LatencyTrim: latency set after output")
        latency = frames
        skip = frames
    }

    /// Counts `frames` input frames of a unit that keeps the frame count: the output owes that
    /// many more.
    @inline(__always)
    public mutating func received(_ frames: Int) { length += Int64(frames) }

    /// Sets the output's length to `frames` (never shorter than it was) for a unit whose
    /// length follows its own rule.
    public mutating func owe(upTo frames: Int64) { length = max(length, frames) }

    /// Of `produced` frames the DSP just gave out, the part to keep: the first `from` are
    /// latency still to drop, then `count` frames, never past the output's length (0 when all
    /// of it is dropped or the output is complete). Counts the kept frames as written.
    @inline(__always)
    public mutating func keep(_ produced: Int) -> (from: Int, count: Int) {
        let from = min(skip, produced)
        skip -= from
        let count = Int(max(0, min(Int64(produced - from), length - framesOut)))
        framesOut += Int64(count)
        return (from, count)
    }

    /// Counts `frames` output frames written without a trim (a resampler's engine aligns its
    /// own output while the stream runs; only its tail is trimmed).
    @inline(__always)
    public mutating func wrote(_ frames: Int) { framesOut += Int64(frames) }

    /// Output frames still owed to the output's length (0 once complete).
    public var owed: Int64 { max(0, length - framesOut) }

    /// True while the output is shorter than its length: the tail is still to be flushed.
    public var owesOutput: Bool { framesOut < length }
}
