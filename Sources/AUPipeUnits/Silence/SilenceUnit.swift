import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `silence`: trims the silence at the ends of the stream and shortens long pauses, writing
/// where it cut, in frames of the input's timeline, so that a cut can be reproduced or mapped back.
///
/// A frame is loud when its peak over the channels reaches the threshold; it and the `hold`
/// frames after it are sound, every other frame is quiet. A run of quiet frames at the start
/// (`trim=start`) is cut down to its last `pad` frames, one at the end (`trim=end`) to its first
/// `pad` frames; any other run longer than `pause` is cut down to `keep` frames: its first
/// ceil(keep/2) and its last floor(keep/2). A run is held until it ends (memory: `pause` +
/// `keep` frames, a longer silence is counted, not stored), so the output lags by up to `pause`.
/// Samples that are kept pass unchanged.
public final class SilenceUnit: AudioUnit, StatsReporting, LiveControllable, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "silence",
        summary: "trim silence at the ends and shorten long pauses; the cuts as JSON lines",
        details: """
            A frame is loud when its sample peak over the channels reaches threshold=: in dBFS (-50dB), or relative (-30rel: 30 dB below the running loudness, the mean power of every frame so far whose peak is above -70 dBFS, EBU R128's absolute gate; nothing is loud before such a frame). A loud frame and the hold= after it are sound, the rest quiet.
            trim=start cuts the quiet run before the first sound down to its last pad=, trim=end the run after the last sound down to its first pad=. Any other quiet run longer than pause= is cut down to keep=: its first half and its last half. Kept samples pass unchanged; nothing fades.
            The output lags by up to pause= (a run is held until it ends); memory is pause= + keep= frames whatever the silence's length.
            threshold, hold and keep are live (keep up to its value at the start); get silence.cuts and silence.removed (seconds) read the cuts so far.
            Each cut is one JSON line to events= (- for stderr): {"cut":{"start":S,"end":E},"seconds":[S/rate,E/rate],"output":O}, S and E frames of the input (E excluded), O the output frame where it falls: an output time t >= O maps back to t + E - S plus the earlier cuts. --stats lists them too (JSON: cutStarts, cutEnds).
            """,
        parameters: [Keys.threshold, Keys.trim, Keys.pause, Keys.keep, Keys.hold, Keys.pad, Keys.events],
        primary: Keys.threshold.name,
        example: "aupipe -i talk.wav silence -45dB pause=0.8 keep=300ms events=cuts.jsonl -o trimmed.wav",
        exercise: UnitExercise(["threshold=-8dB", "hold=0", "pause=10ms", "keep=4ms", "pad=1ms", "events=\(UnitExercise.sideOutput).jsonl"],
                               length: .trimmed),
        manual: manualText,
        make: { v in
            try SilenceUnit(threshold: v[Keys.threshold], trim: v[Keys.trim], pause: v[Keys.pause], keep: v[Keys.keep],
                            hold: v[Keys.hold], pad: v[Keys.pad], events: v[Keys.events])
        })

    /// EBU R128's absolute gate: frames with a peak below it do not count in the running loudness.
    static let loudnessGateDBFS = -70.0
    /// The most cuts `--stats` text lists (JSON lists all).
    static let cutsInStatsText = 20
    /// Cuts stored before the list grows (a list that grows allocates only when it doubles).
    static let reservedCuts = 4096

    public private(set) var threshold: SilenceThreshold
    public let trim: Trim
    private let pause: StreamDuration, pad: StreamDuration
    private var keep: StreamDuration, hold: StreamDuration
    private let lines: (any LineOutputStream)?

    private var channels = 1, rate = 1
    private var pauseFrames: Int64 = 0, keepHead: Int64 = 0, keepTail: Int64 = 0, padFrames: Int64 = 0, holdFrames = 0
    /// Linear amplitude threshold (absolute), or the factor on the running mean power (relative).
    private var thresholdPower = 0.0
    private var gatePower = 0.0, gatedPower = 0.0, gatedFrames = 0.0
    private var run: QuietRun?
    private var inRun = false, seenSound = false
    private var holdLeft = 0
    /// Input frames read and output frames written so far.
    private var position: Int64 = 0, written: Int64 = 0
    private(set) var cuts: [(start: Int64, end: Int64)] = []
    private var line = CutLine()
    /// At the end: the last run's frames to write, and how many are written.
    private var pending: UnsafeMutablePointer<Float>?
    private var pendingCount = 0, pendingDone = 0, drainPlanned = false

    public init(threshold: SilenceThreshold, trim: Trim, pause: StreamDuration, keep: StreamDuration, hold: StreamDuration,
                pad: StreamDuration, events: String?) throws {
        self.threshold = threshold
        self.trim = trim
        self.pause = pause
        self.keep = keep
        self.hold = hold
        self.pad = pad
        lines = try events.map { try UnitStreams.opener.lineOutput(path: $0 == "-" ? nil : $0, label: "silence events=") }
    }

    deinit {
        run?.deallocate()
        pending?.deallocate()
        line.deallocate()
    }

    public var sideOutputs: [(role: String, path: String)] { lines?.path.map { [("silence events=", $0)] } ?? [] }

    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { input }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        rate = context.input.sampleRate
        pauseFrames = Int64(max(1, pause.frames(atRate: rate)))
        let keepFrames = Int64(keep.frames(atRate: rate))
        guard keepFrames <= pauseFrames else {
            throw AUPipeError.usage("silence: keep=\(keep) is longer than pause=\(pause); a shortened pause cannot be longer than the pauses it shortens: make keep= at most pause=")
        }
        setKeep(frames: keepFrames)
        padFrames = Int64(pad.frames(atRate: rate))
        holdFrames = hold.frames(atRate: rate)
        setThresholdPower()
        gatePower = decibelsToPower(Self.loudnessGateDBFS)
        run?.deallocate()
        let head = Int(max(pauseFrames, padFrames)), tail = Int(max(keepTail, padFrames))
        run = QuietRun(channels: channels, headCapacity: head, tailCapacity: tail)
        pending?.deallocate()
        pending = .allocate(capacity: (head + tail + 1) * channels)
        cuts.reserveCapacity(Self.reservedCuts)
        return context.input
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int {
        inputFrames + (run.map { $0.headCapacity + $0.tailCapacity } ?? 0)
    }

    private func decibelsToPower(_ db: Double) -> Double { pow(10, db / 10) }

    private func setThresholdPower() {
        switch threshold {
        case .absolute(let db): thresholdPower = decibelsToPower(db)
        case .relative(let db): thresholdPower = decibelsToPower(db)
        }
    }

    private func setKeep(frames: Int64) {
        keepTail = frames / 2
        keepHead = frames - keepTail
    }

    /// Whether a frame whose peak squared is `peak2` is loud; counts it in the running loudness
    /// (in either mode, so that a live change to a relative threshold finds it measured).
    @inline(__always) private func isLoud(_ peak2: Double) -> Bool {
        let loud: Bool
        switch threshold {
        case .absolute: loud = peak2 >= thresholdPower
        case .relative: loud = gatedFrames > 0 && peak2 >= thresholdPower * gatedPower / gatedFrames
        }
        // An infinity (or a sample beyond `InputFault`'s level) is kept as sound but not counted: one
        // such sample would otherwise hold the running loudness up for the rest of the stream.
        if peak2 >= gatePower, peak2 <= InputFault.power { gatedPower += peak2; gatedFrames += 1 }
        return loud
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let ch = channels
        var out = 0
        for f in 0..<frames {
            let frame = input + f * ch
            var peak: Float = 0
            for c in 0..<ch { peak = max(peak, abs(frame[c])) }
            let p = Double(peak)
            let sound: Bool
            if isLoud(p * p) { holdLeft = holdFrames; sound = true }
            else if holdLeft > 0 { holdLeft -= 1; sound = true }
            else { sound = false }
            if sound {
                if inRun { out += try endRun(into: output + out * ch, atEnd: false); inRun = false }
                (output + out * ch).update(from: frame, count: ch)
                out += 1
                written += 1
                seenSound = true
            } else {
                if !inRun { inRun = true; run!.begin(at: position) }
                run!.append(frame)
            }
            position += 1
        }
        return out
    }

    /// Ends the current quiet run (at a sound frame, or the stream's end): writes what is kept
    /// of it to `output`, records the cut; returns the frames written.
    private func endRun(into output: UnsafeMutablePointer<Float>, atEnd: Bool) throws -> Int {
        let r = run!
        let length = r.length
        var headKept = length, tailKept: Int64 = 0
        let leading = !seenSound
        if leading && trim.start && !(atEnd && trim.end) {
            (headKept, tailKept) = (0, min(padFrames, length))
        } else if atEnd && (trim.end || (leading && trim.start)) {
            (headKept, tailKept) = (leading ? 0 : min(padFrames, length), 0)
        } else if length > pauseFrames {
            (headKept, tailKept) = (keepHead, keepTail)
        }
        r.copy(from: 0, count: Int(headKept), to: output)
        written += headKept
        if headKept + tailKept < length {
            try recordCut(start: r.start + headKept, end: r.start + length - tailKept)
        }
        r.copy(from: length - tailKept, count: Int(tailKept), to: output + Int(headKept) * channels)
        written += tailKept
        return Int(headKept + tailKept)
    }

    private func recordCut(start: Int64, end: Int64) throws {
        cuts.append((start, end))
        guard let lines else { return }
        line.format(start: start, end: end, output: written, rate: rate)
        try lines.write(line.bytes, count: line.count)
    }

    /// At the end: what is kept of a last quiet run, then the events' destination closed.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        if !drainPlanned {
            drainPlanned = true
            if inRun, let pending { pendingCount = try endRun(into: pending, atEnd: true); inRun = false }
            try lines?.finish()
        }
        let n = min(capacity, pendingCount - pendingDone)
        if n > 0, let pending { output.update(from: pending + pendingDone * channels, count: n * channels) }
        pendingDone += n
        return (n, pendingDone == pendingCount)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.threshold.value(ifNamed: name, from: value) {
            threshold = v
            setThresholdPower()
        } else if let v = Keys.hold.value(ifNamed: name, from: value) {
            hold = v
            holdFrames = v.frames(atRate: rate)
            holdLeft = min(holdLeft, holdFrames)
        } else if let v = Keys.keep.value(ifNamed: name, from: value) {
            let frames = Int64(v.frames(atRate: rate))
            // keep's second half lives in the run's tail ring, sized at the start.
            let most = min(pauseFrames, Int64(run.map { 2 * $0.tailCapacity + 1 } ?? 0))
            guard frames <= most else {
                let ms = formatNumber((Double(most) * 1000 / Double(rate)).rounded(.down))
                throw AUPipeError.usage("silence: keep=\(v) is longer than this run can hold: at most \(ms)ms (pause= and the keep= and pad= it started with size its memory); start it with a larger keep=")
            }
            keep = v
            setKeep(frames: frames)
        } else {
            throw AUPipeError.usage("silence: \(name) is not live")
        }
    }

    public var readableFigures: [String] { Reading.allCases.map(\.rawValue) }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.threshold.name: return threshold.text
        case Keys.hold.name: return hold.description
        case Keys.keep.name: return keep.description
        case Reading.cuts.rawValue: return String(cuts.count)
        case Reading.removed.rawValue: return seconds(framesCut)
        default: return nil
        }
    }

    /// Input frames cut so far.
    public var framesCut: Int64 { cuts.reduce(0) { $0 + $1.end - $1.start } }

    private func seconds(_ frames: Int64) -> String { String(Double(frames) / Double(rate), decimals: 3) }

    public var statsNote: String? {
        var s = "\(counted(cuts.count, "cut")), \(seconds(framesCut)) s of \(seconds(position)) s removed"
        if !cuts.isEmpty {
            s += "; cut frames " + cuts.prefix(Self.cutsInStatsText).map { "\($0.start)-\($0.end)" }.joined(separator: ", ")
            if cuts.count > Self.cutsInStatsText { s += " and \(cuts.count - Self.cutsInStatsText) more (events= lists them all)" }
        }
        if let lines, lines.isStream { s += "; \(lines.written) lines written, \(lines.dropped) dropped" }
        return s
    }

    public var statsFigures: [StatsFigure] {
        [StatsFigure("cuts", Double(cuts.count)), StatsFigure("framesCut", Double(framesCut)), StatsFigure("framesIn", Double(position)),
         StatsFigure("framesOut", Double(written)),
         StatsFigure("cutStarts", values: cuts.map { Double($0.start) }), StatsFigure("cutEnds", values: cuts.map { Double($0.end) })]
    }
}
