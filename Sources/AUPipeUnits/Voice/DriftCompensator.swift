import AUPipeFormats
import AUPipeGraph

/// `aec`'s reference on its way in, resampled by a factor that may move while running (clock
/// drift): `factor` frames come out for every frame read (1 + drift; within ±2000 ppm).
///
/// Until `engage` the reference passes through sample for sample (`drift=off`, and
/// `drift=auto` before it has found a drift worth a frame: bit-identical to no compensation).
/// `engage` hands it to a variable-ratio `Resampler` (libsoxr, at its default quality) without
/// a seam: the resampler is first run over the last frames already passed through (kept in a
/// ring), its output for them discarded, at exactly one frame per frame, so that its next
/// output is the next frame read and its filter has its history; the factor then moves from 1.
/// From then on the reference is read ahead of what the canceller takes by the resampler's
/// latency (240 frames with libsoxr: 15 ms at 16 kHz). `offset` counts what the compensation
/// has added: the frames taken so far less the frames read they stand for (negative when the
/// factor is below 1); `offset(at:)` gives it at any frame of the last second taken.
///
/// Everything is allocated in `init`; `take` and `setFactor` allocate nothing.
package final class DriftCompensator {
    /// Interleaved channels (loudspeakers), and frames per `take`.
    package let channels: Int, frameFrames: Int
    private let resampler: Resampler
    /// The ring of the last `ringFrames` frames passed through (for `engage`), and how many it holds.
    private let ring: UnsafeMutablePointer<Float>
    private let ringFrames: Int
    private var ringWrite = 0, ringHeld = 0
    /// One read's frames, and the resampler's output not yet taken (`pendingFrames` of it).
    private let raw: UnsafeMutablePointer<Float>
    private let pending: UnsafeMutablePointer<Float>
    private let pendingCapacity: Int
    private var pendingFrames = 0
    /// Resampler output still to drop: what it made from the ring's frames at `engage`.
    private var discard = 0
    package private(set) var engaged = false
    package private(set) var factor = 1.0
    package private(set) var offset = 0.0
    /// Frames taken so far, and a ring of (frames taken, `offset` then) after each of the last
    /// `trailCapacity` takes: a second of them.
    package private(set) var taken = 0
    private let trailCapacity: Int
    private var trailTaken: [Int], trailOffset: [Double]
    private var trailNext = 0, trailCount = 0

    /// For `channels` interleaved channels at `rate` Hz, taken `frameFrames` at a time.
    package init(channels: Int, rate: Int, frameFrames: Int) throws {
        self.channels = channels
        self.frameFrames = frameFrames
        resampler = try Resampler(channels: channels, from: rate, to: rate, maxFrames: frameFrames, maxDrift: ClockDriftSetting.limitPPM * 1e-6)
        ringFrames = resampler.latency + frameFrames
        ring = .allocate(capacity: ringFrames * channels)
        ring.initialize(repeating: 0, count: ringFrames * channels)
        raw = .allocate(capacity: frameFrames * channels)
        pendingCapacity = frameFrames + resampler.maxOutputFrames(forInput: frameFrames)
        pending = .allocate(capacity: pendingCapacity * channels)
        pending.initialize(repeating: 0, count: pendingCapacity * channels)
        raw.initialize(repeating: 0, count: frameFrames * channels)
        trailCapacity = rate / frameFrames + 2
        trailTaken = [Int](repeating: 0, count: trailCapacity)
        trailOffset = [Double](repeating: 0, count: trailCapacity)
    }

    deinit {
        ring.deallocate()
        raw.deallocate()
        pending.deallocate()
    }

    /// The resampler's latency in frames: how far ahead the reference is read once engaged.
    package var latency: Int { resampler.latency }

    /// The next `frameFrames` frames of the compensated reference into `out`; `read(buffer,
    /// frames)` supplies the reference as read (`frames` frames, `channels` interleaved).
    package func take(into out: UnsafeMutablePointer<Float>, read: (UnsafeMutablePointer<Float>, Int) throws -> Void) throws {
        defer { record() }
        guard engaged else {
            try read(out, frameFrames)
            keep(out, frames: frameFrames)
            return
        }
        while pendingFrames < frameFrames {
            try read(raw, frameFrames)
            try resample(raw, frames: frameFrames)
        }
        out.update(from: pending, count: frameFrames * channels)
        pendingFrames -= frameFrames
        pending.update(from: pending + frameFrames * channels, count: pendingFrames * channels)
        offset += Double(frameFrames) * (1 - 1 / factor)
    }

    /// What the compensation had added (`offset`) when `frame` frames had been taken, for a frame
    /// within the last second taken (linear between takes; the oldest or newest value beyond):
    /// where a delay analysis over earlier frames stands (`DriftLagTiming`).
    package func offset(at frame: Double) -> Double {
        guard trailCount > 0 else { return 0 }
        var later = (trailNext - 1 + trailCapacity) % trailCapacity
        if frame >= Double(trailTaken[later]) { return trailOffset[later] }
        for _ in 1..<trailCount {
            let earlier = (later - 1 + trailCapacity) % trailCapacity
            let t0 = Double(trailTaken[earlier]), t1 = Double(trailTaken[later])
            if frame >= t0 {
                return trailOffset[earlier] + (trailOffset[later] - trailOffset[earlier]) * (frame - t0) / (t1 - t0)
            }
            later = earlier
        }
        return trailOffset[later]
    }

    private func record() {
        taken += frameFrames
        trailTaken[trailNext] = taken
        trailOffset[trailNext] = offset
        trailNext = (trailNext + 1) % trailCapacity
        trailCount = min(trailCapacity, trailCount + 1)
    }

    /// Hands the reference to the resampler from the next `take` on, at `factor` (1 ± 0.002).
    package func engage(factor: Double) throws {
        guard !engaged else { return try setFactor(factor) }
        engaged = true
        // Prime with the frames already passed through, oldest first, at exactly 1/1.
        discard = ringHeld
        var start = (ringWrite - ringHeld + ringFrames) % ringFrames, left = ringHeld
        while left > 0 {
            let n = min(left, ringFrames - start, frameFrames)
            try resample(ring + start * channels, frames: n)
            start = (start + n) % ringFrames
            left -= n
        }
        try setFactor(factor)
    }

    /// Moves the factor (compensated frames per frame read), within ±2000 ppm of 1.
    package func setFactor(_ f: Double) throws {
        let limit = ClockDriftSetting.limitPPM * 1e-6
        factor = max(1 - limit, min(1 + limit, f))
        if engaged { try resampler.setRatio(nominalTimes: factor) }
    }

    private func resample(_ x: UnsafePointer<Float>, frames: Int) throws {
        let made = try resampler.process(x, frames: frames, into: pending + pendingFrames * channels)
        pendingFrames += made
        if discard > 0 {
            let drop = min(discard, pendingFrames)
            discard -= drop
            pendingFrames -= drop
            pending.update(from: pending + drop * channels, count: pendingFrames * channels)
        }
    }

    /// Keeps the frames passed through in the ring.
    private func keep(_ x: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let n = min(frames - done, ringFrames - ringWrite)
            (ring + ringWrite * channels).update(from: x + done * channels, count: n * channels)
            ringWrite = (ringWrite + n) % ringFrames
            done += n
        }
        ringHeld = min(ringFrames, ringHeld + frames)
    }
}
