import AUPipeFormats
import AUPipeGraph

/// `convert`: the AUConverter. Changes the sample encoding, the channel count, or the channel order.
///
/// Channels: with `map`, output channel i takes input channel map[i] (`1,0` swaps, `0,0`
/// duplicates the left, `1` picks the right). With `channels` alone: 1 → N copies the mono
/// channel into every output channel; N → 1 takes the mean of the N channels; N → N keeps them.
/// Other counts need a map.
///
/// Encoding: `format` sets the stream's encoding from here on. The samples are quantized to that
/// encoding at this point (round to nearest, ties to even; clipped and counted), so later units
/// see what a file of that format would hold; the encoder at the end writes it. As the last
/// stage, with the output in `format` (`formatIsOutputs`), the encoder's rounding is all there
/// is to do.
public final class ConvertUnit: AudioUnit, StatsReporting, EncodingChooser, ChannelSelecting {
    /// A channel change `channels=` alone cannot decide (2 to 6, say).
    package struct ChannelChoice: StageError {
        package let from: Int, to: Int

        package func error(stage: String, origin: StageOrigin) -> AUPipeError {
            let text: String
            if case .option(let option) = origin {
                text = FormatConversion.Requester.optionRefusal(option, from: from, to: to)
            } else {
                text = "\(stage): cannot choose how to turn \(counted(from, "channel")) into \(to); give map= (output channel i takes input channel map[i]), e.g. map=\((0..<to).map { String($0 % from) }.joined(separator: ","))"
            }
            return AUPipeError(.usage, text, cause: .channelChoice(from: from, to: to))
        }
    }

    public static let descriptor = UnitDescriptor(
        name: "convert",
        summary: "change sample format, channel count or channel order",
        details: """
            format= sets the encoding from this point on; samples are quantized to it here (round to nearest, ties to even, clipped and counted), and the output is written in it unless --out-format says otherwise. As the last unit with no channel change, it leaves the rounding to the output's encoder (the same rounding; shown as bypassed), so alone it converts exactly as --out-format does (u32le to s32le bit for bit).
            map= lists, for each output channel, the input channel it takes (from 0): 1,0 swaps a stereo pair, 0,0 copies the left into both, 1 picks the right.
            channels= alone: 1 to N copies the mono channel to all N; N to 1 averages the N channels (sum / N, no gain jump); other changes need map=.
            """,
        parameters: [Keys.format, Keys.channels, Keys.map],
        primary: Keys.format.name,
        example: "aupipe convert format=s16le channels=1 < stereo.wav > mono.wav",
        exercise: UnitExercise(["format=s16le", "channels=1"]),
        manual: manualText,
        make: { try ConvertUnit(format: $0[Keys.format], channels: $0[Keys.channels], map: $0[Keys.map]) })

    private enum Mix { case identity, map([Int]), spreadMono, average }

    public let format: SampleEncoding?
    public let channels: Int?
    public let map: [Int]?
    private var mix = Mix.identity
    private var inChannels = 1
    private var outChannels = 1
    private var codec: SampleCodec?
    private var scratch: UnsafeMutableRawPointer?
    private var clipped = 0
    /// Set by the pipeline when this is the last stage and `format` is the output's encoding:
    /// the output's encoder then rounds (and counts clips) exactly as this unit would, so a
    /// convert that changes no channels has nothing left to do, and an otherwise empty chain
    /// copies integers exactly (u32le to s32le by a sign flip) instead of through float.
    private var formatIsOutputs = false
    /// The dither before quantizing to an integer `format` in the middle of the chain, when the
    /// run's `--dither` and the input's precision call for it (`EdgeDither`).
    private var ditherer: Ditherer?

    public init(format: SampleEncoding?, channels: Int?, map: [Int]?) throws {
        if let map, let channels, map.count != channels {
            throw AUPipeError.usage("convert: map= lists \(counted(map.count, "channel")) but channels=\(channels); give one of them, or make them agree")
        }
        if format == nil, channels == nil, map == nil {
            throw AUPipeError.usage("convert: nothing to do; give format=, channels= or map=")
        }
        self.format = format
        self.channels = channels
        self.map = map
    }

    deinit { scratch?.deallocate() }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input, maxFrames = context.maxFrames
        inChannels = input.channels
        if let map {
            if let bad = map.first(where: { $0 >= input.channels }) {
                throw AUPipeError.usage("convert: map= names input channel \(bad) but the stream has \(input.channels) (channels count from 0)")
            }
            outChannels = map.count
            mix = map == Array(0..<input.channels) ? .identity : .map(map)
        } else if let channels {
            outChannels = channels
            if channels == input.channels { mix = .identity }
            else if input.channels == 1 { mix = .spreadMono }
            else if channels == 1 { mix = .average }
            else { throw ChannelChoice(from: input.channels, to: channels) }
        } else {
            outChannels = input.channels
        }
        var output = input
        output.channels = outChannels
        if let format {
            output.encoding = format
            if !format.isFloat {
                codec = SampleCodec(format)
                scratch = .allocate(byteCount: max(1, maxFrames * outChannels * format.bytesPerSample), alignment: 16)
                if !formatIsOutputs {
                    ditherer = EdgeDither.ditherer(context.dither, precision: mixPrecision(context.precision), format: output)
                }
            }
        }
        return output
    }

    public var isBypassed: Bool {
        if case .identity = mix { return codec == nil || formatIsOutputs }
        return false
    }

    public var clippedSamples: Int { clipped }

    /// Channels copied or picked keep the precision; a mean of several does not.
    private func mixPrecision(_ input: SignalPrecision) -> SignalPrecision {
        if case .average = mix, inChannels > 1 { return .float }
        return input
    }

    /// Quantized here: at most the encoding's precision.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision {
        let mixed = mixPrecision(input)
        guard let format, codec != nil, !formatIsOutputs else { return mixed }
        return min(mixed, SignalPrecision(format))
    }

    public var chosenEncoding: SampleEncoding? { format }

    /// A map, a mono channel spread or the identity, with no quantizing here, copies samples.
    public var channelSelection: [Int?]? {
        guard codec == nil || formatIsOutputs else { return nil }
        switch mix {
        case .identity: return Array(0..<inChannels)
        case .map(let m): return m
        case .spreadMono: return Array(repeating: 0, count: outChannels)
        case .average: return inChannels == 1 ? [0] : nil
        }
    }

    public func leaveRoundingToOutput() { formatIsOutputs = true }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let ic = inChannels, oc = outChannels
        switch mix {
        case .identity:
            output.update(from: input, count: frames * ic)
        case .map(let m):
            m.withUnsafeBufferPointer { m in
                for f in 0..<frames {
                    for c in 0..<oc { output[f &* oc &+ c] = input[f &* ic &+ m[c]] }
                }
            }
        case .spreadMono:
            for f in 0..<frames {
                for c in 0..<oc { output[f &* oc &+ c] = input[f] }
            }
        case .average:
            let scale = 1 / Float(ic)
            for f in 0..<frames {
                var sum: Float = 0
                for c in 0..<ic { sum += input[f &* ic &+ c] }
                output[f] = sum * scale
            }
        }
        if let codec, let scratch {
            ditherer?.process(output, frames: frames, into: output)
            clipped += codec.requantize(output, count: frames * oc, scratch: scratch)
        }
        return frames
    }
}
