import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif
import CAUPipeSupport

/// SIGINT and SIGTERM, as the whole program sees them: once one has arrived, every reader stops
/// reading (the main input and every side input), the chain drains and the output is finished.
package enum StopSignal {
    /// True once SIGINT or SIGTERM has arrived.
    package static var received: Bool { aupipe_stop_signal() != 0 }

    /// The status a run that is not real time ends with after a stop signal, as shells expect
    /// of a program a signal ended (130 after SIGINT, 143 after SIGTERM); nil without one. A
    /// real-time run (a capture device, `--live`) ends normally on it (0).
    package static var interruptedStatus: ExitStatus? {
        switch aupipe_stop_signal() {
        case 0: return nil
        case SIGTERM: return .terminated
        default: return .interrupted
        }
    }

    /// A descriptor that becomes readable when the signal arrives (a self-pipe), to poll together
    /// with an input; -1 before the handlers are installed.
    package static var descriptor: Int32 { aupipe_stop_fd() }
}
