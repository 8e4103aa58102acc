import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// `--monitor DEVICE`: every block of output is also played on a device. Losing that device
/// never stops the main stream: the loss is announced once and the monitor is dropped; under
/// `--reconnect` the loop tries to open it again, without waiting, at most every
/// `Reconnect.interval` (one open attempt per try), and plays on from where the stream is once
/// it is back (what went by meanwhile is not played: a gap, counted in `--stats`). The silence
/// that fills a `--capture` gap is not played either: its time has already passed.
package final class MonitorOutput {
    package let device: ALSADevice
    private let losses: DeviceLosses
    /// Frames given to `write` so far (played or not): the monitor's place in the stream.
    private var frames: Int64 = 0
    /// While the device is lost.
    private var outage: PlaybackOutage?
    /// Whether the device is gone for the rest of the run.
    private var gaveUp = false

    package init(device: ALSADevice, losses: DeviceLosses) {
        self.device = device
        self.losses = losses
    }

    private var rate: Double { Double(device.format.sampleRate) }

    /// Plays `count` frames of `data` (the output's format), or goes on without the device.
    package func write(_ data: UnsafeRawPointer, frames count: Int) throws {
        defer { frames += Int64(count) }
        if losses.fillingGap { return }   // a capture gap: that time has passed
        if outage != nil, !tryReopen() { return }
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
        outage = PlaybackOutage(loss, device: device, position: position)
        if let policy = losses.reconnect {
            warn("aupipe: \(loss.subject): lost (\(loss.code)) at \(at) s; the stream goes on, reconnecting (\(policy.text))")
        } else {
            gaveUp = true
            warn("aupipe: \(loss.subject): the playback device \(loss.what) at \(at) s; the stream goes on without it")
        }
    }

    /// While lost: whether the device is back (tried at most every `Reconnect.interval`).
    private func tryReopen() -> Bool {
        guard !gaveUp, var lost = outage, let policy = losses.reconnect else { return false }
        defer { if outage != nil { outage = lost } }
        switch lost.attempt(device, policy: policy, frames: frames) {
        case .notYet:
            return false
        case .timedOut(let timeout):
            gaveUp = true
            warn("aupipe: \(lost.loss.subject): lost (\(lost.loss.code)) at \(DeviceLoss.seconds(lost.start(rate: rate))) s and did not come back within \(timeout); the stream goes on without it")
            return false
        case .back(let gap):
            losses.record(gap)
            warn("aupipe: \(lost.loss.subject): back after \(DeviceLoss.seconds(gap.lengthSeconds)) s; \(counted(Int(gap.frames), "frame")) of output were not played")
            outage = nil
            return true
        }
    }

    /// Plays what is queued to the end; a device still gone counts its gap to the end, so that
    /// `--stats` tells how much of the output was not played.
    package func drain() {
        if let outage { losses.record(outage.gapAtEnd(frames: frames, rate: rate)) } else { device.drain() }
    }
}
