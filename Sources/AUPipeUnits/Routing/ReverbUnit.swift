import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `reverb` (Core Audio's AUReverb2, sox's `reverb`): Freeverb's algorithm with sox's
/// parameters and mappings (`FreeverbBank`, `ReverbUnit.Keys`).
///
/// Mono stays mono unless `stereo=1`; a stereo stream feeds the mean of its channels to two
/// banks (left, and right detuned by the stereo depth), as sox's two per-channel reverbs add up
/// to; at stereo depth 0, or with more channels, each channel gets a bank of its own, as in sox. The output is the dry signal (unless
/// `wet-only=1`) plus 0.015 × 10^(wet-gain/20) × the bank's output. `wet-gain` is live and
/// glides over 10 ms. Deterministic: nothing is random.
public final class ReverbUnit: AudioUnit, LiveControllable, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "reverb",
        summary: "algorithmic reverberation (Freeverb, with sox's parameters)",
        details: """
            Freeverb as sox's reverb builds it: 8 damped feedback combs (25-37 ms at room-scale 100 %) and 4 allpasses, with sox's parameters and defaults. The low-frequency RT60 (60 dB decay) is 3 M / (44100 log10(1/g)) + 0.126 s: g = 1 - exp((R - b)/(a b)), the combs' feedback, from reverberance R (a = -1/ln 0.7, b = 100/(a ln 0.02 + 1); 0.3 at 0 %, 0.98 at 100 %), M = 1378 x (0.1 + 0.9 room-scale/100) frames, the mean comb length at 44.1 kHz; 0.126 s is the longest allpass's own decay (556 frames, gain 0.5). At room-scale 100 %: RT60 0.3 s at reverberance 0 %, 0.76 s at 25 %, 1.84 s at 50 %, 4.45 s at 75 %, 10.8 s at 100 %; --stats prints it. hf-damping shortens it at high frequencies.
            Mono stays mono unless stereo=1; stereo in feeds both channels' mean to a left and a right bank (the right one's delays detuned by stereo-depth), as sox's reverb adds up to; at stereo-depth 0, or with more channels, each channel reverberates on its own. Output: dry (unless wet-only=1) + 0.015 x 10^(wet-gain/20) x wet. The length is kept; extend=1 keeps the tail until -120 dB (at most 60 s). wet-gain is live and glides over 10 ms.
            """,
        parameters: [Keys.reverberance, Keys.hfDamping, Keys.roomScale, Keys.stereoDepth, Keys.preDelay, Keys.wetGain, Keys.wetOnly, Keys.stereo, Keys.extend],
        primary: Keys.reverberance.name,
        example: "aupipe reverb 40 pre-delay=20ms < dry.wav > room.wav",
        exercise: UnitExercise(["60", "pre-delay=3ms", "room-scale=30"]),
        manual: manualText,
        make: { values in
            ReverbUnit(reverberance: values[Keys.reverberance], hfDamping: values[Keys.hfDamping], roomScale: values[Keys.roomScale],
                       stereoDepth: values[Keys.stereoDepth], preDelay: values[Keys.preDelay], wetGain: values[Keys.wetGain],
                       wetOnly: values[Keys.wetOnly], stereo: values[Keys.stereo], extend: values[Keys.extend])
        })

    public let reverberance: Double, hfDamping: Double, roomScale: Double, stereoDepth: Double
    public let preDelay: StreamDuration
    public private(set) var wetGain: Double
    public let wetOnly: Bool, stereo: Bool, extend: Bool
    private var glide: GainGlide
    private var inChannels = 1, outChannels = 1
    /// Whether the banks share one input, the mean of the channels (mono, or stereo out).
    private var shared = true
    private var banks: [FreeverbBank] = []
    /// The pre-delay of each bank input: a ring of `preFrames + 1` frames per input.
    private var preRing: [Float] = []
    private var preFrames = 0, prePosition = 0
    private var feedback: Float = 0, damping: Float = 0
    private var rate = 48000
    private var tailLeft: Int?

    public init(reverberance: Double, hfDamping: Double, roomScale: Double, stereoDepth: Double, preDelay: StreamDuration,
                wetGain: Double, wetOnly: Bool, stereo: Bool, extend: Bool) {
        self.reverberance = reverberance
        self.hfDamping = hfDamping
        self.roomScale = roomScale
        self.stereoDepth = stereoDepth
        self.preDelay = preDelay
        self.wetGain = wetGain
        self.wetOnly = wetOnly
        self.stereo = stereo
        self.extend = extend
        glide = GainGlide(factor: Self.wetFactor(wetGain))
    }

    /// The factor on the banks' output for a wet gain in dB.
    private static func wetFactor(_ dB: Double) -> Float { Float(wetScale * pow(10, dB / 20)) }

    /// The low-frequency RT60 of these settings, in seconds.
    public var rt60: Double { Self.rt60(reverberance: reverberance, roomScale: roomScale) }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        rate = context.input.sampleRate
        inChannels = context.input.channels
        if stereo, inChannels > 2 {
            throw AUPipeError.usage("reverb: stereo=1 makes stereo of a mono stream, but this one has \(counted(inChannels, "channel")); leave stereo= out")
        }
        outChannels = stereo ? 2 : inChannels
        // sox: a bank pair fed by the channels' mean when there is a stereo depth to give; else
        // each channel on its own.
        shared = inChannels == 1 || (inChannels == 2 && stereoDepth > 0)
        let scale = Self.combScale(roomScale: roomScale), depth = stereoDepth / 100
        banks = (0..<outChannels).map { c in
            FreeverbBank(rate: rate, scale: scale, offset: shared && c == 1 ? depth : 0)
        }
        feedback = Float(Self.feedback(reverberance: reverberance))
        damping = Float(Self.damping(hfDamping: hfDamping))
        preFrames = preDelay.frames(atRate: rate)
        preRing = [Float](repeating: 0, count: (preFrames + 1) * (shared ? 1 : inChannels))
        glide.glideFrames = GainGlide.frames(atRate: rate)
        var output = context.input
        output.channels = outChannels
        return output
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Keys.wetGain.value(ifNamed: name, from: value) else { throw AUPipeError.usage("reverb: \(name) is not live") }
        wetGain = v
        glide.glide(to: Self.wetFactor(v))
    }

    public func parameterValue(_ name: String) -> String? { name == Keys.wetGain.name ? formatNumber(wetGain) : nil }

    public var statsNote: String? { "RT60 \(formatNumber((rt60 * 100).rounded() / 100)) s at low frequencies" }

    public var statsFigures: [StatsFigure] { [StatsFigure("rt60Seconds", rt60)] }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        run(input, frames: frames, into: output)
        return frames
    }

    /// Runs `frames` frames (zeros when `input` is nil).
    private func run(_ input: UnsafePointer<Float>?, frames: Int, into output: UnsafeMutablePointer<Float>) {
        let dryGain: Float = wetOnly ? 0 : 1
        let ring = preFrames + 1
        preRing.withUnsafeMutableBufferPointer { pre in
            for f in 0..<frames {
                let g = glide.next()
                let x = input.map { $0 + f * inChannels }
                let y = output + f * outChannels
                let read = (prePosition + 1) % ring
                if shared {
                    var sum: Float = 0
                    if let x { for c in 0..<inChannels { sum += x[c] } }
                    pre[prePosition] = inChannels == 1 ? sum : sum / Float(inChannels)
                    let u = pre[read]
                    for c in 0..<outChannels {
                        let dry = x.map { $0[inChannels == 1 ? 0 : c] } ?? 0
                        y[c] = dryGain * dry + g * banks[c].process(u, feedback: feedback, damping: damping)
                    }
                } else {
                    for c in 0..<inChannels {
                        let dry = x?[c] ?? 0
                        pre[c * ring + prePosition] = dry
                        y[c] = dryGain * dry + g * banks[c].process(pre[c * ring + read], feedback: feedback, damping: damping)
                    }
                }
                prePosition = read
            }
        }
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard extend else { return (0, true) }
        if tailLeft == nil {
            let longest = Double(banks.map { $0.combSizes.max() ?? 0 }.max() ?? 0)
            let decay = longest * log(EchoUnit.tailFloor) / log(Double(feedback))
            tailLeft = Int(min(Double(preFrames) + decay.rounded(.up), EchoUnit.maxTailSeconds * Double(rate)))
        }
        let n = min(capacity, tailLeft!)
        run(nil, frames: n, into: output)
        tailLeft! -= n
        return (n, tailLeft == 0)
    }
}
