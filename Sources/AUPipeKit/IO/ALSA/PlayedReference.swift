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
final class PlayedReference {
    let device: ALSADevice
    /// Frames from writing a frame to the device to its being played, as applied.
    let deviceDelay: Int
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
    static let measureEvery = 10
    private let capture: ALSADevice?
    private var clipped = 0

    /// - Parameters:
    ///   - device: the playback device, opened s16le at the stream's rate, one channel per
    ///     loudspeaker.
    ///   - capture: the capture device under `--capture` (its delay is part of what is measured).
    ///   - maxFrames: the most frames one `play` call gets (aec's frame).
    init(device: ALSADevice, capture: ALSADevice?, maxFrames: Int) {
        self.device = device
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
    func play(_ x: UnsafeMutablePointer<Float>, frames: Int) throws {
        for i in 0..<frames * channels { samples[i] = SampleCodec.s16(x[i], clipped: &clipped) }
        try device.write(samples, frames: frames)
        if writes % Self.measureEvery == 0 {
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

    /// Plays what is queued to the end.
    func finish() { device.drain() }

    /// For `--stats`: the delay applied and the one measured.
    var note: String {
        let rate = Double(device.format.sampleRate)
        let applied = formatFixed(Double(deviceDelay) * 1000 / rate)
        let measured = measurements > 0 ? formatFixed(Double(measuredSum) / Double(measurements) * 1000 / rate) + " ms measured" : "not measured"
        return "the far end as played: device delay \(applied) ms applied (\(measured))" + (clipped > 0 ? ", \(counted(clipped, "sample")) clipped to 16 bits" : "")
    }
}
