import AUPipeFormats
import AUPipeGraph

extension EchoCancellerUnit {
    /// Of `manualText`: the plot.
    package static let manualPlot = #"""
        .PP
        .I The plot.
        .B plot=
        writes, at the end, one SVG (no script, no external font) with three panels
        on a shared time axis (stream time in seconds): the ERLE in dB (the
        microphone's energy over the output's, as in the note above, over the frames
        with echo in each point), the delay the reference has in the canceller in ms
        .RB ( delay=
        or
        .BR auto 's,
        plus what the drift compensation has added), and the drift in ppm; double
        talk is shaded in each.
        Points are every 100 ms (the whole number of frames nearest it); a run longer
        than five minutes keeps between 1500 and 3000 points: when the buffer is
        full, neighbouring points are merged in pairs (energies summed, means
        averaged) and each covers twice as long from then on, so memory stays bounded
        however long the stream.
        How to read it: a canceller that converges shows an ERLE trace that climbs
        within a second or two of the far end starting and stays high (30 dB and
        more) while the far end plays, with gaps where it is silent; double talk
        shows as shaded spans where the ERLE dips (the near end's speech is in the
        output, as it should be) and comes back when they end; an echo\-path change
        as a dip (shaded too: it reads as double talk) that climbs back within a
        second or so, when the shadow canceller takes over (the
        .B \-\-stats
        note gives the time).
        Compensated clock drift shows as a straight ramp of the delay (1 ms per
        second at 1000 ppm; down for a negative drift) and a flat drift trace at its
        value after the first seconds; drift left uncompensated
        .RB ( drift=off )
        as an ERLE that sinks over the run while the delay stays flat.
        .PP
        While running,
        .B \-\-control
        answers
        .B get aec.erle
        with the ERLE so far in dB
        .RB ( n/a
        until there has been half a second of echo, as above),
        .B get aec.delay
        with the delay in use
        .RB ( 90ms ),
        and
        .B get aec.drift
        with the drift in ppm
        .RB ( 998.8ppm ;
        .B n/a
        before an estimate, or with
        .BR drift=off ).
        None of
        .BR aec 's
        parameters can change while running.
        """#
}
