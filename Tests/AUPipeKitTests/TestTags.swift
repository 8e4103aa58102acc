import Testing

extension Tag {
    /// The echo canceller's room and drift scenes: seconds of simulated rooms each, most of the
    /// suite's time. The fast tier skips them: `swift test --skip-build --disable-xctest --skip Scene`
    /// (README, "Testing").
    @Tag static var scenes: Self
}
