extension ManualText {
    /// STATISTICS.
    package static let statistics = #"""
        .SH STATISTICS
        .B \-\-stats
        prints, on standard error after the run, one line for the input, one per unit
        in chain order, and one for the output:
        .PP
        .RS
        .EX
        aupipe: stats: input  wav s16le:44100:2, 132300 frames
        aupipe: stats: 1 resample: in 132300, out 144000, peak \-6.03 dBFS, clipped 0; 44100 Hz \-> 48000 Hz, soxr quality high, filter latency 921 input frames (compensated)
        aupipe: stats: 2 gain: bypassed (nothing to do for this stream)
        aupipe: stats: output wav s16le:48000:2, 144000 frames, clipped 0, header sizes patched
        .EE
        .RE
        .PP
        For each unit: frames in and out, the peak of its output in dBFS (to 0.01 dB,
        always with two decimals, as in
        .BR "\-9.00 dBFS" ;
        \-inf for silence), the samples it clipped (only
        .B convert format=
        and
        .BR mix 's
        .B overload=
        clip; the 16\-bit conversion inside
        .BR aec ,
        .B agc
        and
        .B denoise
        clips at full scale, counted as the unit's clipped samples), and a note of its own (the
        resampler's rates, quality and compensated latency;
        .BR mix 's
        buses, see
        .BR mix ;
        .BR aec 's
        ERLE, the convergence time, the delay it used, found or changed, with its
        confidence and the history its canceller was warm\-started from, and where
        a reference ended early, see
        .BR aec ).
        The output line gives the samples the output encoder clipped, says
        .B header sizes patched
        when it patched them, and
        .BI "non\-finite " N
        when
        .I N
        samples written to a float output were NaN or infinite
        .RB ( nonFinite
        in JSON, always there).
        Those are also reported without
        .BR \-\-stats ,
        by one line on standard error after the run:
        .BI "aupipe: warning: NaN or infinite values reached the f32le output: " N " samples, the first at frame " F ", channel " C
        (the run's status does not change).
        An integer output writes NaN as 0 and clips infinities (counted as clipped).
        .B \-\-stats=json
        prints the same as one line of JSON:
        .PP
        .RS
        .EX
        {"input":{"path":"\-","container":"wav","format":"s16le:48000:2","frames":144000},
         "units":[{"name":"resample","bypassed":false,"framesIn":144000,
         "framesOut":48000,"peakDBFS":\-9.44,"clipped":0,"note":"..."}],
         "output":{"path":"out.wav","container":"wav","format":"s16le:16000:2","frames":48000,
         "clipped":0,"nonFinite":0,"sizesPatched":true,"closedByReader":false},"status":0,
         "error":null}
        .EE
        .RE
        .PP
        (broken into lines here);
        .B status
        is the run's exit status and
        .B error
        its error message
        .RB ( null
        on success): the figures of a run that failed after its stream was written
        (an input cut short, 65) say so, and
        .B "jq \-s 'map(select(.status == 0))'"
        leaves such runs out of a batch's summary;
        .B path
        is the input or output as given
        .RB ( \-
        for standard input or output; no input
        .B path
        with
        .B \-\-capture
        or for
        .BR gen ),
        so that the lines of a batch, one per run, tell the runs apart when
        .B "jq \-s"
        gathers them (see EXIT STATUS for what a batch should retry).
        .B peakDBFS
        is
        .B null
        for silence.
        Strings are escaped as RFC 8259 asks (a tab in a path is
        .BR \et ,
        other control characters
        .BR \eu00XX ),
        so any path gives valid JSON.
        A unit with figures of its own adds
        .BR figures ,
        an object of numbers:
        .BR aec 's
        .B erleDB
        and
        .B erleMedianDB
        .RB ( null
        when no echo was measured),
        .B convergedAtSeconds
        .RB ( null
        when it never converged),
        .B delayMS
        and
        .B driftPPM
        .RB ( null
        with
        .B drift=off
        or before an estimate).
        .BR aec
        also adds
        .BR series ,
        its figures over stream time as in its plot: an object of arrays of equal
        length,
        .B t
        (the end of each point, seconds),
        .B erleDB
        .RB ( null
        for a point without echo),
        .BR delayMS ,
        .B driftPPM
        .RB ( null
        before an estimate) and
        .B doubleTalk
        (the share of the point's time in double talk, 0 to 1).
        A run with sound devices adds a line per device (text) or
        .B devices
        (JSON: per device
        .BR role ,
        .BR name ,
        .BR format ,
        .BR periodFrames ,
        .BR bufferFrames ,
        .BR xruns ,
        .BR note ),
        and the gaps of devices that went away and came back (see DEVICE LOSS).
        The figures are printed also when the stream ended mid\-frame or short of its
        declared size, or a device was lost, before the error line, and when the
        reader closed the output early (the output then says
        .B closed by its reader before the end
        and JSON's
        .B closedByReader
        is true).
        """#
}
