/// A unit that, as prepared, only selects, reorders, duplicates or silences channels: every
/// sample it writes is one of its input samples, unchanged, or zero (`remix 2 1`, `remix 1`,
/// `convert map=1,0`, `convert channels=2` from mono).
///
/// A chain made only of such units (`Chain.channelSelection`) is run on the stream's bytes:
/// each output sample's bytes are copied from the input frame, with no decoding to float and
/// no encoding back. The unit answers after `prepare`, for the run it was prepared for, and
/// only when the float path would write the same bytes (no gain, no sum, nothing clipped).
public protocol ChannelSelecting: AnyObject {
    /// Once prepared: for each output channel, the input channel (from 0) whose samples it
    /// carries unchanged, or nil for a silent channel (zeros). nil when the unit may change a
    /// sample's value in this run (a factor other than 1, a sum, a clip, a live gain).
    var channelSelection: [Int?]? { get }
}

extension Chain {
    /// The selection of a line of stages' selections, applied in order to `channels` input
    /// channels; nil when a stage is not `ChannelSelecting` or changes samples.
    static func composedSelection(_ units: [any AudioUnit], inputChannels channels: Int) -> [Int?]? {
        var selection: [Int?] = Array(0..<channels)
        for unit in units {
            guard let next = (unit as? any ChannelSelecting)?.channelSelection else { return nil }
            selection = next.map { $0.flatMap { selection[$0] } }
        }
        return selection
    }
}
