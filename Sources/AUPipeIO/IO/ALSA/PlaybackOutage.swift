import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// A playback device (`--monitor`, `--play`) while it is lost: what happened, when and where in
/// the stream, and when to try it again under `--reconnect`. Its owner asks it once a block;
/// it never waits (at most one open attempt every `Reconnect.interval`).
package struct PlaybackOutage {
    package let loss: DeviceLoss
    /// When the device last moved frames (CLOCK_MONOTONIC, s): a stall is known only seconds
    /// after it began, so the gap is timed from here.
    package let lostAt: Double
    /// When the loss was noticed (CLOCK_MONOTONIC, s): the timeout counts from here.
    package let detectedAt: Double
    /// The frames of the stream the device had taken before it went.
    package let lostFrames: Int64
    private var nextTry: Double

    /// The outage of `device` (closed here) that went after taking `position` frames.
    package init(_ loss: DeviceLoss, device: ALSADevice, position: Int64) {
        self.loss = loss
        lostAt = device.lastTransfer
        lostFrames = position
        detectedAt = DeviceLosses.now()
        nextTry = detectedAt + Reconnect.interval
        device.close()
    }

    /// The gap of a device still away when the run ends (not back yet, given up, or never
    /// waited for): from the loss to the end, the owner's stream being at `frames`.
    package func gapAtEnd(frames: Int64, rate: Double) -> DeviceGap {
        DeviceGap(option: loss.option, device: loss.name, startSeconds: start(rate: rate),
                  lengthSeconds: DeviceLosses.now() - lostAt, frames: Int(max(0, frames - lostFrames)))
    }

    /// Where in the stream the device went, in seconds at `rate`.
    package func start(rate: Double) -> Double { Double(lostFrames) / rate }

    package enum Attempt {
        /// Not yet time to try, or the device did not open.
        case notYet
        /// `policy`'s timeout passed since the loss was noticed.
        case timedOut(StreamDuration)
        /// Open again: the gap it left, the stream being at `frames` now.
        case back(DeviceGap)
    }

    /// One step of `--reconnect` under `policy`, the owner's stream being at `frames`.
    package mutating func attempt(_ device: ALSADevice, policy: Reconnect, frames: Int64) -> Attempt {
        let now = DeviceLosses.now()
        let rate = Double(device.format.sampleRate)
        if let timeout = policy.timeout, now - detectedAt >= Double(timeout.frames(atRate: device.format.sampleRate)) / rate {
            return .timedOut(timeout)
        }
        guard now >= nextTry else { return .notYet }
        nextTry = now + Reconnect.interval
        guard device.reopen() else { return .notYet }
        return .back(DeviceGap(option: loss.option, device: loss.name, startSeconds: start(rate: rate),
                               lengthSeconds: DeviceLosses.now() - lostAt, frames: Int(frames - lostFrames)))
    }
}
