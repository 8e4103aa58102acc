import AUPipeFormats
import AUPipeGraph
import AUPipeUnits

/// What a run did: the formats, the figures, and an error found in the data after all complete
/// frames were written (a stream that ended mid-frame or short of its header's size).
public struct RunReport: Sendable {
    public var input: StreamHeader
    public var output: OutputPlan
    public var stages: [StageStats] = []
    public var framesIn: Int64 = 0
    public var framesOut: Int64 = 0
    /// Samples clipped by the final encoder.
    public var encoderClipped = 0
    /// What the output adds before rounding (`EdgeDither`): `tpdf`, `shaped (f-weighted)`, or
    /// nil for plain rounding.
    public var dither: String?
    /// The chain only selected channels and its samples were moved as bytes (`FrameShuffle`),
    /// not decoded to float and encoded back.
    public var movedAsBytes = false
    /// NaN and infinities that reached a float output (an integer output writes NaN as 0 and
    /// clips infinities, counted in `encoderClipped`).
    public var outputNonFinite = NonFiniteSamples()
    public var sizesPatched = false
    public var dataError: AUPipeError?
    /// The output's reader went away before the end (EPIPE): the run stopped there, quietly.
    public var outputClosed = false
    /// The sound devices used (`--capture`, `--monitor`, `--play`).
    public var devices: [DeviceStats] = []
    /// The times a device was away and came back under `--reconnect`, in order.
    public var deviceGaps: [DeviceGap] = []
}
