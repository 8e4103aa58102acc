import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// An ALSA PCM device (`default`, `hw:1,0`, `plughw:0`, a name from asound.conf) opened for
/// capture or playback in interleaved frames of one `StreamFormat`.
///
/// libasound is loaded at run time (`ALSALibrary`): where it is absent aupipe still runs, and
/// only the device options fail, with an error that says what to install.
///
/// The device is opened non-blocking; reads and writes wait in `poll` on the device's
/// descriptors together with the stop pipe, so SIGINT/SIGTERM ends a wait at once. Overruns
/// (capture) and underruns (playback) are recovered with `snd_pcm_recover` and counted in
/// `xruns`, never fatal. A device that goes away (unplugged, stuck, suspended for good) throws
/// `DeviceLoss`; `close` and `reopen` then serve `--reconnect`. Nothing is allocated after
/// `init` but by `reopen`.
package final class ALSADevice {
    package enum Direction: Sendable {
        case capture, playback
        package var word: String { self == .capture ? "capture" : "playback" }
    }

    /// The PCM name as given, and the option that named it (for messages: `--capture`).
    package let name: String
    package let option: String
    package let direction: Direction
    package let format: StreamFormat
    /// What the device granted: frames per period and in the whole buffer (at the last open).
    package private(set) var periodFrames: Int
    package private(set) var bufferFrames: Int
    /// Overruns (capture) or underruns (playback) recovered so far.
    package private(set) var xruns = 0
    /// Frames read or written so far, over every open (where a loss struck mid-write).
    package private(set) var framesTransferred: Int64 = 0
    /// When frames last moved (CLOCK_MONOTONIC seconds; the open at first): where a loss's
    /// gap starts, since a stalled device is only known lost `stallLimit` seconds later.
    package private(set) var lastTransfer = DeviceLosses.now()

    /// The open PCM; nil once closed after a loss, until `reopen` succeeds.
    private var pcm: OpaquePointer?
    /// What was asked for at the first open, asked again by `reopen`.
    private let config: aupipe_pcm_config
    private let pollFDs: UnsafeMutablePointer<pollfd>
    /// Room in `pollFDs` for the device's descriptors (one more is the stop pipe's).
    private let pollCapacity: Int
    private var deviceFDCount = 0
    private var started = false
    /// Waits in a row in which the device did nothing (1 s each); at `stallLimit` the run ends.
    private var idleWaits = 0
    package static let stallLimit = 5
    /// Recoveries in a row with no frame moved between them; past `recoveryLimit` the device is
    /// lost (a suspend that "resumes" and is suspended again, an xrun at every restart).
    private var recoveriesInARow = 0
    package static let recoveryLimit = 16

    /// Default period and buffer: 10 ms periods in a 40 ms buffer (4 periods), as PipeWire's
    /// and PulseAudio's low-latency defaults; `--period`/`--buffer` change them.
    package static let defaultPeriod = StreamDuration.seconds(0.010)
    package static let defaultBuffer = StreamDuration.seconds(0.040)

    /// The period and buffer to ask for: the defaults, or one given and the other four times
    /// larger or a quarter of it.
    package struct Sizes: Sendable {
        package var period = ALSADevice.defaultPeriod, buffer = ALSADevice.defaultBuffer
        /// Whether the period was given (or the default), not derived from the buffer.
        package var periodFirst = true

        package init(period: StreamDuration?, buffer: StreamDuration?) {
            switch (period, buffer) {
            case let (p?, b?): (self.period, self.buffer) = (p, b)
            case let (p?, nil): (self.period, self.buffer) = (p, p.scaled(by: 4))
            case let (nil, b?): (self.period, self.buffer, periodFirst) = (b.scaled(by: 0.25), b, false)
            case (nil, nil): break
            }
        }
    }

    /// Checks the asked sizes at `rate`: a period of 1 ms...2 s, a buffer of 2 ms...4 s holding at
    /// least two periods. Returns them in microseconds. `periodFirst`: report a bad period before
    /// a bad buffer (false when the period was derived from the buffer).
    package static func microseconds(period: StreamDuration, buffer: StreamDuration, rate: Int, periodFirst: Bool = true) throws -> (period: UInt32, buffer: UInt32) {
        func us(_ d: StreamDuration) -> Double { Double(min(d.frames(atRate: rate), 1 << 40)) * 1e6 / Double(rate) }
        let p = us(period), b = us(buffer)
        let periodError = (1000...2_000_000).contains(p) ? nil : AUPipeError.usage("--period \(period) is out of range 1 ms...2 s (\(formatFixed(p / 1000)) ms at \(rate) Hz)")
        let bufferError = (2000...4_000_000).contains(b) ? nil : AUPipeError.usage("--buffer \(buffer) is out of range 2 ms...4 s (\(formatFixed(b / 1000)) ms at \(rate) Hz)")
        // The option the user wrote is named first (the other may only be derived from it).
        if let e = (periodFirst ? periodError : bufferError) ?? (periodFirst ? bufferError : periodError) { throw e }
        guard b >= 2 * p else { throw AUPipeError.usage("--buffer \(buffer) must hold at least two periods of --period \(period)") }
        return (UInt32(p.rounded()), UInt32(b.rounded()))
    }

    /// Opens and configures `name`.
    /// - Parameters:
    ///   - sizes: the asked period and buffer (the device grants the nearest it can; see
    ///     `periodFrames`, `bufferFrames`). 1 ms...2 s, the buffer 2 ms...4 s and at least two periods.
    ///   - startThreshold: playback only: frames queued before the device starts (nil: a buffer
    ///     less one period).
    package init(name: String, option: String, direction: Direction, format: StreamFormat,
         sizes: Sizes, startThreshold: Int? = nil) throws {
        try ALSALibrary.load(for: option)
        guard let alsaFormat = ALSAFormat.code(for: format.encoding) else {
            throw AUPipeError.usage("\(option) \(name): ALSA has no \(format.encoding.token) format")
        }
        self.name = name
        self.option = option
        self.direction = direction
        self.format = format
        var config = aupipe_pcm_config()
        config.capture = direction == .capture ? 1 : 0
        config.format = alsaFormat
        config.channels = UInt32(format.channels)
        config.rate = UInt32(format.sampleRate)
        (config.period_us, config.buffer_us) = try Self.microseconds(period: sizes.period, buffer: sizes.buffer, rate: format.sampleRate, periodFirst: sizes.periodFirst)
        config.start_threshold = UInt(startThreshold ?? 0)
        self.config = config
        var handle: OpaquePointer?
        var step: UnsafePointer<CChar>?
        let err = aupipe_pcm_open(&handle, name, &config, &step)
        guard err >= 0, let handle else {
            throw Self.openError(err, step: step.map { String(cString: $0) } ?? "open", name: name, option: option, direction: direction, format: format)
        }
        pcm = handle
        periodFrames = Int(config.period_frames)
        bufferFrames = Int(config.buffer_frames)
        // Room for more descriptors than the first open had, in case a reopened device has more.
        pollCapacity = max(8, Int(aupipe_pcm_poll_count(handle)))
        pollFDs = .allocate(capacity: pollCapacity + 1)
        fillPollDescriptors()
    }

    deinit {
        aupipe_pcm_close(pcm)
        pollFDs.deallocate()
    }

    private func fillPollDescriptors() {
        guard let pcm else { deviceFDCount = 0; return }
        let count = min(pollCapacity, max(0, Int(aupipe_pcm_poll_count(pcm))))
        deviceFDCount = count > 0 ? max(0, Int(aupipe_pcm_poll_fill(pcm, pollFDs, UInt32(count)))) : 0
    }

    /// Closes the PCM of a lost device (nothing is drained).
    package func close() {
        aupipe_pcm_close(pcm)
        pcm = nil
        deviceFDCount = 0
    }

    /// Tries once to open the device again by the same name, with the same format, rate,
    /// channels, period and buffer asked; true when it is open again. A capture device is
    /// started at once (its first frame is then one period away).
    package func reopen() -> Bool {
        if pcm != nil { close() }
        var config = self.config
        var handle: OpaquePointer?
        var step: UnsafePointer<CChar>?
        guard aupipe_pcm_open(&handle, name, &config, &step) >= 0, let handle else { return false }
        pcm = handle
        periodFrames = Int(config.period_frames)
        bufferFrames = Int(config.buffer_frames)
        fillPollDescriptors()
        idleWaits = 0
        recoveriesInARow = 0
        lastTransfer = DeviceLosses.now()
        started = false
        if direction == .capture {
            started = true
            _ = aupipe_pcm_start(handle)
        }
        return true
    }

    /// The one-line error for a device that would not open or take the format.
    package static func openError(_ err: Int32, step: String, name: String, option: String, direction: Direction, format: StreamFormat) -> AUPipeError {
        let why = ALSALibrary.describe(err)
        let list = direction == .capture ? "arecord -L" : "aplay -L"
        switch step {
        case "open":
            let status: ExitStatus = err == -EBUSY ? .unavailable : (direction == .capture ? .noInput : .cannotCreate)
            return AUPipeError(status, "\(option) \(name): cannot open the \(direction.word) device: \(why); list devices with '\(list)'")
        case "format", "channels", "rate":
            let asked = step == "format" ? format.encoding.token : (step == "channels" ? counted(format.channels, "channel") : "\(format.sampleRate) Hz")
            return AUPipeError(.unavailable, "\(option) \(name): the device cannot do \(asked) (\(format.spec)): \(why); use plughw:… or default, which convert, or another format")
        case "period", "buffer":
            return AUPipeError(.unavailable, "\(option) \(name): the device refuses that \(step) size: \(why); try other --period/--buffer values")
        default:
            return AUPipeError(.unavailable, "\(option) \(name): cannot set the device up (\(step)): \(why)")
        }
    }

    /// Frames queued between aupipe and the converter: for playback those written and not yet
    /// played, for capture those captured and not yet read. 0 when the device cannot tell.
    package var delayFrames: Int {
        var d = 0
        guard let pcm else { return 0 }
        return aupipe_pcm_delay(pcm, &d) >= 0 ? max(0, d) : 0
    }

    /// Reads up to `frames` frames (at most one buffer's worth: plugins such as `file` refuse
    /// more) into `buffer`, waiting until at least one is there. Returns 0 only when
    /// SIGINT/SIGTERM asked to stop; throws `DeviceLoss` when the device went away.
    package func read(into buffer: UnsafeMutableRawPointer, frames: Int) throws -> Int {
        guard let pcm else { throw DeviceLoss(-ENODEV, option: option, name: name, direction: direction) }
        let frames = min(frames, bufferFrames)
        if !started {
            started = true
            let err = aupipe_pcm_start(pcm)
            if err < 0, err != -EBADFD { try recover(err) }
        }
        while true {
            if StopSignal.received { return 0 }
            let n = aupipe_pcm_readi(pcm, buffer, UInt(frames))
            if n > 0 { idleWaits = 0; recoveriesInARow = 0; framesTransferred += Int64(n); lastTransfer = DeviceLosses.now(); return n }
            if n == 0 || n == -Int(EAGAIN) {
                try wait()
                continue
            }
            try recover(Int32(n))
            // After an overrun the device is prepared again; a capture stream must be restarted.
            let err = aupipe_pcm_start(pcm)
            if err < 0, err != -EBADFD { try recover(err) }
        }
    }

    /// Writes all `frames` frames from `buffer`, waiting while the device's buffer is full.
    /// Returns early, having written part, only when SIGINT/SIGTERM asked to stop; throws
    /// `DeviceLoss` when the device went away.
    package func write(_ buffer: UnsafeRawPointer, frames: Int) throws {
        guard let pcm else { throw DeviceLoss(-ENODEV, option: option, name: name, direction: direction) }
        var done = 0
        let frameBytes = format.bytesPerFrame
        while done < frames {
            if StopSignal.received { return }
            let n = aupipe_pcm_writei(pcm, buffer + done * frameBytes, UInt(min(frames - done, bufferFrames)))
            if n > 0 { done += n; idleWaits = 0; recoveriesInARow = 0; framesTransferred += Int64(n); lastTransfer = DeviceLosses.now(); continue }
            if n == 0 || n == -Int(EAGAIN) {
                try wait()
                continue
            }
            try recover(Int32(n))
        }
    }

    /// Plays what is queued to the end (playback), then stops the device.
    package func drain() {
        if direction == .playback, let pcm { _ = aupipe_pcm_drain(pcm) }
    }

    /// Recovers from an xrun or a suspend (`snd_pcm_recover` resumes, or prepares again).
    /// Anything else, a recovery that fails, or `recoveryLimit` of them in a row with nothing
    /// read or written between, is the device's loss: -ENODEV (unplugged) and -EBADFD (a state
    /// it cannot leave) are never tried.
    private func recover(_ err: Int32) throws {
        guard let pcm, err != -ENODEV, err != -EBADFD, recoveriesInARow < Self.recoveryLimit else {
            throw DeviceLoss(err, option: option, name: name, direction: direction)
        }
        recoveriesInARow += 1
        if err == -EPIPE || err == -ESTRPIPE { xruns += 1 }
        let r = aupipe_pcm_recover(pcm, err)
        guard r >= 0 else { throw DeviceLoss(err == -EPIPE ? r : err, option: option, name: name, direction: direction) }
    }

    /// Waits for the device to be ready, or for a stop.
    private func wait() throws {
        let count = deviceFDCount
        guard count > 0, let pcm else { usleep(1000); return }
        _ = aupipe_pcm_poll_fill(pcm, pollFDs, UInt32(count))
        let stopFD = StopSignal.descriptor
        pollFDs[count] = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
        let r = poll(pollFDs, nfds_t(stopFD >= 0 ? count + 1 : count), 1000)
        if r < 0, errno != EINTR {
            throw AUPipeError.io("\(option) \(name): waiting for the \(direction.word) device: \(String(cString: strerror(errno)))")
        }
        if r == 0 {
            // A running device moves every period; seconds of nothing mean it is stuck.
            idleWaits += 1
            if idleWaits >= Self.stallLimit {
                throw DeviceLoss(stalledFor: Self.stallLimit, option: option, name: name, direction: direction)
            }
        }
        var revents: UInt16 = 0
        _ = aupipe_pcm_poll_revents(pcm, pollFDs, UInt32(count), &revents)
    }
}

/// ALSA's sample formats (snd_pcm_format_t) for aupipe's encodings.
package enum ALSAFormat {
    /// The code for `encoding`, or nil if ALSA has none (every aupipe encoding has one).
    package static func code(for encoding: SampleEncoding) -> Int32? {
        let be: Int32 = encoding.isBigEndian ? 1 : 0
        switch (encoding.kind, encoding.bits) {
        case (.signedInteger, 8): return 0
        case (.unsignedInteger, 8): return 1
        case (.signedInteger, 16): return 2 + be
        case (.unsignedInteger, 16): return 4 + be
        case (.signedInteger, 24): return 32 + be      // S24_3LE/BE: three packed bytes
        case (.unsignedInteger, 24): return 34 + be
        case (.signedInteger, 32): return 10 + be
        case (.unsignedInteger, 32): return 12 + be
        case (.float, 32): return 14 + be
        case (.float, 64): return 16 + be
        case (.muLaw, _): return 20
        case (.aLaw, _): return 21
        default: return nil
        }
    }
}

/// libasound, loaded once on first use.
package enum ALSALibrary {
    /// The library to load: `libasound.so.2`, or `$AUPIPE_LIBASOUND` when set (another path,
    /// or a name that does not exist, to try aupipe as it behaves without ALSA).
    package static var soname: String { getenv("AUPIPE_LIBASOUND").map { String(cString: $0) } ?? "libasound.so.2" }

    /// Loads libasound, or throws the error that says what to install (EX_UNAVAILABLE).
    package static func load(for option: String) throws {
        guard aupipe_alsa_load(soname) != 0 else { return }
        let why = String(cString: aupipe_alsa_load_error())
        throw AUPipeError(.unavailable, "\(option) needs ALSA's library (\(why)); install it with 'apt install libasound2' (Debian, Ubuntu) or 'dnf install alsa-lib' (Fedora); everything else in aupipe works without it")
    }

    /// ALSA's text for a negative error code.
    package static func describe(_ err: Int32) -> String { String(cString: aupipe_alsa_strerror(err)) }
}
