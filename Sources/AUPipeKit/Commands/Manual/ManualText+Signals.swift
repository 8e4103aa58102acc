extension ManualText {
    /// SIGNALS.
    package static let signals = #"""
        .SH SIGNALS
        On SIGINT or SIGTERM
        .B aupipe
        stops reading (a read that is waiting returns at once), processes what it has
        read, drains the chain (the resampler's tail), patches the header when the
        output is a regular file, and exits: with status 0 in a real-time run
        .RB ( \-\-live
        or
        .BR \-\-capture ),
        whose normal end it is, and otherwise with 130 after SIGINT and 143 after
        SIGTERM, as shells expect.
        A stream cut short this way is not reported as shorter than its header
        declares, and the bytes of an incomplete last frame that was being read are
        dropped without an error: the stream did not end, the user stopped it.
        A signal that comes before the input's header is complete ends
        .B aupipe
        quietly, with no output and the same status.
        Signals that a parent left blocked are unblocked first.
        SIGUSR1 and SIGUSR2 toggle the
        .B mute
        units that ask for them with
        .BR signal= ;
        without such a unit they are ignored, so that a signal meant for another
        process does not end the run.
        Send them to one process by its PID
        .RB ( "kill \-USR1 $pid" ,
        with
        .B pid=$!
        taken after starting the pipeline whose last command is
        .BR aupipe ),
        not by name:
        .B pkill \-USR1 \-x aupipe
        reaches every
        .B aupipe
        on the host.
        SIGPIPE is ignored, so a reader that goes away shows up as
        EPIPE and ends
        .B aupipe
        quietly with status 0, its figures and plots still written.
        """#
}
