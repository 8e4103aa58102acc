import AUPipeFormats
import AUPipeGraph

extension DelayUnit {
    /// The delay section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Delays channels, each by its own time, as sox's
        .B delay
        and ffmpeg's
        .B adelay
        do, with fractions of a frame.
        .TP
        .BI delays= DURATION\fR[\fB,\fIDURATION\fR]...
        (bare value)
        One delay for every channel, or one per channel, in ms, s or frames
        .RB ( 10ms ,
        .BR 0.5s ,
        .BR 480f ),
        each 0 to 10 s; a bare number must be 0 (sox reads a bare number as seconds,
        aupipe's durations as milliseconds, so neither is guessed).
        .B "delay 0,2.5ms"
        delays the second channel of a stereo stream by 2.5 ms.
        Default 0f (no delay).
        A fraction of a frame is interpolated with a 64\-tap Kaiser\-windowed sinc
        (\(*b = 10): up to 0.45 times the rate the result differs from the ideal
        fractional shift by less than \-90 dB; above, the response falls towards the
        Nyquist frequency.
        Whole frames are copied exactly.
        Live: a change made with
        .B \-\-control
        crossfades linearly over 10 ms from the old delay to the new one, both read from
        the same history, so it neither clicks nor changes pitch; while running, a delay
        may reach the longest of those given at the start and 1 s.
        .TP
        .BI extend= BOOLEAN
        Default 0: the length is kept, the delayed start is silence and what is delayed
        past the end is dropped.
        1 keeps that tail, as sox does: the output is longer by the longest delay,
        rounded up to a whole frame.
        .PP
        The delay is the unit's purpose, not latency: an impulse on frame k comes out on
        frame k + delay.
        The interpolation looks 31 frames ahead; that latency is compensated like any
        unit's, and adds 31 frames to a live run.
        """#
}
