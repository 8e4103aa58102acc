import Testing

extension Tag {
    /// The echo canceller's room and drift scenes: seconds of simulated rooms each, most of the
    /// suite's time. Swift 6.3's `swift test` selects by name, not by tag, so these suites' names
    /// also end in `SceneTests`: `swift test --disable-xctest --skip SceneTests` is the fast tier,
    /// `--filter SceneTests` the scenes alone (README, "Test tiers").
    @Tag static var scenes: Self
}
