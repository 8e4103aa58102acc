import AUPipeFormats
import AUPipeGraph

extension LimiterUnit {
    /// The limiter section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        A look\-ahead brickwall limiter, the one
        .B loudnorm
        uses.
        Per frame, the gain the loudest channel needs to stay at or below the ceiling:
        from its sample peak, or with
        .B true\-peak=1
        from its 4x oversampled peak (49\-tap Hann\-windowed sinc, the design of
        libebur128's true\-peak meter, aiming 0.2 dB below the ceiling for the
        difference between meters).
        The smallest gain over the look\-ahead, released with the
        .B release=
        time constant and averaged over
        .BR lookahead= ,
        is down to what a peak needs when the peak comes out; channels share one gain.
        On float output no sample exceeds the ceiling: a last clamp catches rounding,
        and counts what it changes.
        Length is exact and delay is zero: the look\-ahead (plus 12 frames with
        .BR true\-peak=1 )
        is compensated at the start and flushed at the end.
        .IP
        .B ceiling
        is live;
        .B get limiter.reduction
        reads the gain reduction now (dB);
        .B \-\-stats
        prints the deepest
        .RB ( reductionDB ,
        .BR maxReductionDB ,
        .BR clampedSamples ).
        .TP
        .BI ceiling= NUMBER
        (bare value)
        No sample (with true\-peak=1, no 4x oversampled peak) leaves above this, in
        dBFS, \-30 to 0; live.
        Default
        .BR \-1 .
        .TP
        .BI true\-peak= 0 | 1
        Limit the true peak instead of the sample peak.
        Default
        .BR 0 .
        .TP
        .BI lookahead= DURATION
        The ramp before a peak, 0 to 100 ms (at least one frame); compensated.
        Default
        .BR 5ms .
        .TP
        .BI release= DURATION
        Time constant of the gain's return after a peak, 1 to 5000 ms.
        Default
        .BR 50ms .
        """#
}
