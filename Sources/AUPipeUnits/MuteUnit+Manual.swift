import AUPipeFormats
import AUPipeGraph

extension MuteUnit {
    /// The mute section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Silences the stream, or parts of it, with click\-free linear fades.
        .TP
        .BI on= BOOLEAN
        (bare value)
        Muted (1) or not (0).
        Default 1 without
        .BR at= ,
        0 with it.
        Without
        .BR at= ,
        .B on=1
        silences the whole stream from its first frame and
        .B on=0
        passes it through (bypassed).
        With
        .BR at= ,
        .B on=
        is the state outside the intervals, and
        .B on=1
        (which would mute everything) is refused with status 64.
        .B on=
        is live:
        .B \-\-control
        can set it while running, and the change fades over
        .BR ramp= .
        .TP
        .BI ramp= DURATION
        Fade length at each change; a bare number is in milliseconds.
        0 to 1000 ms; a frame count may be at most one second of frames at the
        stream's rate.
        Default
        .BR 20ms .
        With
        .I R
        the ramp in frames (rounded to the nearest frame, at least 1), a mute that
        starts at frame
        .I A
        has gain 1\-k/R at frame A+k\-1 and is silent from frame A+R\-1; an unmute at
        frame
        .I B
        is back to full level at frame B+R\-1.
        A change that comes before a fade has finished turns the fade around from where
        it is.
        The state at the first frame applies without a fade.
        .TP
        .BI at= START \- END\fR[\fB,\fISTART\fB\-\fIEND\fR]...
        Intervals of stream time to mute, from
        .I START
        up to but not including
        .IR END .
        Bare numbers are seconds;
        .BR ms ,
        .B s
        and frame counts
        .RB ( 480f\-960f )
        work too.
        .I END
        must come after
        .IR START ;
        without it
        .RB ( at=30\- )
        the interval runs to the end of the stream.
        Overlapping or touching intervals merge.
        No default.
        Times become frames by rounding to the nearest frame: timing follows the stream,
        not the wall clock, and is sample\-exact.
        .TP
        .BI signal= SIGNAL
        .B usr1
        or
        .BR usr2 :
        every SIGUSR1 (or SIGUSR2) that arrives while running toggles
        .BR on= ;
        the change starts at the next block and fades over
        .BR ramp= .
        Two mutes can listen to different signals.
        No default.
        A mute with
        .B signal=
        is never bypassed.
        """#
}
