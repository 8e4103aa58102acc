import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `echo` (Core Audio's AUDelay, sox's `echo`, ffmpeg's `aecho`): repeating echoes.
///
/// Per channel, w[n] = x[n − D] + feedback · LP(w[n − D]) (LP a one-pole low-pass when
/// `lowpass=` is given, else nothing) and the output is (1 − mix)·x[n] + mix·w[n]. D is in
/// whole frames. `feedback` and `mix` are live and glide linearly over 10 ms; `delay` is live
/// and crossfades over 10 ms between the old and the new read points of the same history.
public final class EchoUnit: AudioUnit, LiveControllable, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "echo",
        summary: "repeating echoes with feedback (AUDelay, sox echo, ffmpeg aecho)",
        details: """
            Per channel, w[n] = x[n-D] + feedback * w[n-D], and the output is (1-mix) x[n] + mix w[n]: echoes every D (delay=, whole frames), each feedback times the one before. feedback= is below 1 (the echoes must decay). lowpass=HZ puts a one-pole low-pass in the feedback path, so each repeat is duller. The length is kept; extend=1 keeps the tail until the echoes have decayed by 120 dB (at most 60 s). delay=, feedback= and mix= are live: feedback and mix glide over 10 ms, a new delay crossfades over 10 ms from the old one (no click, no pitch change), up to the longest of delay= at the start and 1 s.
            """,
        parameters: [Keys.delay, Keys.feedback, Keys.mix, Keys.lowpass, Keys.extend],
        primary: Keys.delay.name,
        example: "aupipe echo 250ms feedback=0.4 mix=0.3 lowpass=3k < voice.wav > echoed.wav",
        exercise: UnitExercise(["37f", "feedback=0.5", "mix=0.4", "lowpass=2k"]),
        manual: manualText,
        make: { EchoUnit(delay: $0[Keys.delay], feedback: $0[Keys.feedback], mix: $0[Keys.mix], lowpass: $0[Keys.lowpass], extend: $0[Keys.extend]) })

    public private(set) var delay: StreamDuration
    public private(set) var feedback: Double
    public private(set) var mix: Double
    public let lowpass: Double?
    public let extend: Bool
    private var channels = 1
    private var rate = 48000
    /// Past input and past w, channel after channel, each `mask + 1` frames.
    private var xRing: UnsafeMutablePointer<Float>?
    private var wRing: UnsafeMutablePointer<Float>?
    private var mask = 0
    private var lowState: [Float] = []
    /// The one-pole low-pass's coefficient: y += alpha (x − y); 1 when there is none.
    private var alpha: Float = 1
    private var n = 0
    private var delayFrames = 1, nextDelayFrames = 1
    private var faded = 0, fadeFrames = 1
    private var fading = false
    private var feedbackGlide = GainGlide(factor: 0)
    private var mixGlide = GainGlide(factor: 0)
    /// Frames of tail still to write after the end (extend=1).
    private var tailLeft: Int?

    public init(delay: StreamDuration, feedback: Double, mix: Double, lowpass: Double?, extend: Bool) {
        self.delay = delay
        self.feedback = feedback
        self.mix = mix
        self.lowpass = lowpass
        self.extend = extend
        feedbackGlide = GainGlide(factor: Float(feedback))
        mixGlide = GainGlide(factor: Float(mix))
    }

    deinit {
        xRing?.deallocate()
        wRing?.deallocate()
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        rate = context.input.sampleRate
        channels = context.input.channels
        delayFrames = max(1, delay.frames(atRate: rate))
        nextDelayFrames = delayFrames
        if let lowpass {
            guard lowpass < Double(rate) / 2 else {
                throw AUPipeError.usage("echo: lowpass=\(formatNumber(lowpass)) Hz is not below half the rate (\(formatNumber(Double(rate) / 2)) Hz); give a lower frequency or leave it out")
            }
            alpha = Float(1 - exp(-2 * Double.pi * lowpass / Double(rate)))
        }
        let room = max(delayFrames, rate)
        var size = 1
        while size < room + 1 { size <<= 1 }
        mask = size - 1
        xRing = .allocate(capacity: size * channels)
        xRing!.initialize(repeating: 0, count: size * channels)
        wRing = .allocate(capacity: size * channels)
        wRing!.initialize(repeating: 0, count: size * channels)
        lowState = [Float](repeating: 0, count: channels)
        fadeFrames = GainGlide.frames(atRate: rate)
        feedbackGlide.glideFrames = fadeFrames
        mixGlide.glideFrames = fadeFrames
        return context.input
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        if let v = Keys.feedback.value(ifNamed: name, from: value) {
            feedback = v
            feedbackGlide.glide(to: Float(v))
        } else if let v = Keys.mix.value(ifNamed: name, from: value) {
            mix = v
            mixGlide.glide(to: Float(v))
        } else if let v = Keys.delay.value(ifNamed: name, from: value) {
            let frames = max(1, v.frames(atRate: rate))
            guard frames <= mask else {
                throw AUPipeError.usage("echo: delay=\(v) is \(frames) frames; while running at most \(mask) (the longest of delay= at the start and 1 s)")
            }
            delay = v
            if fading { delayFrames = nextDelayFrames }
            nextDelayFrames = frames
            faded = 0
            fading = true
        } else {
            throw AUPipeError.usage("echo: \(name) is not live")
        }
    }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case Keys.delay.name: delay.description
        case Keys.feedback.name: formatNumber(feedback)
        case Keys.mix.name: formatNumber(mix)
        default: nil
        }
    }

    public var statsNote: String? { "echo every \(nextDelayFrames) frames" }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        run(input, frames: frames, into: output)
        return frames
    }

    /// Runs `frames` frames (zeros when `input` is nil).
    private func run(_ input: UnsafePointer<Float>?, frames: Int, into output: UnsafeMutablePointer<Float>) {
        guard let xRing, let wRing else { return }
        let size = mask + 1
        for f in 0..<frames {
            let g = feedbackGlide.next(), m = mixGlide.next()
            var a: Float = 0
            if fading {
                faded += 1
                a = Float(faded) / Float(fadeFrames)
            }
            for c in 0..<channels {
                let xr = xRing + c * size, wr = wRing + c * size
                let x = input.map { $0[f * channels + c] } ?? 0
                var xt = xr[(n - delayFrames) & mask], wt = wr[(n - delayFrames) & mask]
                if fading {
                    xt += (xr[(n - nextDelayFrames) & mask] - xt) * a
                    wt += (wr[(n - nextDelayFrames) & mask] - wt) * a
                }
                if lowpass != nil {
                    lowState[c] += alpha * (wt - lowState[c])
                    wt = lowState[c]
                }
                let w = xt + g * wt
                xr[n & mask] = x
                wr[n & mask] = w
                output[f * channels + c] = (1 - m) * x + m * w
            }
            if fading, faded == fadeFrames {
                fading = false
                delayFrames = nextDelayFrames
            }
            n += 1
        }
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard extend else { return (0, true) }
        if tailLeft == nil {
            let echoes = feedback > 0 ? (log(Self.tailFloor) / log(feedback)).rounded(.up) : 0
            let tail = Double(nextDelayFrames) * (1 + echoes)
            tailLeft = Int(min(tail, Self.maxTailSeconds * Double(rate)))
        }
        let n = min(capacity, tailLeft!)
        run(nil, frames: n, into: output)
        tailLeft! -= n
        return (n, tailLeft == 0)
    }
}
