/// `--monitor DEVICE`: every block of output is also played on a device. Losing that device
/// never stops the main stream: the loss is announced once and the monitor is dropped; under
/// `--reconnect` the loop tries to open it again, without waiting, at most every
/// `Reconnect.interval` (one open attempt per try), and plays on from where the stream is once
/// it is back (what went by meanwhile is not played: a gap, counted in `--stats`). The silence
/// that fills a `--capture` gap is not played either: its time has already passed.
final class MonitorOutput {
    let device: ALSADevice
    private let losses: DeviceLosses
    /// Frames given to `write` so far (played or not): the monitor's place in the stream.
    private var frames: Int64 = 0
    /// Since the loss: when and where in the stream it happened, and when to try next.
    private var lost: DeviceLoss?
    private var lostAt = 0.0, detectedAt = 0.0, lostFrames: Int64 = 0, nextTry = 0.0
    /// Whether the device is gone for the rest of the run.
    private var gaveUp = false

    init(device: ALSADevice, losses: DeviceLosses) {
        self.device = device
        self.losses = losses
    }

    private var rate: Double { Double(device.format.sampleRate) }

    /// Plays `count` frames of `data` (the output's format), or goes on without the device.
    func write(_ data: UnsafeRawPointer, frames count: Int) throws {
        defer { frames += Int64(count) }
        if losses.fillingGap { return }   // a capture gap: that time has passed
        if lost != nil, !tryReopen() { return }
        let before = device.framesTransferred
        do {
            try device.write(data, frames: count)
        } catch let loss as DeviceLoss {
            lose(loss, at: frames + device.framesTransferred - before)
        }
    }

    /// Announces the loss and closes the device.
    /// `position`: the frames of the stream the device played (or took) before it went.
    private func lose(_ loss: DeviceLoss, at position: Int64) {
        let at = DeviceLoss.seconds(Double(position) / rate)
        lost = loss
        lostAt = device.lastTransfer   // a stall is known only seconds after it began
        lostFrames = position
        detectedAt = DeviceLosses.now()
        nextTry = detectedAt + Reconnect.interval
        device.close()
        if let policy = losses.reconnect {
            warn("aupipe: \(loss.subject): lost (\(loss.code)) at \(at) s; the stream goes on, reconnecting (\(policy.text))")
        } else {
            gaveUp = true
            warn("aupipe: \(loss.subject): the playback device \(loss.what) at \(at) s; the stream goes on without it")
        }
    }

    /// While lost: whether the device is back (tried at most every `Reconnect.interval`).
    private func tryReopen() -> Bool {
        guard !gaveUp, let loss = lost, let policy = losses.reconnect else { return false }
        let now = DeviceLosses.now()
        if let timeout = policy.timeout, now - detectedAt >= Double(timeout.frames(atRate: device.format.sampleRate)) / rate {
            gaveUp = true
            warn("aupipe: \(loss.subject): lost (\(loss.code)) at \(DeviceLoss.seconds(Double(lostFrames) / rate)) s and did not come back within \(timeout); the stream goes on without it")
            return false
        }
        guard now >= nextTry else { return false }
        nextTry = now + Reconnect.interval
        guard device.reopen() else { return false }
        let away = DeviceLosses.now() - lostAt
        losses.record(DeviceGap(option: loss.option, device: loss.name, startSeconds: Double(lostFrames) / rate,
                                lengthSeconds: away, frames: Int(frames - lostFrames)))
        warn("aupipe: \(loss.subject): back after \(DeviceLoss.seconds(away)) s; \(frames - lostFrames) frames of output were not played")
        lost = nil
        return true
    }

    /// Plays what is queued to the end (nothing when the device is gone).
    func drain() { if lost == nil { device.drain() } }
}
