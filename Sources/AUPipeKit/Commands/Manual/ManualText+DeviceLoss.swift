extension ManualText {
    /// DEVICE LOSS.
    package static let deviceLoss = #"""
        .SH DEVICE LOSS
        A sound device is lost when it is unplugged or disappears (ALSA's \-ENODEV),
        is left in a state it cannot leave (\-EBADFD), was suspended and does not
        resume
        .RB ( snd_pcm_resume
        and a new prepare fail after \-ESTRPIPE), fails otherwise in a way
        .B snd_pcm_recover
        cannot mend, keeps failing (16 recoveries in a row with no frame read or
        written between them, as a suspend that never really resumes), or does
        nothing for 5 seconds (stuck).
        Overruns and underruns are not losses: they are recovered and counted.
        A stuck device is known lost only after those 5 seconds; its gap is counted
        from the last frames it delivered or took, so under
        .B \-\-reconnect
        the stall is part of the silence.
        A stuck
        .B \-\-monitor
        or
        .B \-\-play
        device holds the stream for those 5 seconds (the write waits), then is
        handled as below.
        .PP
        Without
        .BR \-\-reconnect :
        a lost
        .B \-\-capture
        device ends the stream there, as the end of an input would: what was read
        goes through the chain, which drains, the output is finished (its header
        patched), one line on standard error names the option, the device and what
        happened, and the status is 74:
        .PP
        .RS
        .EX
        aupipe: \-\-capture hw:1: the capture device was unplugged or disappeared (ENODEV) at 12.340 s; the output ends there (\-\-reconnect waits for it to come back)
        .EE
        .RE
        .PP
        A lost
        .B \-\-play
        device ends the run the same way (the block being processed is finished with
        silence as the canceller's reference; the status is 74).
        A lost
        .B \-\-monitor
        device is dropped with one warning, and the stream goes on to its end with
        its own status.
        .PP
        With
        .BR \-\-reconnect [ =\fITIMEOUT\fP ],
        the loss is announced at once and the device is opened again every 250 ms:
        .PP
        .RS
        .EX
        aupipe: \-\-capture hw:1: lost (ENODEV) at 12.340 s; reconnecting (every 250 ms, up to 30s)
        aupipe: \-\-capture hw:1: back after 1.230 s; 19680 frames of silence written
        .EE
        .RE
        .PP
        For
        .BR \-\-capture ,
        reading waits (SIGINT or SIGTERM end the wait, and the run, cleanly with
        status 0); once the device is back, the time it was away, measured on the
        monotonic clock from the last frames it delivered to its reopening and turned
        into frames at the stream's rate, is read as silence before the device's frames, in blocks of
        the usual size, so the output's timeline stays that of real time and
        .BR aec 's
        alignment with its reference holds (the chain sees the time pass).
        .B \-\-duration
        counts that silence as stream time.
        That silence is not played on
        .B \-\-monitor
        or
        .B \-\-play
        (its time has passed; playing it would hold the stream as long again while
        the capture device overruns), and
        .B aec
        is given silence as the far end for it.
        For
        .B \-\-monitor
        and
        .BR \-\-play ,
        the stream does not wait: the device is tried again from the stream's loop,
        at most every 250 ms, while the output goes on; the monitor misses what went
        by meanwhile, and for
        .B \-\-play
        the far end's frames of the gap are not played and the canceller is given
        silence for them (nothing was played, so nothing can echo).
        A device that is not back within
        .I TIMEOUT
        ends the run as without
        .B \-\-reconnect
        (status 74, with a line saying it did not come back within
        .IR TIMEOUT );
        a monitor that is not back is dropped.
        .PP
        .B \-\-stats
        lists the gaps after the devices: their count and total length, then each
        gap (the first 20): the option, the device, where it starts on the stream and
        how long it lasted, in seconds and frames (for
        .B \-\-capture
        the silence written; for
        .B \-\-monitor
        the output frames not played; for
        .B \-\-play
        the far end's frames not played).
        A playback device still away when the run ends (not back yet, given up, or
        lost without
        .BR \-\-reconnect )
        counts its gap to the end.
        .B \-\-stats=json
        adds, to a run with devices,
        .B deviceGaps
        (every gap:
        .BR option ,
        .BR device ,
        .BR startSeconds ,
        .BR lengthSeconds ,
        .BR frames ),
        .B deviceGapCount
        and
        .BR deviceGapSeconds .
        """#
}
