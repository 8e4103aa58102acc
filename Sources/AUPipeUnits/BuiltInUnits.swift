import AUPipeFormats
import AUPipeGraph

/// The units aupipe is built with.
public struct BuiltInUnits: UnitProvider {
    public init() {}

    public var descriptors: [UnitDescriptor] {
        [
            EchoCancellerUnit.descriptor,
            PreprocessUnit.agcDescriptor,
            ConvertUnit.descriptor,
            PreprocessUnit.denoiseDescriptor,
            GainUnit.descriptor,
            LoudnormUnit.descriptor,
            MeterUnit.descriptor,
            MixUnit.descriptor,
            MuteUnit.descriptor,
            ResampleUnit.descriptor,
            SpectrogramUnit.descriptor,
            TeeUnit.descriptor,
        ]
    }
}
