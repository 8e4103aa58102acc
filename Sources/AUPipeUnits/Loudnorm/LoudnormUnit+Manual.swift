import AUPipeFormats
import AUPipeGraph

extension LoudnormUnit {
    /// The loudnorm section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Single\-pass loudness normalisation for streams: a slowly moving gain brings
        the loudness (ITU\-R BS.1770\-4 with EBU R128 gating, measured with libebur128,
        each channel weighted by where it plays as
        .B meter
        does) to
        .B target=
        LUFS, and a look\-ahead limiter keeps the true peak (4x oversampled) at or
        below
        .B true\-peak=
        dBTP.
        .IP
        The gain has two parts.
        Every 100 ms of stream time the first aims at the target minus the input's
        integrated loudness so far and moves towards it by at most 12 dB per second;
        in the first 400 ms, before the input has a gated loudness, it aims at the
        loudness heard so far (0 dB before 100 ms) and moves at up to 60 dB per second
        until it first gets there.
        The second keeps at most
        .B range=
        LU of dynamics: where the current loudness (the louder of short\-term, 3 s,
        and momentary, 400 ms) is more than range/2 LU from the integrated loudness,
        it brings it back to range/2 LU from the target, moving at most 3 dB per second
        up and 10 dB per second down; quiet passages are lifted only partly.
        In silence and pauses (below \-70 LUFS, or 20 LU below the integrated
        loudness) the gain holds; it stays within \-30 and +30 dB.
        .IP
        The limiter looks 10 ms ahead: per frame, the 4x oversampled peak (49\-tap
        Hann\-windowed sinc, the design of libebur128's true\-peak meter) gives the
        gain that frame needs; the smallest over the look\-ahead window, released with
        a 200 ms time constant and averaged over 10 ms, is down to what a peak needs
        when the peak comes out.
        It aims 0.2 dB below the ceiling, for the difference between true\-peak meters
        (ffmpeg's
        .B ebur128=peak=true
        reads the output at or below the ceiling).
        Length is exact and delay is zero: the look\-ahead (10 ms and 11 frames: 491
        frames at 48 kHz, as
        .B \-\-stats
        shows) is
        compensated at the start and flushed at the end, so output frame k is input
        frame k times a gain; the same input gives the same bytes at any block size.
        .IP
        .BR target ,
        .B true\-peak
        and
        .B range
        are live
        .RB ( "set loudnorm.target \-20" );
        .BR "get loudnorm.gain" ,
        .B loudnorm.input\-integrated
        and
        .B loudnorm.output\-integrated
        read the gain and the loudness while running.
        .B \-\-stats
        prints the input's and the output's integrated loudness (LUFS), loudness range
        (LU) and true peak (dBTP), the gain at the end and the limiter's deepest
        reduction
        .RB ( inputIntegratedLUFS ,
        .BR inputLoudnessRangeLU ,
        .BR inputTruePeakDBTP ,
        .BR outputIntegratedLUFS ,
        .BR outputLoudnessRangeLU ,
        .BR outputTruePeakDBTP ,
        .BR gainDB ,
        .BR limiterMaxReductionDB ,
        .B nonFiniteSamples
        in
        .BR \-\-stats=json ).
        NaN and infinite input samples are measured as the sample before them, counted and reported as by
        .BR meter ;
        they pass through as they are.
        Unlike ffmpeg's
        .BR loudnorm ,
        which needs two passes over a file to be exact, this is one pass with 10 ms of
        look\-ahead: the first seconds follow a loudness that is still being measured.
        .TP
        .BI target= NUMBER
        (bare value)
        Integrated loudness to aim at, in LUFS, \-70 to \-5; live.
        Default
        .BR \-16 .
        .TP
        .BI true\-peak= NUMBER
        The output's true peak stays at or below this, in dBTP, \-9 to 0; live.
        Default
        .BR \-1.5 .
        .TP
        .BI range= NUMBER
        Largest loudness range kept, in LU, 1 to 50; live.
        Default
        .BR 7 .
        """#
}
