import AUPipeFormats
import AUPipeGraph

/// A change of channel count and sample rate from one stream format to another, as the chain
/// stages that make it: the one place where `--out-format`, a `mix` bus and `aec`'s reference
/// get their conversions.
///
/// Channels first, then rate (the resampler then runs on the fewer channels of a downmix, and
/// outputs stay byte-identical with earlier versions). 1 to N channels copies, N to 1 averages
/// (`convert channels=`); any other change of channel count is refused with the requester's
/// wording, as only a channel map could say what goes where. The rate is converted by
/// `resample` with the run's default (`ResamplerSettings.runDefault`: exact length, zero delay). The encoding is
/// not converted here: that is the encoder's business.
public struct FormatConversion {
    public let from: StreamFormat
    /// The channel count to reach (1...64), or nil to keep it.
    public let channels: Int?
    /// The rate to reach in Hz (1...768000), or nil to keep it.
    public let sampleRate: Int?
    public let requester: Requester
    /// What converts the rate; nil: the run's default (the low-latency one in real time).
    public var resampler: ResamplerSettings? = nil

    /// From `from` to `to`'s channel count and rate.
    public init(from: StreamFormat, to: StreamFormat, for requester: Requester) {
        self.init(from: from, channels: to.channels, sampleRate: to.sampleRate, for: requester)
    }

    /// From `from` to `channels` and `sampleRate`, each kept when nil.
    public init(from: StreamFormat, channels: Int?, sampleRate: Int?, for requester: Requester) {
        self.from = from
        self.channels = channels
        self.sampleRate = sampleRate
        self.requester = requester
    }

    /// The format the stages produce (the encoding is `from`'s).
    public var to: StreamFormat {
        var f = from
        f.channels = channels ?? from.channels
        f.sampleRate = sampleRate ?? from.sampleRate
        return f
    }

    /// The stages, in order (none when there is nothing to do, unless the requester lists what
    /// it asked for). Throws the requester's refusal for a channel change other than 1 to N
    /// and N to 1.
    public func stages() throws -> [ChainStage] {
        var stages: [ChainStage] = []
        if let channels, channels != from.channels || requester.listsEveryStage {
            guard channels == from.channels || from.channels == 1 || channels == 1 else {
                throw AUPipeError(.usage, requester.refusal(from.channels, channels), cause: .channelChoice(from: from.channels, to: channels))
            }
            stages.append(stage("convert", try ConvertUnit(format: nil, channels: channels, map: nil)))
        }
        if let sampleRate, sampleRate != from.sampleRate || requester.listsEveryStage {
            stages.append(stage("resample", ResampleUnit(rate: sampleRate, settings: resampler)))
        }
        return stages
    }

    private func stage(_ name: String, _ unit: any AudioUnit) -> ChainStage {
        ChainStage(requester.label.map { "\(name) (\($0))" } ?? name, unit, origin: requester.origin)
    }
}

extension FormatConversion {
    /// Who asks for a conversion: it names the stages, gives their origin, and words a refusal.
    public struct Requester {
        /// Where the stages come from, for the wording of errors they find when prepared.
        public let origin: StageOrigin
        /// Put after each stage's name in `--stats` (`convert (--out-format)`); nil: plain names.
        public let label: String?
        /// Whether a stage is made for each part asked for even when it changes nothing: it is
        /// then bypassed, and `--stats` shows it was considered.
        public let listsEveryStage: Bool
        /// The one-line message refusing a change of `from` channels into `to` that is neither
        /// 1 to N nor N to 1.
        public let refusal: (_ from: Int, _ to: Int) -> String

        public init(origin: StageOrigin, label: String?, listsEveryStage: Bool, refusal: @escaping (_ from: Int, _ to: Int) -> String) {
            self.origin = origin
            self.label = label
            self.listsEveryStage = listsEveryStage
            self.refusal = refusal
        }

        /// An option of the command line that converts the output (`--out-format`).
        public static func option(_ option: String) -> Requester {
            Requester(origin: .option(option), label: option, listsEveryStage: true) { from, to in
                Self.optionRefusal(option, from: from, to: to)
            }
        }

        /// The wording of `option`'s refusal (also `convert`'s, when an option made it).
        package static func optionRefusal(_ option: String, from: Int, to: Int) -> String {
            "\(option): cannot choose how to turn \(counted(from, "channel")) into \(to) (only 1 to N and N to 1 are automatic); put 'convert map=...' in the chain instead"
        }

        /// A `mix` bus converted to the stream's format; `name` is how messages call it
        /// (`mix: input 2 (bed.wav)`), `path` what it reads.
        public static func mixBus(_ name: String, path: String) -> Requester {
            sideInput { from, to in
                "\(name): has \(from) channels and the stream \(to); mix converts 1 to N and N to 1 only: convert the input first (e.g. <(aupipe -i \(path) convert map=...))"
            }
        }

        /// Another side input converted to the stream's format (`aec`'s reference), with its
        /// own refusal.
        public static func sideInput(refusal: @escaping (_ from: Int, _ to: Int) -> String) -> Requester {
            Requester(origin: .chain, label: nil, listsEveryStage: false, refusal: refusal)
        }
    }
}
