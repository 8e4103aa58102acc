import CSpeexDSP

/// `resample`: sample-rate conversion with speexdsp's resampler, exact in length and alignment.
///
/// For N input frames at rate `in` it produces exactly round(N × out / in) frames (halves round
/// up), with zero group delay: the filter's input latency is skipped at the start
/// (`speex_resampler_skip_zeros`) and its tail flushed with zeros at the end, so input frame k
/// lands at output time k × out / in. Equal rates bypass the unit.
public final class ResampleUnit: AudioUnit, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "resample",
        summary: "change the sample rate (speexdsp resampler)",
        details: """
            Converts to rate= with speexdsp's polyphase resampler at quality= (0 fastest ... 10 best; 3 is speex's VoIP setting, 4 its default). The two rates may differ by a factor of up to 1024 either way.
            Length is exact: N input frames give round(N x out / in) output frames. Delay is zero: the filter latency is compensated at the start and its tail is flushed at the end of the stream, so an impulse lands on its ideal output sample. Equal rates pass the stream through untouched.
            """,
        parameters: [Keys.rate, Keys.quality],
        primary: Keys.rate.name,
        example: "aupipe resample 16000 quality=6 < in48k.wav > out16k.wav",
        make: { v in
            guard let rate = v[Keys.rate] else {
                throw AUPipeError.usage("resample: needs an output rate, e.g. 'resample 16000' or 'resample rate=44.1k'")
            }
            return ResampleUnit(rate: rate, quality: v[Keys.quality])
        })

    /// The largest ratio between input and output rate, either way.
    public static let maxRatio = 1024

    /// Output rate in Hz.
    public let rate: Int
    /// speexdsp quality, 0...10.
    public let quality: Int
    private var state: OpaquePointer?
    private var inRate = 0
    private var channels = 1
    private var framesIn: Int64 = 0
    private var framesOut: Int64 = 0
    private var latency = 0
    /// Silence fed through the filter to flush its tail.
    private var zeros: UnsafeMutablePointer<Float>?
    private var zeroFrames = 0

    public init(rate: Int, quality: Int) {
        self.rate = rate
        self.quality = quality
    }

    deinit {
        if let state { speex_resampler_destroy(state) }
        zeros?.deallocate()
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input, maxFrames = context.maxFrames
        inRate = input.sampleRate
        channels = input.channels
        var output = input
        output.sampleRate = rate
        guard inRate != rate else { return output }
        // speexdsp's filter grows with the ratio and its cost with the square of it.
        guard rate * Self.maxRatio >= inRate, inRate * Self.maxRatio >= rate else {
            throw AUPipeError.usage("resample: \(inRate) Hz to \(rate) Hz is a ratio beyond 1:\(Self.maxRatio); resample in two steps, or choose a rate between \((inRate + Self.maxRatio - 1) / Self.maxRatio) and \(min(768_000, inRate * Self.maxRatio)) Hz")
        }
        var err: Int32 = 0
        guard let st = speex_resampler_init(UInt32(channels), UInt32(inRate), UInt32(rate), Int32(quality), &err), err == 0 else {
            throw AUPipeError.usage("resample: speexdsp cannot convert \(inRate) Hz to \(rate) Hz at quality \(quality) (its error \(err))")
        }
        state = st
        speex_resampler_skip_zeros(st)
        latency = Int(speex_resampler_get_input_latency(st))
        zeroFrames = max(maxFrames, 64)
        zeros = .allocate(capacity: zeroFrames * channels)
        zeros!.initialize(repeating: 0, count: zeroFrames * channels)
        return output
    }

    public var isBypassed: Bool { inRate == rate }

    /// Total output for `frames` input frames: round(frames × out / in), halves up.
    public static func expectedOutputFrames(_ frames: Int64, from inRate: Int, to outRate: Int) -> Int64 {
        (frames * Int64(outRate) * 2 + Int64(inRate)) / (2 * Int64(inRate))
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int {
        Int((Int64(inputFrames) * Int64(rate) + Int64(inRate) - 1) / Int64(inRate)) + 4
    }

    public var statsNote: String? {
        "\(inRate) Hz -> \(rate) Hz, quality \(quality), filter latency \(latency) input frames (compensated)"
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let state else { return 0 }
        var inLen = UInt32(frames)
        var outLen = UInt32(maxOutputFrames(forInput: frames))
        speex_resampler_process_interleaved_float(state, input, &inLen, output, &outLen)
        guard inLen == UInt32(frames) else {
            throw AUPipeError(.software, "resample: speexdsp consumed \(inLen) of \(frames) frames")
        }
        framesIn += Int64(frames)
        framesOut += Int64(outLen)
        return Int(outLen)
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let state, let zeros else { return (0, true) }
        let expected = Self.expectedOutputFrames(framesIn, from: inRate, to: rate)
        let wanted = Int(min(Int64(capacity), expected - framesOut))
        guard wanted > 0 else { return (0, true) }
        var inLen = UInt32(zeroFrames)
        var outLen = UInt32(wanted)
        speex_resampler_process_interleaved_float(state, zeros, &inLen, output, &outLen)
        guard inLen > 0 || outLen > 0 else {
            throw AUPipeError(.software, "resample: speexdsp made no progress while flushing its tail")
        }
        framesOut += Int64(outLen)
        return (Int(outLen), framesOut >= expected)
    }
}
