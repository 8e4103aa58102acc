import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif

/// A sound device that went away in the middle of a run: unplugged (ENODEV), left in a state it
/// cannot leave (EBADFD), suspended and not resuming (ESTRPIPE), failing otherwise, or silent
/// for `ALSADevice.stallLimit` seconds. Thrown by `ALSADevice.read`/`write`; what follows (the
/// run ends, or waits for the device under `--reconnect`) is decided by its owner.
package struct DeviceLoss: Error {
    /// The option that named the device (`--capture`, `--monitor`, `--play`) and its PCM name.
    package let option: String
    package let name: String
    package let direction: ALSADevice.Direction
    /// Short, for the announcements: `ENODEV`, `ESTRPIPE`, `EBADFD`, `stalled`, `EIO`.
    package let code: String
    /// What happened, in words, after "the capture device": "was unplugged or disappeared (ENODEV)".
    package let what: String

    /// The loss that ALSA error `err` (negative) means.
    package init(_ err: Int32, option: String, name: String, direction: ALSADevice.Direction) {
        self.option = option
        self.name = name
        self.direction = direction
        switch -err {
        case ENODEV: (code, what) = ("ENODEV", "was unplugged or disappeared (ENODEV)")
        case EBADFD: (code, what) = ("EBADFD", "stopped in a state it cannot leave (EBADFD)")
        case ESTRPIPE: (code, what) = ("ESTRPIPE", "stopped and did not resume after suspend (ESTRPIPE)")
        default:
            let name = Self.errnoName(-err)
            (code, what) = (name, "failed: \(ALSALibrary.describe(err))" + (name.hasPrefix("E") ? " (\(name))" : ""))
        }
    }

    /// A device that did nothing for `seconds` seconds.
    package init(stalledFor seconds: Int, option: String, name: String, direction: ALSADevice.Direction) {
        self.option = option
        self.name = name
        self.direction = direction
        code = "stalled"
        what = (direction == .capture ? "delivered nothing" : "took nothing") + " for \(seconds) s (stuck, or taken away)"
    }

    /// `--capture hw:1`.
    package var subject: String { "\(option) \(name)" }

    /// The line that ends a run: "--capture hw:1: the capture device was unplugged or
    /// disappeared (ENODEV) at 12.340 s; the output ends there" (EX_IOERR).
    package func error(at seconds: Double) -> AUPipeError {
        AUPipeError(.ioError, "\(subject): the \(direction.word) device \(what) at \(Self.seconds(seconds)) s; the output ends there (--reconnect waits for it to come back)",
                    cause: .deviceLost(option: option, device: name))
    }

    /// The line that ends a run when the device did not come back within `timeout`.
    package func notBack(at seconds: Double, within timeout: StreamDuration) -> AUPipeError {
        AUPipeError(.ioError, "\(subject): lost (\(code)) at \(Self.seconds(seconds)) s and did not come back within \(timeout); the output ends there",
                    cause: .deviceLost(option: option, device: name))
    }

    /// Seconds with three decimals: `12.340`.
    package static func seconds(_ s: Double) -> String { String(s, decimals: 3) }

    package static func errnoName(_ e: Int32) -> String {
        switch e {
        case EIO: return "EIO"
        case EPIPE: return "EPIPE"
        case EINVAL: return "EINVAL"
        case ENOMEM: return "ENOMEM"
        case EBUSY: return "EBUSY"
        case ENXIO: return "ENXIO"
        default: return "error \(e)"
        }
    }
}

/// `--reconnect[=TIMEOUT]`: how long a run waits for a lost sound device to come back.
public struct Reconnect: Sendable, Equatable {
    /// nil: for ever.
    public var timeout: StreamDuration?
    /// Between two attempts to open the device again.
    package static let interval = 0.25

    public init(timeout: StreamDuration?) { self.timeout = timeout }

    /// `(every 250 ms, up to 30s)`.
    package var text: String { "every \(formatNumber(Self.interval * 1000)) ms" + (timeout.map { ", up to \($0)" } ?? ", for ever") }
}

/// One time a sound device was away, for `--stats`.
public struct DeviceGap: Sendable, Equatable {
    /// `--capture`, `--monitor` or `--play`, and the device's PCM name.
    public var option: String
    public var device: String
    /// Where the gap starts on the device's stream, in seconds from the run's start.
    public var startSeconds: Double
    /// How long the device was away (CLOCK_MONOTONIC from the loss to its reopening), seconds.
    public var lengthSeconds: Double
    /// The gap in frames of the device's stream: for `--capture` the silence written into the
    /// stream, for `--monitor` the output frames not played, for `--play` the far end's frames
    /// not played (the canceller was given silence for them).
    public var frames: Int
}

/// The losses of one run's devices: the `--reconnect` policy they follow, the gaps that were
/// filled, and the loss that ends the run (a capture or play device that is gone for good).
package final class DeviceLosses {
    package let reconnect: Reconnect?
    package private(set) var gaps: [DeviceGap] = []
    /// Set once: the run reads no more, drains and ends with this (EX_IOERR).
    package private(set) var ending: AUPipeError?
    /// True while the block being processed is a capture gap's silence: the time it stands for
    /// has passed, so `--monitor` and `--play` do not play it (they would take that time again,
    /// while the capture device, back and running, overruns).
    package var fillingGap = false

    package init(reconnect: Reconnect?) {
        self.reconnect = reconnect
        gaps.reserveCapacity(64)
    }

    package func end(_ error: AUPipeError) {
        if ending == nil { ending = error }
    }

    package func record(_ gap: DeviceGap) { gaps.append(gap) }

    /// CLOCK_MONOTONIC in seconds.
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
