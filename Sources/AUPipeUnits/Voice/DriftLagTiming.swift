import AUPipeFormats
import AUPipeGraph

/// Where a `DelayEstimator` analysis's lag holds, for `DriftTracker`: the stream time (frames)
/// and the drift compensation's offset (frames added so far, `DriftCompensator.offset(at:)`)
/// that the lag of its correlation peak stands for.
///
/// An analysis correlates a window of microphone frames whose middle lies half a window before
/// `DelayEstimator.analysedAt`, and with `smoothing` s > 0 blends it with the analyses before
/// it (the k-th before weighs (1 − s)·s^k; windows skipped as silent do not count). While the
/// echo's lag moves by less than the peak's width from one analysis to the next, the blended
/// peak lies at the same blend of the windows' lags; so the time and the offset it stands for
/// are the same blend of the windows' middles and of the offsets there. Taking the latest
/// window's instead puts a step into the measured lag wherever the compensation's factor moves
/// within the blend — when it engages, up to s/(1 − s) analyses' worth of drift (8 frames at
/// 1000 ppm), which the tracker's slope read as 150 ppm of drift for several seconds.
package struct DriftLagTiming {
    /// The estimator's smoothing across analyses (`DelayEstimator.smoothing`), 0..<1.
    package let smoothing: Double
    private var timeSum = 0.0, offsetSum = 0.0, weight = 0.0
    /// The estimator's analyses made when `follow` last looked.
    private var made = 0

    package init(smoothing: Float) {
        self.smoothing = Double(smoothing)
    }

    /// One analysis that was made (not skipped): its window's middle (stream frames) and the
    /// compensation's offset there (frames).
    package mutating func add(middle: Double, offset: Double) {
        let take = 1 - smoothing
        timeSum = smoothing * timeSum + take * middle
        offsetSum = smoothing * offsetSum + take * offset
        weight = smoothing * weight + take
    }

    /// Adds `estimator`'s latest analysis if it made one since the last call, with
    /// `compensator`'s offset at its window's middle.
    package mutating func follow(_ estimator: DelayEstimator, compensator: DriftCompensator) {
        guard estimator.estimatesMade != made else { return }
        made = estimator.estimatesMade
        let middle = Double(estimator.analysedAt - estimator.windowFrames / 2)
        add(middle: middle, offset: compensator.offset(at: middle))
    }

    /// The time (stream frames) and offset (frames) the latest analysis's lag stands for; (0, 0)
    /// before any analysis.
    package var time: Double { weight > 0 ? timeSum / weight : 0 }
    package var offset: Double { weight > 0 ? offsetSum / weight : 0 }
}
