import CAUPipeSupport

/// SIGINT and SIGTERM, as the whole program sees them: once one has arrived, every reader stops
/// reading (the main input and every side input), the chain drains and the output is finished.
enum StopSignal {
    /// True once SIGINT or SIGTERM has arrived.
    static var received: Bool { aupipe_stop_signal() != 0 }

    /// A descriptor that becomes readable when the signal arrives (a self-pipe), to poll together
    /// with an input; -1 before the handlers are installed.
    static var descriptor: Int32 { aupipe_stop_fd() }
}
