import AUPipeFormats
import AUPipeGraph

/// `fir IR`: convolution with an impulse response read from a file, with no added latency.
///
/// The response is read in `prepare`, resampled to the stream's rate if it has another one
/// (`ImpulseResponse.resampled`: gain kept), normalized and scaled by `gain=`, and applied by a
/// `PartitionedConvolver` per channel: a mono response on every channel, an N-channel
/// response channel by channel. Output frame n is written when input frame n is given (latency
/// 0), the same bits for any block size; the stream keeps its length unless `extend=1`, which
/// adds the response's tail (taps − 1 frames) at the end.
public final class FIRUnit: AudioUnit, StatsReporting {
    public static let descriptor = UnitDescriptor(
        name: "fir",
        summary: "convolve with an impulse response from a file (room correction, cabinets)",
        details: """
            Convolves each channel with an impulse response read from a CAF, WAV or AU file: a mono \
            response on every channel, or one channel of the response per channel (the counts must \
            agree). A response at another rate is resampled by the default engine and scaled by the \
            rate ratio, so its gain is kept. Partitioned FFT convolution with no added latency: the \
            first 64 taps in the time domain, then partitions growing to 8192 frames; the same \
            output for any block size, within -120 dB of an exact convolution. The length is kept \
            (the tail after the end is dropped) unless extend=1.
            """,
        parameters: [Keys.ir, Keys.gain, Keys.normalize, Keys.extend],
        primary: Keys.ir.name,
        example: "aupipe fir room-correction.wav < in.wav > out.wav",
        exercise: UnitExercise([UnitExercise.sideInput, "gain=-20"]),
        manual: manualText,
        make: { v in
            guard let path = v[Keys.ir] else {
                throw AUPipeError.usage("fir needs an impulse response file: fir PATH (a CAF, WAV or AU file)")
            }
            return FIRUnit(path: path, gainDB: v[Keys.gain], normalize: v[Keys.normalize], extend: v[Keys.extend])
        })

    public let path: String
    public let gainDB: Double
    public let normalize: Normalization
    public let extend: Bool
    private var convolvers: [PartitionedConvolver] = []
    private var channels = 1
    private var taps = 0
    private var responseChannels = 0
    private var responseRate = 0
    /// Per channel, `maxFrames` samples: deinterleaved input, then output.
    private var split: UnsafeMutablePointer<Float>?
    private var joined: UnsafeMutablePointer<Float>?
    private var zeros: UnsafeMutablePointer<Float>?
    private var maxFrames = 0
    /// Tail frames still to write in `drain` (extend=1).
    private var tailLeft = 0

    public init(path: String, gainDB: Double = 0, normalize: Normalization = .none, extend: Bool = false) {
        self.path = path
        self.gainDB = gainDB
        self.normalize = normalize
        self.extend = extend
    }

    deinit {
        split?.deallocate(); joined?.deallocate(); zeros?.deallocate()
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        maxFrames = context.maxFrames
        var response = try ImpulseResponse.read(path)
        responseChannels = response.channels.count
        responseRate = response.sampleRate
        guard responseChannels == 1 || responseChannels == channels else {
            throw AUPipeError.usage("fir: \(path) has \(counted(responseChannels, "channel")) and the stream \(counted(channels, "channel")); "
                                    + "give a mono response (used on every channel) or one with \(counted(channels, "channel"))")
        }
        do { response = try response.resampled(to: context.input.sampleRate) } catch let e as AUPipeError { throw e.prefixed("fir") }
        var factor = Float(Decibels.amplitude(gainDB))
        switch normalize {
        case .none: break
        case .peak:
            let peak = response.peak
            guard peak > 0 else { throw AUPipeError.data("fir: \(path) is silent; normalize=peak needs a non-zero tap") }
            factor /= peak
        case .energy:
            let energy = response.energy
            guard energy > 0 else { throw AUPipeError.data("fir: \(path) is silent; normalize=energy needs a non-zero tap") }
            factor /= Float(energy.squareRoot())
        }
        if factor != 1 { response = response.scaled(by: factor) }
        taps = response.length
        let plan = ConvolutionPlan(length: taps)
        var shared: [Int: RealFFT] = [:]
        let filters = response.channels.map { h in
            let filter = ConvolutionFilter(taps: h, plan: plan, transforms: shared)
            shared = filter.transformsBySize
            return filter
        }
        convolvers = (0..<channels).map { PartitionedConvolver(filters[filters.count == 1 ? 0 : $0]) }
        split = .allocate(capacity: maxFrames * channels)
        joined = .allocate(capacity: maxFrames * channels)
        zeros = .allocate(capacity: maxFrames * channels)
        zeros!.initialize(repeating: 0, count: maxFrames * channels)
        tailLeft = extend ? taps - 1 : 0
        return context.input
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        convolve(input, frames: frames, into: output)
        return frames
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        let n = min(tailLeft, capacity, maxFrames)
        guard n > 0, let zeros else { return (0, true) }
        convolve(zeros, frames: n, into: output)
        tailLeft -= n
        return (n, tailLeft == 0)
    }

    /// Deinterleaves, convolves each channel, interleaves.
    private func convolve(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) {
        guard let split, let joined else { return }
        let c = channels
        if c == 1 {
            convolvers[0].process(input, frames: frames, into: output)
            return
        }
        for ch in 0..<c {
            let x = split + ch * maxFrames
            for i in 0..<frames { x[i] = input[i * c + ch] }
            convolvers[ch].process(x, frames: frames, into: joined + ch * maxFrames)
        }
        for ch in 0..<c {
            let y = joined + ch * maxFrames
            for i in 0..<frames { output[i * c + ch] = y[i] }
        }
    }

    public var statsNote: String? {
        "fir: \(counted(taps, "tap")) at the stream's rate from \(path) (\(counted(responseChannels, "channel")), \(responseRate) Hz), latency 0"
    }
}
