import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `vad`: voice activity per 10 ms frame (`VoiceActivityDetector`: a logistic model on two
/// spectral features against a noise that follows each bin's 30 % quantile), at any rate, with a hangover; speech segments as JSON
/// event lines, `get vad.active` while running, and with `gate=1` what is not speech muted.
///
/// Zero latency: frame k is judged when its last sample has arrived, so the event of a frame is
/// exact on the timeline but the gate acts from the next frame (an onset loses up to 10 ms,
/// under the 5 ms ramp). Exact length.
public final class VoiceActivityUnit: AudioUnit, StatsReporting, LiveControllable, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "vad",
        summary: "voice activity detection per 10 ms: JSON events, live state, optional gate",
        details: """
            Judges every 10 ms frame speech or not from the spectrum between 150 Hz and 4 kHz of the channels' mean, against a noise spectrum that follows each bin's 30 % quantile over time (seeded on the first 100 ms of sound; babble's dips do not pull it down). Two features, the share of bins 6 dB over their noise and the band's SNR, give a probability of speech (a logistic model), smoothed over 50 ms. Any rate; no model to download. A frame is speech when that probability exceeds threshold= and, when the band's level has spanned more than 8.7 dB over the last seconds, the frame is in the upper 75 % of that range (a near talker over babble); it stays speech for hangover= after the last such frame.
            Each speech segment writes JSON lines to stderr or events=: {"event":"start","frame":F,"t":S} and {"event":"end","frame":F,"t":S,"start":F,"frames":N,"seconds":D} (frames of the input's timeline).
            The audio passes untouched; gate=1 mutes what is not speech with a 5 ms ramp (the decision of a frame acts from the next one: zero latency, exact length). get vad.active reads 1 or 0 while running, vad.probability the smoothed probability; --stats prints the speech time and segments (JSON speechSeconds, segments).
            """,
        parameters: [Keys.threshold, Keys.hangover, Keys.gate, Keys.events],
        primary: nil,
        example: "arecord -f S16_LE -r 16000 | aupipe --live vad events=speech.jsonl gate=1 -o speech.wav",
        exercise: UnitExercise(["gate=1", "hangover=50ms", "threshold=0.3"]),
        manual: manualText,
        make: { try VoiceActivityUnit($0) })

    /// Seconds of the gate's ramp between open and muted.
    public static let rampSeconds = 0.005
    /// Frames per second of the decisions (10 ms frames).
    public static let framesPerSecond = 100

    private var threshold: Double {
        didSet { logOdds = Self.logOdds(threshold) }
    }
    /// `threshold` as the log-odds the detector compares with.
    private var logOdds: Float = 0
    private let hangover: StreamDuration
    public let gate: Bool
    private let lines: any LineOutputStream
    private var line = VoiceActivityEventLine()
    private var detector: VoiceActivityDetector?
    private var mono: UnsafeMutablePointer<Float>?
    private var channels = 1, rate = 1
    private var hangoverFrames = 0, hangoverLeft = 0
    private var rampStep: Float = 1, gain: Float = 1
    /// Frames of the stream so far; the index of the current 10 ms frame and where it ends.
    private var frames: Int64 = 0, frameIndex: Int64 = 0, frameEnd: Int64 = 0
    /// Whether the last whole frame was speech, and where its segment started.
    public private(set) var active = false
    private var segmentStart: Int64 = 0
    /// Speech so far: frames of the stream in speech segments that have ended, and their count.
    private var speechFrames: Int64 = 0
    public private(set) var segments = 0

    package init(_ v: ParameterValues) throws {
        threshold = v[Keys.threshold]
        logOdds = Self.logOdds(threshold)
        hangover = v[Keys.hangover]
        gate = v[Keys.gate]
        lines = try UnitStreams.opener.lineOutput(path: v[Keys.events], label: "vad events=")
    }

    deinit { line.deallocate(); mono?.deallocate() }

    public var sideOutputs: [(role: String, path: String)] { lines.path.map { [("vad events=", $0)] } ?? [] }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        rate = context.input.sampleRate
        let d = VoiceActivityDetector(sampleRate: rate)
        detector = d
        if rate < Self.leastRate {
            // The band is cut at the rate's Nyquist frequency: the detector still runs, on less.
            let top = 0.95 * Double(rate) / 2
            warn("aupipe: vad: warning: at \(formatNumber(Double(rate))) Hz the analysis band ends at \(formatNumber(top.rounded())) Hz instead of \(formatNumber(VoiceActivityDetector.highHz)) Hz; its model was fitted on 150 Hz to 4 kHz (resample to 8000 Hz or more first for the figures in the manual)")
        }
        mono?.deallocate()
        mono = .allocate(capacity: d.frameSamples)
        hangoverFrames = Int((CompressorUnit.seconds(hangover, rate: rate) * Double(Self.framesPerSecond)).rounded())
        rampStep = Float(1 / max(1, Self.rampSeconds * Double(rate)))
        gain = gate ? 0 : 1
        frameEnd = end(ofFrame: 0)
        return context.input
    }

    /// Under this rate (telephone speech's) the band ends well below 4 kHz: a warning says so.
    static let leastRate = 8000

    /// ln(p / (1 − p)).
    static func logOdds(_ p: Double) -> Float { Float(log(p / (1 - p))) }

    /// Passes the samples on untouched unless gate=1.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { gate ? .float : input }

    /// Where frame `k` ends, in frames of the stream: 10 ms frames exact on the timeline at any rate.
    private func end(ofFrame k: Int64) -> Int64 { (k + 1) * Int64(rate) / Int64(Self.framesPerSecond) }

    public func process(_ input: UnsafePointer<Float>, frames count: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let detector, let mono else { return 0 }
        var done = 0
        while done < count {
            let n = Int(min(Int64(count - done), frameEnd - frames))
            let p = input + done * channels, q = output + done * channels
            let scale = 1 / Float(channels)
            for i in 0..<n {
                var s: Float = 0
                for c in 0..<channels { s += p[i * channels + c] }
                mono[i] = s * scale
            }
            detector.add(mono, count: n)
            if gate { applyGate(p, q, n) } else { q.update(from: p, count: n * channels) }
            frames += Int64(n)
            done += n
            if frames == frameEnd { try endFrame(detector) }
        }
        return count
    }

    /// Ramps the gain towards open (speech) or muted, sample by sample.
    private func applyGate(_ p: UnsafePointer<Float>, _ q: UnsafeMutablePointer<Float>, _ n: Int) {
        let target: Float = active ? 1 : 0
        for i in 0..<n {
            if gain < target { gain = min(target, gain + rampStep) } else if gain > target { gain = max(target, gain - rampStep) }
            for c in 0..<channels { q[i * channels + c] = p[i * channels + c] * gain }
        }
    }

    private func endFrame(_ detector: VoiceActivityDetector) throws {
        let start = frameIndex * Int64(rate) / Int64(Self.framesPerSecond)
        if detector.decide(threshold: logOdds) { hangoverLeft = hangoverFrames + 1 }
        let speech = hangoverLeft > 0
        if hangoverLeft > 0 { hangoverLeft -= 1 }
        if speech && !active {
            segmentStart = start
            line.start(frame: start, rate: rate)
            try lines.write(line.bytes, count: line.count)
        } else if !speech && active {
            try endSegment(at: start)
        }
        active = speech
        frameIndex += 1
        frameEnd = end(ofFrame: frameIndex)
    }

    private func endSegment(at frame: Int64) throws {
        line.end(frame: frame, start: segmentStart, rate: rate)
        try lines.write(line.bytes, count: line.count)
        speechFrames += frame - segmentStart
        segments += 1
    }

    /// At the end: a segment still open ends with the stream.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        if active { try endSegment(at: frames); active = false }
        try lines.finish()
        return (0, true)
    }

    // MARK: live parameters and figures

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Keys.threshold.value(ifNamed: name, from: value) else { throw AUPipeError.usage("vad: \(name) is not live") }
        threshold = v
    }

    public static let readings = ["active", "probability", "segments", "speech-seconds"]
    public var readableFigures: [String] { Self.readings }

    public var speechSeconds: Double { Double(speechFrames) / Double(rate) }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.threshold.name: return formatNumber(threshold)
        case "active": return active ? "1" : "0"
        case "probability": return String(Double(detector?.probability ?? 0), decimals: 3)
        case "segments": return String(segments)
        case "speech-seconds": return String(speechSeconds, decimals: 3)
        default: return nil
        }
    }

    public var statsNote: String? {
        var s = "speech \(String(speechSeconds, decimals: 3)) s in \(counted(segments, "segment"))"
        if lines.isStream { s += "; \(lines.written) lines written, \(lines.dropped) dropped" }
        return s
    }

    public var statsFigures: [StatsFigure] {
        [StatsFigure("speechSeconds", (speechSeconds * 1000).rounded() / 1000), StatsFigure("segments", Double(segments))]
    }
}
