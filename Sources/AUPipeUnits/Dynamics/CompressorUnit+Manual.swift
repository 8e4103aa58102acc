import AUPipeFormats
import AUPipeGraph

extension CompressorUnit {
    /// The compressor section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        A feed\-forward compressor.
        The level is read per frame: with
        .B detector=rms
        as 2 x the mean square over the last 10 ms, with
        .B detector=peak
        as the largest square of the last 10 ms (held 10 ms, so a 50 Hz wave reads its
        peak between crests); both read a full\-scale sine as 0 dBFS, as AES17 does.
        .B link=max
        or
        .B mean
        gives all channels one gain (from the loudest channel's level, or the mean of
        the levels as powers);
        .B none
        one per channel.
        .IP
        The curve, with threshold T, ratio R and knee width W (Giannoulis, Massberg and
        Reiss, JAES 2012): below T \- W/2 the gain is 0 dB; above T + W/2 the output is
        T + (x \- T)/R; in between x + (1/R \- 1)(x \- T + W/2)^2/(2W).
        .IP
        .B attack=
        and
        .B release=
        are time constants of the gain in dB: after a step of the level, the gain covers
        63 % (1 \- 1/e) of its way in that time (a one\-pole filter on the gain in dB, with
        the attack's coefficient while the gain falls and the release's while it rises).
        With
        .B detector=peak
        a release starts when the loudest peak leaves the 10 ms window; with
        .B detector=rms
        the level itself takes the 10 ms window to rise to a step, which adds to a short
        attack (attack=5ms measures about 7.6 ms on a step of the input).
        .IP
        .B lookahead=
        delays the stream and not the level, so the gain comes down before a peak;
        the delay is compensated at the start and flushed at the end: the length is
        exact and output frame k is input frame k times a gain.
        .IP
        .B sidechain=
        reads the level from another input instead of the stream (music ducked under
        a voice), converted to the stream's rate and channel count (1 to N copies, N
        to 1 averaged) as a
        .B mix
        bus is; after its end it is silence (no reduction).
        .IP
        .BR threshold ,
        .BR ratio ,
        .B knee
        and
        .B makeup
        are live;
        .B get compressor.reduction
        reads the gain reduction now (dB) and
        .B compressor.deepest\-reduction
        the deepest so far.
        .B \-\-stats
        prints both
        .RB ( reductionDB ,
        .B maxReductionDB
        and, with a side chain,
        .B lateFrames
        in
        .BR \-\-stats=json );
        .B plot=
        draws the gain over stream time (the deepest of every 10 ms) into an SVG file
        at the end.
        .TP
        .BI threshold= NUMBER
        (bare value)
        Level above which the gain comes down, in dBFS, \-90 to 0; live.
        Default
        .BR \-20 .
        .TP
        .BI ratio= NUMBER
        R dB in above the threshold give 1 dB out, 1 to 100; live.
        Default
        .BR 4 .
        .TP
        .BI knee= NUMBER
        Width of the soft knee around the threshold, in dB, 0 to 40 (0: hard knee); live.
        Default
        .BR 6 .
        .TP
        .BI attack= DURATION
        Time constant of the gain coming down, 0 to 2000 ms.
        Default
        .BR 10ms .
        .TP
        .BI release= DURATION
        Time constant of the gain going back up, 0 to 10000 ms.
        Default
        .BR 100ms .
        .TP
        .BI makeup= NUMBER | auto
        Gain added after the compression, in dB, \-40 to 60, or
        .B auto
        (the gain that brings a 0 dBFS input back to 0 dBFS: \-(T + (0 \- T)/R) with
        the knee); live.
        Default
        .BR 0 .
        .TP
        .BI detector= rms | peak
        The level read, as above.
        Default
        .BR rms .
        .TP
        .BI link= max | mean | none
        How channels share the gain, as above.
        Default
        .BR max .
        .TP
        .BI lookahead= DURATION
        How long before the level the gain acts, 0 to 500 ms; compensated.
        Default
        .BR 0ms .
        .TP
        .BI sidechain= PATH\fR[\fP,format=SPEC\fR]\fP
        The input the level is read from: a file, a FIFO or <(command); raw input needs
        .BR format= .
        No default: the stream's own level.
        .TP
        """# + "\n" + LiveSetting.manual(what: #"Whether a FIFO or pipe sidechain= is read in real time (without blocking)"#,
                                                 on: #"reads it without blocking in any run (late frames are silence);"#,
                                                 off: #"waits for it in any run (the same bytes on every run)."#) + "\n" + #"""
        .TP
        .BI plot= FILE.svg
        Draw the gain over stream time into this SVG file at the end.
        No default.
        """#
}
