import AUPipeFormats

/// The decision rule of `DelayEstimator`, on its own: which candidate delays get reported.
///
/// Each estimate gives a candidate lag in frames, or nil when its peak did not stand clear of
/// the noise. A candidate within `tolerance` frames of the reported estimate confirms it (and
/// ends any challenger's run). Any other candidate is a challenger: it must come
/// `requiredWins` times in a row (each within `tolerance` of the previous) to become the
/// estimate, and a nil candidate ends its run too. The first estimate is reached the same way,
/// with `firstTolerance` between consecutive candidates.
public struct DelayHysteresis: Sendable {
    /// Frames two candidates may differ by and still count as the same delay.
    public var tolerance: Int
    /// Frames consecutive candidates may differ by in the run that makes the first estimate
    /// (default `tolerance`). A wider one lets a room whose strongest paths take turns a few
    /// milliseconds apart be found as soon as any one of them would have been; the estimate is
    /// the run's last candidate.
    public var firstTolerance: Int
    /// Consecutive wins a challenger needs (1: every counted candidate is reported at once).
    public var requiredWins: Int
    /// The reported delay in frames, nil until a candidate has won.
    public private(set) var estimate: Int?
    /// The challenger and its consecutive wins so far.
    public private(set) var challenger: Int?
    public private(set) var wins = 0
    /// How often the estimate was set or changed.
    public private(set) var changes = 0

    public init(tolerance: Int, requiredWins: Int) {
        self.tolerance = tolerance
        firstTolerance = tolerance
        self.requiredWins = max(1, requiredWins)
    }

    /// Takes one estimate's candidate (nil: no clear peak).
    public mutating func update(candidate: Int?) {
        guard let lag = candidate else {
            challenger = nil
            wins = 0
            return
        }
        if let current = estimate, abs(lag - current) <= tolerance {
            challenger = nil
            wins = 0
            return
        }
        if let c = challenger, abs(lag - c) <= (estimate == nil ? firstTolerance : tolerance) {
            wins += 1
        } else {
            wins = 1
        }
        challenger = lag
        if wins >= requiredWins {
            estimate = lag
            changes += 1
            challenger = nil
            wins = 0
        }
    }
}
