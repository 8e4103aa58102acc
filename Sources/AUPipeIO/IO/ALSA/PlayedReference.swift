import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// `--play DEVICE` (full-duplex voice processing): `aec`'s far end is played on a device as the
/// canceller reads it, and the canceller gets exactly what was played, at the time the device
/// plays it.
///
/// Timing: every frame of the far end is written to the device when the microphone frame
/// aligned with it is processed. The device starts once a buffer less one period is queued
/// (its start threshold T); from then on, with capture on the same clock, a frame captured at
/// time t is read (with the rest of its capture period) at t + (the period's remaining time),
/// and the frame written for it then waits behind what is queued, which is T less the period
/// that was played meanwhile: the two add up to T. So the reference is delayed by
/// `deviceDelay` = T before `aec` sees it; `aec`'s own `delay=` (or `delay=auto`) then covers
/// only the acoustic path, the converters and scheduling (a delay that comes out too long
/// could not be undone: aec finds no negative delays, so T is the lower bound). The queue
/// (playback plus capture delay) is measured at every `measureEvery`-th write (two ioctls: not
/// worth a system call per 10 ms frame); the average is reported next to
/// the figure used.
///
/// Losing the device: by default the run ends as when the capture device is lost (the far end
/// is no longer heard, so there is nothing left to cancel against); the block being played is
/// finished with silence for aec, the chain drains and the status is EX_IOERR. Under
/// `--reconnect` the stream goes on: what is not played is silence for the canceller (nothing
/// was played, so nothing can echo), and the device is opened again, without waiting, at most
/// every `Reconnect.interval`; not back within the timeout ends the run. While the silence of
/// a `--capture` gap is processed, nothing is played and aec is given silence: the time it
/// stands for has passed, and nothing was played in it.
package final class PlayedReference: ReferencePlayback {
    package let device: ALSADevice
    /// Frames from writing a frame to the device to its being played, as applied.
    package let deviceDelay: Int
    private let maxFrames: Int
    private let samples: UnsafeMutablePointer<Int16>
    /// Interleaved channels (aec's loudspeakers).
    private let channels: Int
    /// The delay line: `ringFrames` frames of `channels` samples.
    private let ring: UnsafeMutablePointer<Float>
    private let ringFrames: Int
    private var ringWrite = 0
    /// The measured queue (playback delay plus capture delay), summed over `measurements`.
    private var measuredSum = 0, measurements = 0, writes = 0
    package static let measureEvery = 10
    private let capture: ALSADevice?
    private var clipped = 0
    private let losses: DeviceLosses
    /// Frames given to `play` so far: the far end's place in the stream.
    private var framesGiven: Int64 = 0
    /// While the device is lost.
    private var outage: PlaybackOutage?

    /// - Parameters:
    ///   - device: the playback device, opened s16le at the stream's rate, one channel per
    ///     loudspeaker.
    ///   - capture: the capture device under `--capture` (its delay is part of what is measured).
    ///   - maxFrames: the most frames one `play` call gets (aec's frame).
    package init(device: ALSADevice, capture: ALSADevice?, maxFrames: Int, losses: DeviceLosses) {
        self.device = device
        self.losses = losses
        self.capture = capture
        self.maxFrames = maxFrames
        channels = device.format.channels
        deviceDelay = max(0, device.bufferFrames - device.periodFrames)
        samples = .allocate(capacity: maxFrames * channels)
        ringFrames = deviceDelay + maxFrames
        ring = .allocate(capacity: ringFrames * channels)
        ring.initialize(repeating: 0, count: ringFrames * channels)
    }

    deinit {
        samples.deallocate()
        ring.deallocate()
    }

    /// Plays `frames` (≤ maxFrames) frames of `x` (interleaved, linear) and replaces them with what the
    /// device plays meanwhile: the frames written `deviceDelay` frames before (silence at first).
    package func play(_ x: UnsafeMutablePointer<Float>, frames: Int) throws {
        for i in 0..<frames * channels { samples[i] = SampleCodec.s16(x[i], clipped: &clipped) }
        defer { framesGiven += Int64(frames) }
        // During a capture gap's silence nothing is played: that time has passed.
        var played = !losses.fillingGap && (outage == nil || tryReopen())
        if played {
            let before = device.framesTransferred
            do {
                try device.write(samples, frames: frames)
            } catch let loss as DeviceLoss {
                lose(loss, at: framesGiven + device.framesTransferred - before)
                played = false
            }
        }
        if !played {
            // Nothing was played: the canceller hears silence for these frames.
            samples.update(repeating: 0, count: frames * channels)
        } else if writes % Self.measureEvery == 0 {
            measuredSum += device.delayFrames + (capture?.delayFrames ?? 0)
            measurements += 1
        }
        writes += 1
        for i in 0..<frames {
            // What was written deviceDelay frames ago comes out; what is written now goes in.
            let r = (ringWrite + ringFrames - deviceDelay) % ringFrames
            for c in 0..<channels {
                ring[ringWrite * channels + c] = SampleCodec.float(samples[i * channels + c])
                x[i * channels + c] = ring[r * channels + c]
            }
            ringWrite = ringWrite + 1 == ringFrames ? 0 : ringWrite + 1
        }
    }

    /// Plays what is queued to the end; a device still gone counts its gap to the end.
    package func finish() {
        if let outage { losses.record(outage.gapAtEnd(frames: framesGiven, rate: rate)) } else { device.drain() }
    }

    private var rate: Double { Double(device.format.sampleRate) }

    /// A loss: the run ends (no `--reconnect`), or the device is tried again from `play`.
    /// `position`: the far end's frames the device took before it went.
    private func lose(_ loss: DeviceLoss, at position: Int64) {
        outage = PlaybackOutage(loss, device: device, position: position)
        let at = Double(position) / rate
        guard let policy = losses.reconnect else {
            losses.end(loss.error(at: at))
            return
        }
        warn("aupipe: \(loss.subject): lost (\(loss.code)) at \(DeviceLoss.seconds(at)) s; the canceller is given silence for the far end meanwhile, reconnecting (\(policy.text))")
    }

    /// While lost under `--reconnect`: whether the device is back.
    private func tryReopen() -> Bool {
        guard var lost = outage, let policy = losses.reconnect, losses.ending == nil else { return false }
        defer { if outage != nil { outage = lost } }
        switch lost.attempt(device, policy: policy, frames: framesGiven) {
        case .notYet:
            return false
        case .timedOut(let timeout):
            losses.end(lost.loss.notBack(at: lost.start(rate: rate), within: timeout))
            return false
        case .back(let gap):
            losses.record(gap)
            warn("aupipe: \(lost.loss.subject): back after \(DeviceLoss.seconds(gap.lengthSeconds)) s; \(counted(Int(gap.frames), "frame")) of the far end were not played")
            outage = nil
            return true
        }
    }

    /// For `--stats`: the delay applied and the one measured.
    package var note: String {
        let rate = Double(device.format.sampleRate)
        let applied = formatFixed(Double(deviceDelay) * 1000 / rate)
        let measured = measurements > 0 ? formatFixed(Double(measuredSum) / Double(measurements) * 1000 / rate) + " ms measured" : "not measured"
        return "the far end as played: device delay \(applied) ms applied (\(measured))" + (clipped > 0 ? ", \(counted(clipped, "sample")) clipped to 16 bits" : "")
    }
}
