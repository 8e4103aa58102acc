import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

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

extension StopCondition {
    /// How a wait ended.
    public enum WaitResult: Sendable { case ready, timedOut, stopped }

    /// Waits until `fd` has one of `events` (POLLIN, POLLOUT; a negative `fd` waits for the time
    /// alone), at most `milliseconds` (-1: no limit), or until the stop comes. `pollSet` is room
    /// for two `pollfd`s that the caller allocated once (no allocation per wait).
    package func wait(for fd: Int32, events: Int16, milliseconds: Int32, pollSet: UnsafeMutablePointer<pollfd>) -> WaitResult {
        if isSet() { return .stopped }
        let stopFD = descriptor()
        // Without a stop descriptor, wait in slices so that the stop is seen.
        let slice: Int32 = stopFD >= 0 ? milliseconds : (milliseconds < 0 ? 50 : min(milliseconds, 50))
        var left = milliseconds
        while true {
            pollSet[0] = pollfd(fd: fd, events: events, revents: 0)
            pollSet[1] = pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)
            let n = poll(pollSet, 2, slice) // a negative fd is skipped by poll
            if isSet() { return .stopped }
            if n > 0 && pollSet[0].revents != 0 { return .ready }
            if n < 0 && errno == EINTR { continue }
            if stopFD >= 0 || left >= 0 && left <= slice { return .timedOut }
            if left > 0 { left -= slice }
        }
    }
}
