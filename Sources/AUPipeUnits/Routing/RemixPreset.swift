import AUPipeFormats
import AUPipeGraph

/// `remix`'s named matrices, each from a published source (`remix preset=NAME`).
///
/// Input channels are in the WAV (SMPTE) order: 5.1 is L R C LFE Ls Rs, 7.1 is
/// L R C LFE Lb Rb Ls Rs (the back pair before the side pair, as WAVE_FORMAT_EXTENSIBLE's mask
/// orders them). Coefficients are linear factors, not normalised: a full-scale mix can exceed
/// full scale (`remix overload=`).
public enum RemixPreset: String, CaseIterable, Sendable {
    /// ITU-R BS.775-3, Table 2, 3/2 to 2/0: Lo = L + 0.7071·C + 0.7071·Ls,
    /// Ro = R + 0.7071·C + 0.7071·Rs; LFE omitted, as published.
    case surround51ToStereo = "5.1-to-stereo"
    /// 7.1 to stereo: each back channel folded into the side channel of its side at −3 dB
    /// (0.7071, as libswresample's default matrix does when the output has no back pair), then
    /// BS.775's 3/2 to 2/0: Lo = L + 0.7071·C + 0.7071·Ls + 0.5·Lb.
    case surround71ToStereo = "7.1-to-stereo"
    /// M = (L + R) / 2.
    case stereoToMono = "stereo-to-mono"
    /// Mid/side encode: M = (L + R) / 2, S = (L − R) / 2.
    case midSideEncode = "ms-encode"
    /// Mid/side decode, the inverse of `ms-encode`: L = M + S, R = M − S.
    case midSideDecode = "ms-decode"

    /// −3 dB as BS.775 writes it: 1/√2 (the table prints 0.7071).
    package static let minus3dB = 0.5.squareRoot()

    /// The input channels the matrix is for.
    public var inputChannels: Int {
        switch self {
        case .surround51ToStereo: 6
        case .surround71ToStereo: 8
        case .stereoToMono, .midSideEncode, .midSideDecode: 2
        }
    }

    /// The matrix: one row per output channel, one factor per input channel.
    public var matrix: [[Double]] {
        let k = Self.minus3dB
        switch self {
        case .surround51ToStereo:
            //       L  R  C  LFE Ls Rs
            return [[1, 0, k, 0, k, 0],
                    [0, 1, k, 0, 0, k]]
        case .surround71ToStereo:
            //       L  R  C  LFE Lb     Rb     Ls Rs
            return [[1, 0, k, 0, k * k, 0, k, 0],
                    [0, 1, k, 0, 0, k * k, 0, k]]
        case .stereoToMono:
            return [[0.5, 0.5]]
        case .midSideEncode:
            return [[0.5, 0.5], [0.5, -0.5]]
        case .midSideDecode:
            return [[1, 1], [1, -1]]
        }
    }

    /// What the input channels must be, for messages.
    package var inputName: String {
        switch self {
        case .surround51ToStereo: "5.1 (6 channels: L R C LFE Ls Rs)"
        case .surround71ToStereo: "7.1 (8 channels: L R C LFE Lb Rb Ls Rs)"
        case .stereoToMono, .midSideEncode: "stereo (2 channels)"
        case .midSideDecode: "mid/side (2 channels: M S)"
        }
    }
}
