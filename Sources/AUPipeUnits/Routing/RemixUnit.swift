import AUPipeFormats
import AUPipeGraph

/// `remix`: output channels as gain-weighted sums of input channels, in sox's grammar
/// (`remix 2 1`, `remix 1,2`, `remix 1v0.5,2v0.5`, `remix -`, `remix 1 0`) or from a published
/// matrix (`remix preset=5.1-to-stereo`).
///
/// The matrix is fixed when the unit is prepared; `gain=` (dB) is live and glides over 10 ms
/// (`GainGlide`). Sums beyond full scale are clipped (or kept, `overload=keep`) and counted in
/// `--stats`. Per frame the work is one multiply-add per non-zero factor; nothing is allocated
/// after `prepare`.
public final class RemixUnit: AudioUnit, LiveControllable, StatsReporting, ChannelSelecting {
    public static let descriptor = UnitDescriptor(
        name: "remix",
        summary: "mix input channels into output channels (sox's grammar, or a preset)",
        details: """
            One out-spec per output channel, as sox's remix takes them: input channels from 1 joined by commas, ranges (1-3, 3-, -2; '-' alone is every channel), each with an optional volume: vX a linear factor (v-1 inverts), pX dB, iX dB inverted; 0 alone is a silent channel. An output mixed from n channels scales each by 1/n unless the out-spec gives a volume; scaling=always (sox's -a) keeps 1/n beside volumes, manual (-m) turns it off, power (-p) makes it 1/sqrt(n); sox's flags work as first out-spec after '--' (remix -- -m 1,2). So 'remix 2 1' swaps a stereo pair, 'remix 1,2' or 'remix -' mixes to mono at 0.5 each, 'remix scaling=manual 1,2' sums.
            preset= instead: 5.1-to-stereo (ITU-R BS.775-3 Table 2: L + 0.7071 C + 0.7071 Ls, LFE omitted), 7.1-to-stereo (back pair folded into the side pair at -3 dB as libswresample does, then BS.775: L + 0.7071 C + 0.7071 Ls + 0.5 Lb), stereo-to-mono (0.5 each), ms-encode (M = (L+R)/2, S = (L-R)/2), ms-decode (L = M+S, R = M-S). Channels by where the header (WAV mask, CAF chan) places them, else in WAV order (5.1: L R C LFE Ls Rs; 7.1: L R C LFE Lb Rb Ls Rs). The presets are not normalised: overload= clips (default) or keeps what passes full scale, counted in --stats either way. gain= is live and glides over 10 ms.
            """,
        parameters: [Keys.out, Keys.scaling, Keys.preset, Keys.overload, Keys.gain],
        primary: Keys.out.name,
        example: "aupipe remix preset=5.1-to-stereo < film.wav > stereo.wav",
        exercise: UnitExercise(["2v0.8,1v0.4", "1i3,2", "0"]),
        manual: manualText,
        make: { try RemixUnit(specs: $0[Keys.out], scaling: $0[Keys.scaling], preset: $0[Keys.preset], overload: $0[Keys.overload], gain: $0[Keys.gain]) })

    private let specs: [RemixOutSpec]
    private let scaling: RemixScaling
    private let preset: RemixPreset?
    private let overload: Overload
    /// Gain on every output in dB: the value set last.
    public private(set) var gain: Double
    private var glide: GainGlide
    /// The matrix, one row per output channel (after `prepare`).
    public private(set) var matrix: [[Double]] = []
    /// The non-zero factors as the audio loop reads them.
    private var table: RemixTable?
    private var inChannels = 0
    private var outChannels = 0
    private var beyondFullScale = 0
    /// After `prepare`: the input channel each output copies, when every row is one input at
    /// factor 1 (or silence) and nothing can clip (see `channelSelection`).
    public private(set) var channelSelection: [Int?]?

    public init(specs words: [String], scaling: RemixScaling, preset: RemixPreset?, overload: Overload, gain: Double) throws {
        var words = words
        var scaling = scaling
        if let first = words.first, let flag = RemixScaling(flag: first) {
            scaling = flag
            words.removeFirst()
        }
        if let flag = words.first(where: { ["-a", "-m", "-p"].contains($0) }) {
            throw AUPipeError.usage("remix: \(flag) must come first, before the out-specs (as in sox: remix \(flag) 1,2 3)")
        }
        if preset != nil, !words.isEmpty {
            throw AUPipeError.usage("remix: give out-specs or preset=, not both")
        }
        if preset == nil, words.isEmpty {
            throw AUPipeError.usage("remix: nothing to do; give one out-spec per output channel (remix 2 1) or preset= (\(RemixPreset.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        specs = words.compactMap(RemixOutSpec.init)
        self.scaling = scaling
        self.preset = preset
        self.overload = overload
        self.gain = gain
        glide = GainGlide(factor: GainGlide.factor(dB: gain))
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        inChannels = context.input.channels
        if let preset {
            guard inChannels == preset.inputChannels else {
                throw AUPipeError.usage("remix: preset=\(preset.rawValue) needs \(preset.inputName) but the stream has \(counted(inChannels, "channel")); convert or remix it first")
            }
            // Columns follow where the channels play when the header says (else the WAV order).
            let columns = preset.columns(in: context.layout) ?? Array(0..<inChannels)
            matrix = preset.matrix.map { row in
                var placed = [Double](repeating: 0, count: inChannels)
                for (j, f) in row.enumerated() { placed[columns[j]] = f }
                return placed
            }
        } else {
            matrix = try specs.map { try $0.row(inputChannels: inChannels, scaling: scaling) }
        }
        guard StreamFormat.channelRange.contains(matrix.count) else {
            throw AUPipeError.usage("remix: \(counted(matrix.count, "output channel")); at most \(StreamFormat.channelRange.upperBound)")
        }
        outChannels = matrix.count
        table = RemixTable(matrix: matrix)
        channelSelection = Self.selection(matrix, gain: glide.factor, canClip: overload == .clip && !context.input.encoding.isInteger)
        glide.glideFrames = GainGlide.frames(atRate: context.input.sampleRate)
        var output = context.input
        output.channels = outChannels
        return output
    }

    /// A matrix whose rows each take one input at factor exactly 1 (or none), at a gain of
    /// exactly 1, is a channel selection: the float path writes each input sample unchanged
    /// (a sample decoded from an integer is within [-1, 1], so it cannot clip; a float input can
    /// go beyond, and `overload=clip` would change it).
    static func selection(_ matrix: [[Double]], gain: Float, canClip: Bool) -> [Int?]? {
        guard gain == 1, !canClip else { return nil }
        var selection: [Int?] = []
        for row in matrix {
            let taken = row.indices.filter { row[$0] != 0 }
            guard taken.count <= 1, taken.allSatisfy({ row[$0] == 1 }) else { return nil }
            selection.append(taken.first)
        }
        return selection
    }

    /// A selection of channels keeps the input's precision (so 16 bits stay undithered).
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision {
        channelSelection == nil ? .float : input
    }

    public func setParameter(_ name: String, to value: ParameterValue) throws {
        guard let v = Keys.gain.value(ifNamed: name, from: value) else { throw AUPipeError.usage("remix: \(name) is not live") }
        gain = v
        glide.glide(to: GainGlide.factor(dB: v))
    }

    public func parameterValue(_ name: String) -> String? { name == Keys.gain.name ? formatNumber(gain) : nil }

    /// Samples clipped (`overload=clip`); with `keep` none are, and `statsNote` counts those beyond full scale.
    public var clippedSamples: Int { overload == .clip ? beyondFullScale : 0 }

    public var statsFigures: [StatsFigure] { [StatsFigure("beyondFullScale", Double(beyondFullScale))] }

    public var statsNote: String? {
        guard beyondFullScale > 0 else { return nil }
        return "\(counted(beyondFullScale, "sample")) beyond full scale " + (overload == .clip ? "clipped" : "kept")
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let inputs = table?.inputs, let factors = table?.factors, let starts = table?.starts else { return 0 }
        let clip = overload == .clip
        var beyond = 0
        let outs = outChannels, ins = inChannels
        var x = input, y = output
        for _ in 0..<frames {
            // Outside a glide the factor is constant, and 1 leaves the sums as they are.
            let g = glide.isGliding ? glide.next() : glide.factor
            for o in 0..<outs {
                // The first term starts the sum, so that one input at factor 1 is copied as it is
                // (-0 stays -0, as the byte path of a channel selection keeps it).
                var e = starts[o]
                let end = starts[o + 1]
                var sum: Float = e < end ? x[inputs[e]] * factors[e] : 0
                e += 1
                while e < end {
                    sum += x[inputs[e]] * factors[e]
                    e += 1
                }
                if g != 1 { sum *= g }
                if sum > 1 || sum < -1 {
                    beyond += 1
                    if clip { sum = sum > 1 ? 1 : -1 }
                }
                y[o] = sum
            }
            x += ins
            y += outs
        }
        beyondFullScale += beyond
        return frames
    }
}

/// `remix`'s matrix as the audio loop reads it: the non-zero factors row by row, with their
/// input channels; row o is `starts[o]..<starts[o + 1]`. Allocated once, in `prepare`.
package final class RemixTable {
    package let inputs: UnsafeMutablePointer<Int>
    package let factors: UnsafeMutablePointer<Float>
    package let starts: UnsafeMutablePointer<Int>

    package init(matrix: [[Double]]) {
        let entries = matrix.flatMap { row in row.enumerated().filter { $0.element != 0 } }
        inputs = .allocate(capacity: max(1, entries.count))
        factors = .allocate(capacity: max(1, entries.count))
        starts = .allocate(capacity: matrix.count + 1)
        var k = 0
        for (o, row) in matrix.enumerated() {
            starts[o] = k
            for (c, f) in row.enumerated() where f != 0 {
                inputs[k] = c
                factors[k] = Float(f)
                k += 1
            }
        }
        starts[matrix.count] = k
    }

    deinit {
        inputs.deallocate()
        factors.deallocate()
        starts.deallocate()
    }
}
