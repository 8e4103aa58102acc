import AUPipeFormats
import AUPipeGraph

/// Keeps NaN and ±inf out of a measurement: blocks whose samples are all finite are measured as
/// they are; a block holding a non-finite sample is measured from a copy in which each of those
/// samples holds its channel's last finite sample (0 before any), so that the gap bends neither
/// the loudness nor the true peak's interpolation (the audio itself is not touched). They are counted, and the first is reported once on
/// stderr, so that one bad sample neither poisons libebur128's filters nor turns the RMS into
/// NaN, and is never silent either.
package final class FiniteMeasure {
    /// Non-finite samples seen so far.
    package private(set) var count: Int64 = 0
    private let channels: Int
    private let capacity: Int
    private let scratch: UnsafeMutablePointer<Float>
    /// Each channel's last finite sample, what a non-finite one is measured as.
    private let held: UnsafeMutablePointer<Float>
    /// What the warning says first: the unit's name; nil for no warning.
    private let owner: String?

    /// Frames per second, for the time in the warning.
    private let sampleRate: Int

    /// Room for `maxFrames` frames of `channels` samples at a time (allocated once, here).
    package init(owner: String?, channels: Int, sampleRate: Int, maxFrames: Int) {
        self.owner = owner
        self.channels = channels
        self.sampleRate = sampleRate
        capacity = max(1, maxFrames)
        scratch = .allocate(capacity: capacity * channels)
        held = .allocate(capacity: channels)
        held.initialize(repeating: 0, count: channels)
    }

    deinit {
        scratch.deallocate()
        held.deallocate()
    }

    /// Calls `body` with `frames` interleaved frames from `samples`, all finite: `samples` itself
    /// when it holds no NaN or infinity, else copies (up to `maxFrames` frames at a time) with
    /// those samples as their channel's last finite one. `frame` is the stream position of the first frame, for the warning.
    package func measure(_ samples: UnsafePointer<Float>, frames: Int, from frame: Int64, _ body: (UnsafePointer<Float>, Int) throws -> Void) rethrows {
        var bad = 0, first = -1
        for i in 0..<(frames * channels) where !samples[i].isFinite {
            if first < 0 { first = i }
            bad += 1
        }
        guard bad > 0 else {
            if frames > 0 { held.update(from: samples + (frames - 1) * channels, count: channels) }
            return try body(samples, frames)
        }
        if count == 0, let owner {
            let seconds = Double(frame + Int64(first / channels)) / Double(sampleRate)
            warn("aupipe: \(owner): warning: a non-finite sample (NaN or infinity) in the input at \(String(seconds, decimals: 3)) s, channel \(first % channels); such samples are measured as the sample before them and counted in --stats")
        }
        count += Int64(bad)
        var done = 0
        while done < frames {
            let n = min(capacity, frames - done)
            let p = samples + done * channels
            for i in 0..<(n * channels) {
                let c = i % channels
                if p[i].isFinite { held[c] = p[i] }
                scratch[i] = held[c]
            }
            try body(scratch, n)
            done += n
        }
    }
}
