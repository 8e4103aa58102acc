import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// `--capture DEVICE`: the stream read from an ALSA capture device instead of stdin, raw frames
/// of `--capture-format` (the RemoteIO input element). The device is opened by `open()`, once
/// the chain has been checked (so `--check` never touches it). Reads return what the device
/// has, at least one frame; 0 (the end of the stream) after SIGINT/SIGTERM, or when the device
/// went away (the loss is then in `DeviceLosses.ending`).
///
/// Under `--reconnect` a lost device is waited for (`reconnect`): the read blocks, trying to
/// open it again every `Reconnect.interval`, and once it is back the time it was away (from
/// the last frames it delivered to its reopening, CLOCK_MONOTONIC) is read as silence (frames at the stream's rate, in reads of the usual size, so the chain sees the
/// time pass) before the device's frames again.
package final class CaptureSource: ByteSource {
    package let deviceName: String
    package let format: StreamFormat
    package let sizes: ALSADevice.Sizes
    package private(set) var device: ALSADevice?
    private var losses = DeviceLosses(reconnect: nil)
    package var name: String { "--capture \(deviceName)" }
    /// Frames delivered so far (captured and silence): the stream's time.
    private var framesRead: Int64 = 0
    /// Silence still owed for a gap.
    private var silenceFrames = 0
    /// One frame of silence in the capture format (0 is not silence in every encoding: u8's is 0x80).
    private let silence: UnsafeMutableRawPointer
    /// `--duration` in frames (nil: none): a gap still open when the stream reaches it ends the
    /// wait, its silence written up to the duration.
    package let limitFrames: Int64?
    /// The device was still away when the stream reached `--duration`: nothing more is read.
    private var endedInGap = false

    package init(device: String, format: StreamFormat, sizes: ALSADevice.Sizes, duration: StreamDuration? = nil) {
        deviceName = device
        self.format = format
        self.sizes = sizes
        limitFrames = duration.map { Int64($0.frames(atRate: format.sampleRate)) }
        silence = .allocate(byteCount: format.bytesPerFrame, alignment: 16)
        let zeros = [Float](repeating: 0, count: format.channels)
        SampleCodec(format.encoding).encode(zeros, count: format.channels, into: silence)
    }

    deinit { silence.deallocate() }

    /// The header the stream would have had: raw frames of the device's format, no length.
    package var header: StreamHeader { StreamHeader(container: .raw, format: format, dataBytes: nil, headerBytes: 0) }

    /// Opens the device; `losses` decides what a loss does and records gaps.
    package func open(losses: DeviceLosses) throws {
        self.losses = losses
        device = try ALSADevice(name: deviceName, option: "--capture", direction: .capture, format: format, sizes: sizes)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = format.bytesPerFrame
        guard let device, buffer.count >= frameBytes, let base = buffer.baseAddress else { return 0 }
        if silenceFrames > 0 { return fillSilence(base, frames: min(silenceFrames, buffer.count / frameBytes)) }
        if endedInGap { return 0 }
        losses.fillingGap = false
        do {
            let n = try device.read(into: base, frames: buffer.count / frameBytes)
            framesRead += Int64(n)
            return n * frameBytes
        } catch let loss as DeviceLoss {
            guard reconnect(after: loss, device: device) else { return 0 }
            return fillSilence(base, frames: min(silenceFrames, buffer.count / frameBytes))
        }
    }

    /// `frames` frames of silence at `base`; the bytes.
    private func fillSilence(_ base: UnsafeMutableRawPointer, frames: Int) -> Int {
        let frameBytes = format.bytesPerFrame
        for i in 0..<frames { (base + i * frameBytes).copyMemory(from: silence, byteCount: frameBytes) }
        silenceFrames -= frames
        framesRead += Int64(frames)
        losses.fillingGap = true
        return frames * frameBytes
    }

    /// After a loss: without `--reconnect` the run ends (false); with it, waits for the device
    /// and owes the time it was away as silence (true), or ends the run when it did not come
    /// back in time or a stop signal arrived (false; the gap so far is recorded, with no frames).
    private func reconnect(after loss: DeviceLoss, device: ALSADevice) -> Bool {
        let at = Double(framesRead) / Double(format.sampleRate)
        guard let policy = losses.reconnect else {
            losses.end(loss.error(at: at))
            return false
        }
        warn("aupipe: \(loss.subject): lost (\(loss.code)) at \(DeviceLoss.seconds(at)) s; reconnecting (\(policy.text))")
        // The gap starts with the last frames read (a stall is known only seconds later); the
        // wait is counted from now.
        let start = device.lastTransfer
        device.close()
        let deadline = policy.timeout.map { DeviceLosses.now() + Double($0.frames(atRate: format.sampleRate)) / Double(format.sampleRate) }
        // The gap is the stream's time: at this moment the stream reaches --duration.
        let rate = Double(format.sampleRate)
        let durationEnds = limitFrames.map { start + Double(max(0, $0 - framesRead)) / rate }
        // The gap in the report: `length` seconds from `at`, `frames` of silence written for it.
        func gap(_ length: Double, frames: Int) {
            losses.record(DeviceGap(option: "--capture", device: deviceName, startSeconds: at, lengthSeconds: length, frames: frames))
        }
        while true {
            let now = DeviceLosses.now()
            if let deadline, now >= deadline, durationEnds.map({ deadline < $0 }) ?? true {
                losses.end(loss.notBack(at: at, within: policy.timeout!))
                return false
            }
            if let limitFrames, let durationEnds, now >= durationEnds {
                silenceFrames = Int(max(0, limitFrames - framesRead))
                endedInGap = true
                gap(now - start, frames: silenceFrames)
                warn("aupipe: \(loss.subject): still away when --duration was reached; \(counted(Int(silenceFrames), "frame")) of silence written")
                return true
            }
            let pause = min(Reconnect.interval, max(0, min(deadline ?? .infinity, durationEnds ?? .infinity) - now))
            if Self.sleepUnlessStopped(seconds: pause) {
                // Stopped while waiting: the stream ends at the loss, as any capture ends at a
                // stop; the gap so far is recorded (no frames written for it).
                let away = DeviceLosses.now() - start
                gap(away, frames: 0)
                warn("aupipe: \(loss.subject): stopped while waiting for it, \(DeviceLoss.seconds(away)) s after the loss; the stream ends at the loss")
                return false
            }
            if device.reopen() { break }
        }
        let away = DeviceLosses.now() - start
        silenceFrames = Int((away * Double(format.sampleRate)).rounded())
        gap(away, frames: silenceFrames)
        warn("aupipe: \(loss.subject): back after \(DeviceLoss.seconds(away)) s; \(counted(Int(silenceFrames), "frame")) of silence written")
        return true
    }

    /// Sleeps `seconds`, or less when SIGINT/SIGTERM arrives; true when it did.
    package static func sleepUnlessStopped(seconds: Double) -> Bool {
        if StopSignal.received { return true }
        let fd = StopSignal.descriptor
        let ms = Int32(max(0, (seconds * 1000).rounded()))
        if fd >= 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, ms)
        } else {
            usleep(UInt32(ms) * 1000)
        }
        return StopSignal.received
    }
}
