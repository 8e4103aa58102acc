import AUPipeFormats
import AUPipeGraph
import CAUPipeSupport

/// `mute`: silences the stream, fading over `ramp` at every change so that it never clicks.
///
/// Without `at`, `on` (default 1) mutes the whole stream from its first frame. With `at`, the
/// listed intervals of stream time are muted and `on` (default 0) is the state outside them.
/// Timing is sample-exact on the stream's own timeline: a mute that starts at frame A fades
/// linearly over R = ramp frames, with gain 1 - k/R at frame A + k - 1 (silent from A + R - 1);
/// an unmute at frame B fades back in the same way. A change that comes before a fade has
/// finished turns the fade around from where it is.
///
/// While running, `on` can be toggled by a signal (`signal=usr1`: every SIGUSR1 toggles it) or
/// set through `--control` (`set mute.on 1`); the change takes effect at the next block, with
/// the same ramp.
public final class MuteUnit: AudioUnit, LiveControllable, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "mute",
        summary: "silence the stream, or parts of it, with click-free ramps",
        details: """
            Without at=, on=1 (the default) silences the whole stream from its first frame, and on=0 passes it through.
            With at=START-END[,START-END...], those intervals of stream time (seconds, or ms, or frames like 480f) are muted and on= (default 0) is the state outside them; START- (no END) mutes from START to the end of the stream.
            Every change fades linearly over ramp=: a mute starting at frame A reaches silence at frame A+R-1 (R = ramp in frames), an unmute at frame B is back to full level at B+R-1. Timing follows the stream, not the wall clock, and is sample-exact.
            While running, on= can be toggled by a signal (signal=usr1: each SIGUSR1 toggles it; usr2 for a second mute) or set with --control; the change starts at the next block boundary and fades over ramp=.
            """,
        parameters: [Keys.on, Keys.ramp, Keys.at, Keys.signal],
        primary: Keys.on.name,
        example: "aupipe mute at=1.5-3.0 ramp=10ms < in.wav > out.wav",
        exercise: UnitExercise(["at=0.05-0.1,1234f-1300f", "ramp=3ms"]),
        manual: manualText,
        make: { v in
            if v[Keys.on] == true, v[Keys.at] != nil {
                throw AUPipeError.usage("mute: on=1 with at= would mute everything (on= is the state outside the intervals); drop on=1, or drop at=")
            }
            return MuteUnit(on: v[Keys.on], ramp: v[Keys.ramp], at: v[Keys.at] ?? [], signal: v[Keys.signal]?.number)
        })

    private let ramp: StreamDuration
    private let ranges: [TimeRange]
    /// Whether the stream is muted outside the `at` intervals (all of it without `at`): `on`.
    private var outsideMuted: Bool
    /// 1 for SIGUSR1, 2 for SIGUSR2, or nil; and the signal count already acted on.
    private let signal: Int32?
    private var signalsSeen: UInt = 0
    /// Times `on` changed while running.
    private var toggles = 0
    /// Muted intervals in frames, sorted, merged: [start, end).
    private var intervals: [(start: Int64, end: Int64)] = []
    private var rampFrames = 1
    private var channels = 1
    /// Frames processed so far: the stream-time position of the next input frame.
    private var position: Int64 = 0
    /// Current gain as a step of the ramp, 0...rampFrames (gain = level / rampFrames).
    private var level = 1

    public init(on: Bool?, ramp: StreamDuration, at ranges: [TimeRange], signal: Int32? = nil) {
        self.ramp = ramp
        self.ranges = ranges
        outsideMuted = on ?? ranges.isEmpty
        self.signal = signal
    }

    /// Passes samples on or zeroes them: the precision stays (the fades of `ramp=` are short
    /// and are rounded without dither, so a 16-bit stream stays bit-exact outside them).
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { input }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        channels = input.channels
        rampFrames = max(1, ramp.frames(atRate: input.sampleRate))
        guard rampFrames <= input.sampleRate else {
            throw AUPipeError.usage("mute: ramp=\(ramp) is longer than 1 s (\(input.sampleRate) frames at \(input.sampleRate) Hz); ramps are 0...1000 ms")
        }
        // An interval without an end (`30-`) lasts beyond any stream.
        var list = ranges.map { (start: Int64($0.start.frames(atRate: input.sampleRate)), end: $0.end.map { Int64($0.frames(atRate: input.sampleRate)) } ?? .max) }
        if let bad = list.first(where: { $0.end <= $0.start }) {
            throw AUPipeError.usage("mute: at= has an empty interval (frames \(bad.start)-\(bad.end)); make END later than START")
        }
        list.sort { $0.start < $1.start }
        intervals = []
        for r in list {
            if let last = intervals.last, r.start <= last.end { intervals[intervals.count - 1].end = max(last.end, r.end) }
            else { intervals.append(r) }
        }
        nextInterval = 0
        level = targetAndBoundary(at: 0).0
        if let signal {
            aupipe_count_user_signal(signal)
            signalsSeen = aupipe_user_signal_count(signal)
        }
        return input
    }

    public var isBypassed: Bool { !outsideMuted && ranges.isEmpty && signal == nil }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let on = Keys.on.value(ifNamed: name, from: value) else { throw AUPipeError.usage("mute: \(name) is not live") }
        if on != outsideMuted { toggles += 1 }
        outsideMuted = on
    }

    public func parameterValue(_ name: String) -> String? { name == Keys.on.name ? (outsideMuted ? "1" : "0") : nil }

    public var statsNote: String? { toggles > 0 ? "on changed \(counted(toggles, "time")) while running" : nil }

    /// Index of the first interval that has not ended before `position`; only moves forward.
    private var nextInterval = 0

    /// The target level at `frame` (which never goes back), and the next frame where it changes.
    private func targetAndBoundary(at frame: Int64) -> (Int, Int64) {
        let open = outsideMuted ? 0 : rampFrames
        while nextInterval < intervals.count && intervals[nextInterval].end <= frame { nextInterval += 1 }
        guard nextInterval < intervals.count else { return (open, .max) }
        let r = intervals[nextInterval]
        return frame < r.start ? (open, r.start) : (0, r.end)
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        if let signal {
            let count = aupipe_user_signal_count(signal)
            if (count &- signalsSeen) & 1 == 1 { outsideMuted.toggle(); toggles += 1 }
            signalsSeen = count
        }
        let ch = channels
        let scale = 1 / Float(rampFrames)
        var f = 0
        while f < frames {
            let (goal, boundary) = targetAndBoundary(at: position)
            let run = Int(min(Int64(frames - f), boundary - position))
            if level == goal {
                let base = f * ch, n = run * ch
                if goal != 0 { (output + base).update(from: input + base, count: n) }
                else { (output + base).update(repeating: 0, count: n) }
                f += run
                position += Int64(run)
            } else {
                for _ in 0..<run {
                    level += goal > level ? 1 : -1
                    let gain = Float(level) * scale
                    for c in 0..<ch { output[f &* ch &+ c] = input[f &* ch &+ c] * gain }
                    f += 1
                    position += 1
                    if level == goal { break }
                }
            }
        }
        return frames
    }
}
