extension RunOptionManual {
    package static let play = #"""
        .TP
        .BI \-\-play " DEVICE"
        Full\-duplex voice processing: play the far end of the chain's
        .B aec
        (its
        .BR ref= ,
        at the stream's rate, in 16 bits, on
        .BR aec 's
        .B speakers=
        channels: mono by default) on the ALSA playback device
        .I DEVICE
        as the canceller reads it, and give the canceller exactly what was played, at
        the time the device plays it.
        Each frame of the far end is written when the microphone frame aligned with
        it is processed; the device starts when a buffer less one period is queued,
        and with capture on the same clock a frame written then waits that long
        (the capture period it waited for and the queue it joins add up to it)
        before it is played.
        The reference is delayed by that much before
        .B aec
        sees it, so
        .BR aec 's
        .B delay=
        (or
        .BR delay=auto )
        covers only the acoustic path, the converters and scheduling.
        .B \-\-stats
        reports the delay applied and the one measured from the devices (playback
        plus capture delay, averaged over the writes).
        The chain must hold one
        .B aec
        with
        .B ref=
        (status 64 otherwise); a device that cannot be opened gives status 73.
        Losing the device ends the run as losing the capture device does (the far end
        is no longer heard, so there is nothing to cancel against), unless
        .B \-\-reconnect
        is given; see DEVICE LOSS.
        """#
    package static let period = #"""
        .TP
        .BI \-\-period " DURATION" "\fR, \fP\-\-buffer " DURATION
        The period and buffer of the sound devices
        .RB ( \-\-capture ,
        .BR \-\-monitor ,
        .BR \-\-play ):
        default 10 ms and 40 ms (four periods, the low\-latency setting of PipeWire and
        PulseAudio); a bare number is milliseconds, and when only one of them is given
        the buffer is four periods.
        The device grants the nearest it can do;
        .B \-\-stats
        shows what it granted.
        A longer buffer survives longer stalls without an overrun, at the cost of
        latency under
        .B \-\-play
        and
        .BR \-\-monitor .
        The period is 1 ms to 2 s; the buffer 2 ms to 4 s and at least two periods.
        """#
    package static let reconnect = #"""
        .TP
        .BR \-\-reconnect [ =\fITIMEOUT\fP ]
        When a sound device
        .RB ( \-\-capture ,
        .BR \-\-monitor ,
        .BR \-\-play )
        goes away, wait for it to come back instead of ending the run: it is opened
        again by the same name, with the same format, rate, channels, period and
        buffer, every 250 ms, up to
        .I TIMEOUT
        (a duration:
        .BR 30s ,
        .BR 500ms ;
        a bare number is seconds) or, without one, for ever.
        The time it was away is silence in the stream; see DEVICE LOSS.
        When
        .B \-\-duration
        is reached while a capture device is away, the wait ends there: the silence
        runs up to the duration and the run ends as it would with the device back.
        Needs one of the device options (status 64 otherwise).
        """#
    package static let help = #"""
        .TP
        .BR \-h ", " \-\-help
        Print the help text and exit.
        """#
    package static let version = #"""
        .TP
        .BR \-V ", " \-\-version
        Print the version,
        .BR "aupipe \#(Version.number)" ,
        and exit;
        .B aupipe version
        also lists the libraries in use.
        """#
}
