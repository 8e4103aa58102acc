import AUPipeFormats

/// Arguments that make a unit do real work, and the length of the output they give: what the
/// test that runs every registered unit through block sizes 1, 7, 480 and 4096 reads from the
/// unit's descriptor. A unit registered without one fails that test.
public struct UnitExercise: Sendable {
    /// In `arguments`, stands for an audio file the test writes before the run (a WAV file of
    /// the stream's format, longer than the stream): a side input such as `mix`'s bus or `aec`'s
    /// reference.
    public static let sideInput = "{side-input}"
    /// In `arguments`, stands for a path the unit writes (`tee`'s copy, `meter`'s readings,
    /// `spectrogram`'s picture), without its extension, in a directory the test makes: the
    /// exercise adds the extension the unit wants (`"\(sideOutput).wav"`).
    public static let sideOutput = "{side-output}"
    /// In a plugin host's `arguments`, stands for a test plugin of its standard that the test
    /// builds (one that reports latency, so compensation is exercised too).
    public static let plugin = "{plugin}"

    /// The unit's arguments, without its name (`["-6"]` for `gain -6`).
    public let arguments: [String]
    /// How many frames the unit writes for a stream of N frames with these arguments.
    public let length: LengthRule

    public init(_ arguments: [String], length: LengthRule = .same) {
        self.arguments = arguments
        self.length = length
    }
}

/// How a unit's output length follows from its input's N frames.
public enum LengthRule: Sendable, Equatable {
    /// N frames.
    case same
    /// round(N × output rate / input rate): a sample-rate change (`resample`).
    case resampled
    /// max(N, the side input's frames): a unit that goes on until its longest input ends
    /// (`mix duration=longest`).
    case longestOfStreamAndSideInput
    /// Shorter than N, by what the unit cuts (`silence`): the test checks that the length is
    /// below N and the same, byte for byte, at every block size.
    case trimmed
}
