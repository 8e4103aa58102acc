import AUPipeFormats
import AUPipeGraph

/// The units aupipe is built with: a new unit is one line here (any place), its name and its
/// descriptor, listed by `aupipe units`, the manual and the completions in the order of their
/// names.
///
/// The descriptor comes in a closure, so that a run finds its units by name without building
/// every descriptor (their typed parameters and manuals: ~9 M instructions, 1-2 ms, at the
/// start of every run with a chain). BuiltInUnitsTests checks each name against its descriptor.
public struct BuiltInUnits: UnitProvider {
    public init() {}

    public var descriptors: [UnitDescriptor] {
        Self.all
    }

    public func descriptor(named name: String) -> UnitDescriptor? {
        Self.byName[name]?()
    }

    private static let all: [UnitDescriptor] = lines.map { $0.descriptor() }.sorted { $0.name < $1.name }

    private static let byName = Dictionary(lines.map { ($0.name, $0.descriptor) }, uniquingKeysWith: { first, _ in first })

    package static let lines: [(name: String, descriptor: @Sendable () -> UnitDescriptor)] = [
            ("compressor", { CompressorUnit.descriptor }),
            ("convert", { ConvertUnit.descriptor }),
            ("delay", { DelayUnit.descriptor }),
            ("dither", { DitherUnit.descriptor }),
            ("aec", { EchoCancellerUnit.descriptor }),
            ("echo", { EchoUnit.descriptor }),
            ("allpass", { FilterUnit.allpassDescriptor }),
            ("bandpass", { FilterUnit.bandpassDescriptor }),
            ("bandreject", { FilterUnit.bandrejectDescriptor }),
            ("bass", { FilterUnit.bassDescriptor }),
            ("biquad", { FilterUnit.biquadDescriptor }),
            ("eq", { FilterUnit.eqDescriptor }),
            ("equalizer", { FilterUnit.equalizerDescriptor }),
            ("highpass", { FilterUnit.highpassDescriptor }),
            ("highshelf", { FilterUnit.highshelfDescriptor }),
            ("lowpass", { FilterUnit.lowpassDescriptor }),
            ("lowshelf", { FilterUnit.lowshelfDescriptor }),
            ("notch", { FilterUnit.notchDescriptor }),
            ("treble", { FilterUnit.trebleDescriptor }),
            ("fir", { FIRUnit.descriptor }),
            ("gain", { GainUnit.descriptor }),
            ("gate", { GateUnit.descriptor }),
            ("limiter", { LimiterUnit.descriptor }),
            ("loudnorm", { LoudnormUnit.descriptor }),
            ("meter", { MeterUnit.descriptor }),
            ("mix", { MixUnit.descriptor }),
            ("mute", { MuteUnit.descriptor }),
            ("silence", { SilenceUnit.descriptor }),
            ("agc", { PreprocessUnit.agcDescriptor }),
            ("denoise", { PreprocessUnit.denoiseDescriptor }),
            ("remix", { RemixUnit.descriptor }),
            ("resample", { ResampleUnit.descriptor }),
            ("reverb", { ReverbUnit.descriptor }),
            ("spectrogram", { SpectrogramUnit.descriptor }),
            ("tee", { TeeUnit.descriptor }),
            ("vad", { VoiceActivityUnit.descriptor }),
        ]
}
