import AUPipeFormats
import AUPipeGraph

/// `delay`: delays each channel by its own time (`delay 10ms`, `delay 0,2.5ms`), a fraction of
/// a frame by band-limited (windowed-sinc) interpolation, keeping the stream's length: the
/// delayed start is silence and the tail is dropped, unless `extend=1` keeps it.
///
/// The delay is the unit's purpose, not latency: an impulse on frame k comes out on frame
/// k + delay. The interpolation's look-ahead (`FractionalDelayTaps.lookAhead`, 31 frames) is
/// latency, compensated (`LatencyTrim`), and adds that much to a live run's delay. `delays` is
/// live: a change crossfades over 10 ms between the old and the new read points of the same
/// history (`FractionalDelayLine`), so it neither clicks nor pitch-shifts.
public final class DelayUnit: AudioUnit, LiveControllable, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "delay",
        summary: "delay channels by ms, s or frames, fractions by sinc interpolation",
        details: """
            delays= is one duration for every channel, or one per channel (delay 0,2.5ms delays the second of two), in ms, s or frames (480f); a bare number must be 0. A fraction of a frame is interpolated with a 64-tap Kaiser-windowed sinc (error below -90 dB up to 0.45 x the rate; the response falls above it); whole frames are copied exactly. The length is kept: the delayed start is silence and the tail is dropped; extend=1 keeps the tail (the output is longer by the longest delay, rounded up to a frame), as sox's delay does.
            The delay is not latency: an impulse on frame k comes out on frame k + delay. The interpolation looks 31 frames ahead; that latency is compensated, and adds 31 frames to a live run. delays= is live: a change crossfades over 10 ms from the old to the new delay (no click, no pitch change), up to the longest of the delays given and 1 s.
            """,
        parameters: [Keys.delays, Keys.extend],
        primary: Keys.delays.name,
        example: "aupipe delay 0,2.5ms < stereo.wav > out.wav",
        exercise: UnitExercise(["1.5f,10ms"]),
        manual: manualText,
        frameNeeds: FrameNeeds(latency: true),
        make: { DelayUnit(delays: $0[Keys.delays], extend: $0[Keys.extend]) })

    /// The delays as given, one for every channel or one per channel.
    public private(set) var delays: [DelayTime]
    public let extend: Bool
    private var rate = 48000
    private var channels = 1
    private var lines: [FractionalDelayLine] = []
    private var trim = LatencyTrim(latency: FractionalDelayTaps.lookAhead)
    private var extended = false

    public init(delays: [DelayTime], extend: Bool) {
        self.delays = delays
        self.extend = extend
    }

    /// `delays` in frames for each of `channels` channels; throws when the list fits neither.
    private func frames(_ delays: [DelayTime]) throws -> [Double] {
        guard delays.count == 1 || delays.count == channels else {
            throw AUPipeError.usage("delay: delays= lists \(delays.count) delays but the stream has \(counted(channels, "channel")); give one for every channel or one per channel")
        }
        return (0..<channels).map { delays[delays.count == 1 ? 0 : $0].frames(atRate: rate) }
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        rate = context.input.sampleRate
        channels = context.input.channels
        let frames = try frames(delays)
        let room = Int(max(frames.max() ?? 0, Self.liveHeadroomSeconds * Double(rate)).rounded(.up))
        let fade = GainGlide.frames(atRate: rate)
        lines = frames.map { FractionalDelayLine(delay: $0, maxFrames: room, fadeFrames: fade) }
        return context.input
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let new = Keys.delays.value(ifNamed: name, from: value) else { throw AUPipeError.usage("delay: \(name) is not live") }
        let frames = try frames(new)
        let room = lines.first?.maxWholeFrames ?? 0
        if let longest = frames.max(), longest > Double(room) {
            throw AUPipeError.usage("delay: delays=\(Keys.delays.type.text(new)) reaches \(formatNumber(longest)) frames; while running at most \(room) (the longest of the delays started with and 1 s)")
        }
        delays = new
        for (line, d) in zip(lines, frames) { line.set(d) }
    }

    public func parameterValue(_ name: String) -> String? { name == Keys.delays.name ? Keys.delays.type.text(delays) : nil }

    public var statsNote: String? {
        let list = (try? frames(delays))?.map(formatNumber).joined(separator: ", ") ?? ""
        return "delays \(list) frames (intended); \(FractionalDelayTaps.lookAhead) frames of look-ahead compensated"
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        trim.received(frames)
        return run(input, frames: frames, into: output)
    }

    /// Runs `frames` frames (zeros when `input` is nil) through the lines, keeping what the trim keeps.
    private func run(_ input: UnsafePointer<Float>?, frames: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        let (from, count) = trim.keep(frames)
        for f in 0..<frames {
            let keep = f >= from && f - from < count
            for c in 0..<channels {
                let y = lines[c].process(input.map { $0[f * channels + c] } ?? 0)
                if keep { output[(f - from) * channels + c] = y }
            }
        }
        return count
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        if extend, !extended {
            extended = true
            let longest = (try? frames(delays))?.max() ?? 0
            trim.owe(upTo: trim.length + Int64(longest.rounded(.up)))
        }
        guard trim.owesOutput else { return (0, true) }
        let n = Int(min(Int64(capacity), trim.owed + Int64(trim.skip)))
        let written = run(nil, frames: n, into: output)
        return (written, !trim.owesOutput)
    }
}
