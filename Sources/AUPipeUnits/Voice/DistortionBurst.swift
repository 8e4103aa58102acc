/// A distorting loudspeaker's burst told from a near word's first frame (issue 26), for the
/// residual echo suppressor's `NearEndPresence` while `DistortionSign` says the loudspeaker distorts.
///
/// Why: `DistortionSpread` counts the loudspeaker's harmonics in `NearEndPresence`'s residual at
/// a share of their learnt percentile; at the percentile itself (`DistortionSpread.percentile`)
/// the frames the harmonics fill beyond that share would be echo alone too, but a near word's
/// first frame, heard by `NearEndPresence` a frame before `aec`'s detectors, would be taken with
/// them. The two differ in where their excess lies once the spread is counted at its percentile:
/// a burst leaves a few bins (its strongest harmonics, above the loudspeaker's low band, where
/// the far end's partials' multiples fall); a voiced word's onset puts its fundamental and first
/// partials into the low band (`lowHz`), where the harmonics of a far end that the small
/// loudspeaker passes from a few hundred Hz up seldom reach, and an unvoiced one (a fricative)
/// spreads over kHz (`wideHz`).
///
/// So a frame `NearEndPresence` takes for the near end's with the spread's share stays the near
/// end's only when, with the spread at its percentile, it still passes the frame test, or at
/// least `leastLowBins` of its present bins lie under `lowHz`, or its present bins span
/// `wideHz` in all (`NearEndPresence.recount`). Nothing allocates.
package struct DistortionBurst {
    /// The low band (Hz) and the bins in it a voiced onset fills at least.
    package static let lowHz = 650.0, leastLowBins = 2
    /// The present bins' total width (Hz) an unvoiced onset spans at least.
    package static let wideHz = 400.0
    /// `lowHz` and `wideHz` in bins of the suppressor's transform.
    package let lowBins: Int, wideBins: Int

    /// For a transform of `size` points at `rate` Hz.
    package init(size: Int, rate: Int) {
        let perHz = Double(size) / Double(rate)
        lowBins = Int((Self.lowHz * perHz).rounded())
        wideBins = Int((Self.wideHz * perHz).rounded())
    }

    /// Whether a frame `nearEnd` took for the near end's stays so with `percentile`, the residual
    /// with the spread at its percentile (bins each, as `noise` and `eFast`: see `NearEndPresence.update`).
    package func nearWord(_ nearEnd: NearEndPresence, percentile: UnsafePointer<Float>, noise: UnsafePointer<Float>,
                          eFast: UnsafePointer<Float>) -> Bool {
        let (frame, count, low) = nearEnd.recount(residual: percentile, noise: noise, eFast: eFast, lowBins: lowBins)
        return frame || low >= Self.leastLowBins || count >= wideBins
    }
}
