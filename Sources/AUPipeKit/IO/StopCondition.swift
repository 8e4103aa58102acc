/// What ends a wait early: in aupipe, SIGINT/SIGTERM (`StopSignal`). A wait polls `descriptor`
/// together with what it waits for, and checks `isSet` before and after, so a stop that comes
/// just before it blocks is never missed.
///
/// Tests give their own (a pipe they write to), since raising SIGINT in the test process would
/// stop every reader in it for good.
public struct StopCondition: Sendable {
    /// True once the stop has come; stays true.
    public let isSet: @Sendable () -> Bool
    /// A descriptor that becomes readable when the stop comes, or -1 when there is none (then
    /// waits are cut into slices of at most 50 ms so that `isSet` is seen).
    public let descriptor: @Sendable () -> Int32

    public init(isSet: @escaping @Sendable () -> Bool, descriptor: @escaping @Sendable () -> Int32) {
        self.isSet = isSet
        self.descriptor = descriptor
    }

    /// SIGINT and SIGTERM.
    public static let signals = StopCondition(isSet: { StopSignal.received }, descriptor: { StopSignal.descriptor })
}
