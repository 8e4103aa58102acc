import AUPipeFormats
import AUPipeGraph

/// The units aupipe is built with: a new unit is one line here (any place), listed by
/// `aupipe units`, the manual and the completions in the order of their names.
public struct BuiltInUnits: UnitProvider {
    public init() {}

    public var descriptors: [UnitDescriptor] {
        Self.all
    }

    private static let all: [UnitDescriptor] = [
            CompressorUnit.descriptor,
            ConvertUnit.descriptor,
            DelayUnit.descriptor,
            DitherUnit.descriptor,
            EchoCancellerUnit.descriptor,
            EchoUnit.descriptor,
            FilterUnit.allpassDescriptor,
            FilterUnit.bandpassDescriptor,
            FilterUnit.bandrejectDescriptor,
            FilterUnit.bassDescriptor,
            FilterUnit.biquadDescriptor,
            FilterUnit.eqDescriptor,
            FilterUnit.equalizerDescriptor,
            FilterUnit.highpassDescriptor,
            FilterUnit.highshelfDescriptor,
            FilterUnit.lowpassDescriptor,
            FilterUnit.lowshelfDescriptor,
            FilterUnit.notchDescriptor,
            FilterUnit.trebleDescriptor,
            FIRUnit.descriptor,
            GainUnit.descriptor,
            GateUnit.descriptor,
            LimiterUnit.descriptor,
            LoudnormUnit.descriptor,
            MeterUnit.descriptor,
            MixUnit.descriptor,
            MuteUnit.descriptor,
            SilenceUnit.descriptor,
            PreprocessUnit.agcDescriptor,
            PreprocessUnit.denoiseDescriptor,
            RemixUnit.descriptor,
            ResampleUnit.descriptor,
            ReverbUnit.descriptor,
            SpectrogramUnit.descriptor,
            TeeUnit.descriptor,
            VoiceActivityUnit.descriptor,
        ].sorted { $0.name < $1.name }
}
