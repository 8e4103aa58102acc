import AUPipeFormats
import AUPipeGraph

extension EchoUnit {
    /// The echo section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Repeating echoes, as Core Audio's AUDelay, sox's
        .B echo
        and ffmpeg's
        .B aecho
        make them.
        Per channel, w[n] = x[n \- D] + feedback \(mu w[n \- D], and the output is
        (1 \- mix) x[n] + mix w[n].
        .TP
        .BI delay= DURATION
        (bare value)
        D, the time between echoes, 1 to 10000 ms (a bare number in ms), rounded to whole
        frames.
        Default 250ms.
        .TP
        .BI feedback= NUMBER
        Each echo's gain relative to the one before, 0 to 0.999 (below 1, or the echoes
        would never decay).
        Default 0.4.
        .TP
        .BI mix= NUMBER
        The share of the echoes in the output, 0 to 1: 0 is dry, 1 the echoes only.
        Default 0.3.
        .TP
        .BI lowpass= HZ
        A one\-pole low\-pass in the feedback path (y += a (x \- y), a = 1 \- e^(\-2\(*p f/rate)),
        so each repeat is duller than the one before; 10 to 384000 Hz, below half the rate.
        No default: off unless given.
        .TP
        .BI extend= BOOLEAN
        Default 0: the length is kept.
        1 keeps the tail until the echoes have decayed by 120 dB:
        D \(mu (1 + \(lceil log(10^\-6) / log(feedback) \(rceil) frames, at most 60 s.
        .PP
        .BR delay= ,
        .B feedback=
        and
        .B mix=
        are live.
        feedback and mix glide linearly over 10 ms; a new delay crossfades over 10 ms
        from the old read point to the new one, both reading the same history, so it
        neither clicks nor changes pitch; while running, delay may reach the longest of
        its value at the start and 1 s.
        """#
}
