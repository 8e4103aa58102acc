import AUPipeFormats
import AUPipeGraph

extension RemixPreset {
    /// Where each input channel of the matrix (in WAV order) is in a stream laid out as
    /// `layout`: for each column of `matrix`, the stream's channel that plays there. A 5.1 from a
    /// CAF file in another order (Core Audio's MPEG 5.1 C: C L R Ls Rs LFE) is mixed by where its
    /// channels play, not by their numbers. Nil when the layout does not say (a channel without
    /// a position, or two in one place): the WAV order is assumed.
    package func columns(in layout: ChannelLayout) -> [Int]? {
        guard layout.speakers.count == inputChannels, inputChannels > 2 else { return nil }
        // The place of each column: front ±30°, centre, LFE, then the surround pair (5.1) or the
        // back pair and the side pair (7.1). Positive azimuth is left.
        enum Place: Equatable { case frontLeft, frontRight, centre, lfe, surroundLeft, surroundRight, backLeft, backRight }
        let places: [Place] = inputChannels == 6
            ? [.frontLeft, .frontRight, .centre, .lfe, .surroundLeft, .surroundRight]
            : [.frontLeft, .frontRight, .centre, .lfe, .backLeft, .backRight, .surroundLeft, .surroundRight]
        func place(of speaker: ChannelLayout.Speaker) -> Place? {
            switch speaker {
            case .lowFrequency: return .lfe
            case .unknown: return nil
            case .direction(let azimuth, let elevation):
                guard abs(elevation) < 30 else { return nil }
                let a = abs(azimuth), left = azimuth > 0
                if a < 1 { return .centre }
                if a <= 45 { return left ? .frontLeft : .frontRight }
                if inputChannels == 8, a > 112.5 { return left ? .backLeft : .backRight }
                if a < 180 { return left ? .surroundLeft : .surroundRight }
                return nil
            }
        }
        let found = layout.speakers.map(place)
        var columns: [Int] = []
        for p in places {
            let matches = found.indices.filter { found[$0] == p }
            guard matches.count == 1 else { return nil }
            columns.append(matches[0])
        }
        return columns
    }
}
