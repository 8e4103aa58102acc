extension ManualText {
    /// EXIT STATUS.
    package static let exitStatus = #"""
        .SH EXIT STATUS
        .TP
        .B 0
        Success.
        Also after SIGINT or SIGTERM in a real-time run
        .RB ( \-\-live ,
        .BR \-\-capture ),
        and when the reader of the output closed it early (EPIPE, as with
        .BR "| head \-c" ):
        .B aupipe
        then stops reading and ends as after SIGINT, with no message: every unit is
        drained (nothing more is written), the
        .B \-\-stats
        figures of what was processed are printed and the
        .B plot=
        files are written.
        For
        .BR "aupipe compare" :
        the streams agree within the tolerance (its verdict is never turned into 0
        by a reader that went away).
        .TP
        .B 1
        .B aupipe compare
        only: the streams were compared and differ beyond the tolerance (streams that
        cannot be compared give 65 or 66, see
        .BR compare ).
        .TP
        .B 64
        Usage error (EX_USAGE): an unknown option, unit or parameter, a value out of
        range, a chain that does not fit the stream (a channel map, a channel count),
        an encoding the output container cannot hold, or
        .B \-\-in\-format
        disagreeing with the input's header.
        .TP
        .B 65
        Bad input data (EX_DATAERR): no header and no
        .BR \-\-in\-format ,
        empty input, a malformed, unsupported or truncated header, or a stream that
        ends mid\-frame or short of its declared size.
        For
        .BR "aupipe compare" ,
        also two streams that cannot be compared: different rates, channel counts, or
        sample types without
        .BR \-\-ignore\-format .
        .TP
        .B 66
        The input, a file of
        .BR mix 's
        .B input=
        or
        .BR aec 's
        .BR ref= ,
        or the
        .B \-\-capture
        device cannot be opened (EX_NOINPUT).
        .TP
        .B 69
        ALSA or a sound device is unavailable (EX_UNAVAILABLE):
        .BR \-\-capture ,
        .B \-\-monitor
        or
        .B \-\-play
        without ALSA's library, or a device that is busy or cannot do the format,
        rate, channels, period or buffer asked; a plugin unit without its library
        (lilv), or a plugin that requires a feature or has a port aupipe lacks.
        .TP
        .B 70
        Internal error, a bug in
        .B aupipe
        (EX_SOFTWARE).
        .TP
        .B 73
        The output file, or the
        .B \-\-monitor
        or
        .B \-\-play
        device, cannot be opened (EX_CANTCREAT).
        .TP
        .B 74
        Reading or writing failed (EX_IOERR), including patching the header, and
        writing the text of
        .BR info ,
        .BR units ,
        .BR help ,
        .BR compare ,
        .B \-\-check
        or
        .B \-\-version
        to a standard output that takes nothing more (a full disk, as with
        .BR "> /dev/full" :
        .BR "aupipe: cannot write stdout: No space left on device" ).
        Also a
        .B \-\-capture
        or
        .B \-\-play
        device that went away and did not come back (see DEVICE LOSS): the output
        then holds what came before, finished and patched.
        .TP
        .B 130
        SIGINT (128 + 2) during a run that is not real time (no
        .B \-\-live
        or
        .BR \-\-capture ),
        as shells expect of an interrupted program; the output was drained and its
        header patched (see SIGNALS).
        .TP
        .B 143
        SIGTERM (128 + 15), likewise.
        .PP
        For a batch (GNU
        .BR parallel (1),
        Slurm array jobs, Kubernetes indexed Jobs), the statuses tell a scheduler what
        to retry: 74 (I/O error) and 69 (device unavailable) may pass on another try
        or another host; 64 (usage), 65 (bad data) and 66 (missing input) will fail
        again the same way and should not be retried. Each run writes one
        .B \-\-stats=json
        line (see STATISTICS).
        """#
}
