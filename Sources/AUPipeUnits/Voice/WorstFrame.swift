#if canImport(Glibc)
import Glibc
#endif

/// `aec`'s worst frame: the longest processing time of one frame, counted in the thread's CPU
/// time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`: what the frame cost this thread, not the time
/// other processes or threads took meanwhile), for `--stats`. A measurement: it never enters
/// the audio.
package struct WorstFrame {
    /// The longest frame so far (s of thread CPU time; 0 before any), and frames timed.
    package private(set) var seconds = 0.0, frames = 0

    package init() {}

    /// The thread's CPU time now (s).
    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// Runs `body` (one frame) and keeps its CPU time when it is the longest so far.
    package mutating func time(_ body: () throws -> Void) rethrows {
        let start = Self.now()
        try body()
        seconds = max(seconds, Self.now() - start)
        frames += 1
    }
}
