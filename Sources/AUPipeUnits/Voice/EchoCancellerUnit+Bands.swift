import AUPipeFormats
import AUPipeGraph

/// `aec bands=`: the band split at high rates (`EchoBandSplit`).
extension EchoCancellerUnit {
    /// `bands=`'s values.
    public enum BandSplitting: String, CaseIterable, Sendable {
        /// Split from 24 kHz on (a low band near 16 kHz), where the frame and the tail are whole
        /// low-band frames.
        case auto
        /// Run the canceller on the whole band.
        case off
    }
}

extension EchoCancellerUnit.Keys {
    /// The band split: `auto` (default) runs the canceller on a low band near 16 kHz and gives
    /// the rest the low band's suppression, from 24 kHz on; `off` cancels the whole band.
    public static let bands = Parameter("bands", .choice(EchoCancellerUnit.BandSplitting.self), default: .auto,
                                        help: "from 24 kHz: cancel on a low band near 16 kHz (off: on the whole band)")
}

extension EchoCancellerConfiguration {
    /// The low band's rate is the stream's divided by the whole number nearest rate / this
    /// (Hz): the rate speex's canceller and preprocessor were measured at.
    static let bandSplitRate = 16000

    /// For a stream of `layout` (at the stream's rate): the split's factor and the layout the
    /// canceller runs on (the low band's), or nil when the stream is not split (`bands=off`,
    /// a factor under 2, or a rate, frame or tail that are not whole low-band frames).
    package func bandSplit(for layout: EchoLayout) -> (factor: Int, core: EchoLayout)? {
        guard bands == .auto else { return nil }
        let n = Int((Double(layout.rate) / Double(Self.bandSplitRate)).rounded())
        guard n >= 2, layout.rate % n == 0, layout.frameFrames % n == 0 else { return nil }
        let core = EchoLayout(rate: layout.rate / n, inChannels: layout.inChannels, mics: layout.mics, speakers: layout.speakers,
                              frameFrames: layout.frameFrames / n, tailFrames: max(layout.frameFrames, layout.tailFrames) / n,
                              maxDelayFrames: layout.maxDelayFrames / n)
        return (n, core)
    }
}
