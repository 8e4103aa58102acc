extension RunOptionManual {
    package static let control = #"""
        .TP
        .BI \-\-control " PATH"
        Take commands from the FIFO
        .I PATH
        while running.
        .B aupipe
        creates the FIFO (mode 0600) and removes it at the end, or uses an existing
        FIFO and leaves it; any other file at
        .I PATH
        is an error (status 64), and a FIFO that cannot be created gives status 73.
        It exists from the start of the run, before the input's header is read, so a
        script can open it at once.
        One command per line:
        .RS
        .TP
        .BI set " UNIT.PARAMETER VALUE"
        Change a live parameter:
        .B gain
        .B db=
        (which glides linearly in amplitude over 10 ms),
        .B mute
        .B on=
        (which fades over the unit's
        .BR ramp= ),
        or
        .BR mix 's
        .BR main\-gain= ,
        .B main\-mute=
        and
        .B out\-gain=
        and, for each of its buses, the addresses
        .BI bus K .gain\fR,
        .BI bus K .mute
        and
        .BI bus K .pan
        (which glide over 10 ms; see
        .BR mix ).
        The reply is
        .BI "ok " "UNIT.PARAMETER VALUE" .
        .TP
        .BI get " UNIT.PARAMETER"
        The reply is
        .IR "UNIT.PARAMETER VALUE" ,
        for a live parameter (and for
        .BR mix 's
        .BI bus K .late
        and
        .BI bus K .frames\fR,
        and
        .BR aec 's
        .BR erle ,
        .B delay
        and
        .BR drift ,
        .BR meter 's
        and
        .BR loudnorm 's
        readings, and a plugin's output ports, such as x42 dpl's
        .BR level ).
        A parameter that exists but is not live gets
        .BR "error: mute.ramp is not live; mute's live parameters: on" .
        A name a unit with such figures does not have gets the list of what
        .B get
        reads there:
        .BR "error: meter has no parameter or figure 'foo'; get reads its figures integrated, momentary, ..." .
        .B set
        on a figure says it is read\-only:
        .BR "error: lim.level is read\-only: a figure lv2 reports, not a parameter; read it with get lim.level" .
        .TP
        .B list
        The reply lists every live parameter of the chain with its position, the
        unit's name or label and the value, on one line:
        .BR "1.db (gain) \-6; 2.on (mute) 0" .
        .BR mix 's
        per\-bus addresses are listed too, for every bus:
        .BI bus K .gain\fR,
        .BI bus K .mute
        and
        .BI bus K .pan
        .RB ( none
        for a bus given without
        .BR pan= ),
        as in
        .BR "2.bus1.gain (mix) 0" .
        What only
        .B get
        reports (\fBmix\fR's
        .BI bus K .late
        and
        .BI bus K .frames\fR,
        .BR aec 's
        .BR erle ,
        .B delay
        and
        .BR drift )
        is not listed.
        .RE
        .IP
        .I UNIT
        is the unit's name when the chain has one unit of that name
        .RB ( gain ),
        the name with its rank among the units of that name
        .RB ( gain#2 ),
        the unit's position in the chain, from 1
        .RB ( 2 ),
        or a label given to the unit with the argument
        .BI name= LABEL
        (every unit takes this argument; a label is a letter, then letters, digits,
        .B _
        and
        .BR \- ,
        and it also names its unit in
        .BR \-\-stats ).
        The first dot ends
        .IR UNIT ;
        the parameter after it may hold dots of its own, so a unit's own addresses
        such as
        .B mix.bus1.gain
        (unit
        .BR mix ,
        parameter
        .BR bus1.gain )
        work like any other.
        Commands are taken between blocks, as audio flows, and a change applies from
        the next block.
        A command that fails gets the reply
        .BI "error: " MESSAGE
        and changes nothing; the run goes on.
        Replies are lines on standard error that start with
        .BR "aupipe: control:" ,
        unless
        .B \-\-control\-reply
        sends them elsewhere.
        Under
        .B \-\-control
        no unit is bypassed (a gain of 0 dB may be turned down later), and the output
        depends on when the commands arrive.
        """#
    package static let controlReply = #"""
        .TP
        .BI \-\-control\-reply " PATH"
        Append the replies to the commands of
        .B \-\-control
        to
        .I PATH
        (created if needed, mode 0644 before the umask), one line each without the
        .B "aupipe: control:"
        prefix.
        A FIFO is opened without blocking, so that a missing reader never stalls the
        audio.
        Needs
        .B \-\-control
        (status 64 otherwise).
        """#
    package static let progress = #"""
        .TP
        .BR \-\-progress ", " \-\-progress=force
        Draw one line of progress on standard error, redrawn at most four times a
        second and ended when the run ends.
        When the input's size is known (from its header or as a regular file) the
        line shows a bar, the percentage, the stream time so far and the estimated
        time left; otherwise the stream time so far; then the speed as a multiple of
        real time.
        It is drawn only when standard error is a terminal, unless
        .BR =force .
        """#
    package static let duration = #"""
        .TP
        .BI \-\-duration " DURATION"
        Stop after
        .I DURATION
        of input
        .RB ( 10s ,
        .BR 250ms ,
        or a frame count such as
        .BR 480f ;
        a bare number is seconds), as if the input ended there: the chain is drained
        and the header patched.
        With
        .BR \-\-capture ,
        record this long.
        """#
    package static let live = #"""
        .TP
        .B \-\-live
        The run is real time, as a run with
        .B \-\-capture
        is; without either, a run is not real time, whatever its input (a pipe may
        carry a file: whether a run is real time is never guessed from its input or
        its pace).
        In a real-time run side streams never stall the stream: a FIFO or pipe that
        .B mix
        or
        .B aec
        reads gives silence for what has not come (late frames, said on standard
        error and counted in
        .BR \-\-stats ),
        and a
        .B tee
        into a FIFO or pipe drops whole frames its reader is too slow for; the
        default resampler is the low\-latency one (see
        .BR resample );
        and SIGINT or SIGTERM is the run's normal end (status 0).
        In a run that is not real time side inputs are waited for and side outputs
        get every frame, so the output is the same bytes on every run, and a signal
        ends it with status 130 or 143.
        A unit's
        .B live=
        overrides the run for that unit.
        Every
        .B arecord | aupipe
        pipeline of EXAMPLES passes
        .BR \-\-live .
        """#
    package static let capture = #"""
        .TP
        .BI \-\-capture " DEVICE"
        Read the stream from the ALSA capture device
        .I DEVICE
        (a PCM name:
        .BR default ,
        .BR hw:1,0 ,
        .BR plughw:1 ,
        or one from
        .BR asound.conf ;
        .B arecord \-L
        lists them) instead of standard input, in the format of
        .BR \-\-capture\-format ,
        until SIGINT or SIGTERM (which drain the chain and patch the header as for any
        input) or
        .BR \-\-duration .
        The output container is WAV unless
        .B \-t
        or the extension of
        .B \-o
        says otherwise.
        Overruns (aupipe did not read for longer than the device's buffer, as when it
        is stopped or starved of CPU) are recovered with
        .BR snd_pcm_recover ,
        counted in
        .BR \-\-stats ,
        and never end the run; the frames the device dropped are missing from the
        output.
        The device is opened after the chain has been checked, so
        .B \-\-check
        never touches it.
        A device that goes away (unplugged, stuck for 5 seconds, suspended for good;
        see DEVICE LOSS) ends the run with status 74 once what was captured before it
        has gone through the chain and been written, unless
        .B \-\-reconnect
        waits for it.
        A device that does not exist gives status 66, one that is busy or cannot do
        the format status 69 (a
        .B hw:
        device takes only its own formats and rates;
        .B plughw:
        and
        .B default
        convert).
        Cannot be combined with
        .B \-i
        or
        .BR \-\-in\-format .
        """#
    package static let captureFormat = #"""
        .TP
        .BI \-\-capture\-format " SPEC"
        The format to capture in,
        .IR TOKEN : RATE : CHANNELS
        or any part of it (the rest from the default,
        .BR s16le:48000:2 ).
        Needs
        .BR \-\-capture .
        """#
    package static let monitor = #"""
        .TP
        .BI \-\-monitor " DEVICE"
        Also play the processed stream on the ALSA playback device
        .IR DEVICE ,
        in the output's format (the recorder's ear return), while it is still written
        to the output.
        Each block goes to the device as it goes to the output; writes wait while
        the device's buffer is full, so a file input is played at its own pace, as
        .BR play (1)
        would.
        Underruns are recovered and counted in
        .BR \-\-stats .
        After SIGINT or SIGTERM the monitor stops at once: the chain's drained tail
        goes to the output only.
        Losing the monitor's device never stops the stream: one line warns, and the
        output goes on without it (with
        .BR \-\-reconnect ,
        until it is back).
        A device that cannot be opened gives status 73.
        """#
}
