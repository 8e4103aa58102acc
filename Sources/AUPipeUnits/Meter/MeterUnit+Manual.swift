import AUPipeFormats
import AUPipeGraph

extension MeterUnit {
    /// The meter section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Passes the stream through byte for byte and measures it with libebur128
        (ITU\-R BS.1770\-4, EBU R128 gating), over all channels: integrated loudness
        (LUFS), loudness range (LU, EBU Tech 3342), momentary (400 ms) and short\-term
        (3 s) loudness, true peak (dBTP, oversampled), sample peak and RMS (dBFS).
        .B \-\-stats
        prints them at the end
        .RB ( integratedLUFS ,
        .BR loudnessRangeLU ,
        .BR truePeakDBTP ,
        .BR samplePeakDBFS ,
        .BR rmsDBFS ,
        and
        .B nonFiniteSamples
        in
        .BR \-\-stats=json );
        .B \-\-control
        reads them while running:
        .BR "get meter.integrated" ,
        .BR meter.momentary ,
        .BR meter.shortterm ,
        .BR meter.range ,
        .BR meter.truepeak ,
        .BR meter.peak ,
        .BR meter.rms .
        Gated figures are counted in 0.1 LU bins (libebur128's histogram mode, which
        allocates nothing while the stream runs); they agree with ffmpeg's
        .B ebur128
        within 0.1 LU where both weight the channels alike.
        A NaN or infinite sample in float input is measured as its channel's sample
        before it (the audio passes as it is): it barely moves the figures, is counted
        .RB ( nonFiniteSamples ,
        and in the
        .B \-\-stats
        line), and the first one is reported on stderr with its time and channel.
        .IP
        Each channel is weighted as ITU\-R BS.1770\-4 says for where it plays, from
        the input's WAV channel mask or CAF channel layout, or else the default layout
        for the channel count (the one aupipe writes: mono, stereo, quad, 5.1 as FL FR
        FC LFE BL BR, 7.1 as FL FR FC LFE BL BR SL SR, otherwise the first mask bits);
        a unit that changes the channel count hands on the default layout for the new
        count.
        Front and centre channels weigh 1.0; side and surround channels in the
        horizontal plane between 60\(de and 120\(de of azimuth (WAV SL and SR, CAF
        Ls, Rs, Lsd, Rsd, Lw, Rw; and WAV BL and BR in a mask without SL and SR, which
        are the 110\(de surrounds of 5.1 and quad) weigh 1.41; back channels beyond
        120\(de (WAV BL and BR beside SL and SR, at 135\(de, and BC at 180\(de; CAF
        Rls, Rrs, Cs) and height channels weigh 1.0; LFE channels are left out; a
        channel with no position (beyond the mask's bits) weighs 1.0.
        This differs from ffmpeg's
        .BR ebur128 ,
        which weighs every back channel 1.41: it hears the rear pair of 7.1 (BL, BR
        beside SL, SR) and BC 1.5 dB louder (10\(mulog10 1.41); 5.1 and quad read
        the same in both.
        A CAF with Core Audio's MPEG_7_1_C tag (which aupipe and ffmpeg before 7.0
        write for 7.1) is read as the WAV 7.1 those writers mean.
        .TP
        .BI every= DURATION
        Write one JSON line of levels per interval of stream time; a bare number is in
        seconds.
        0.1 to 3600 s (100 to 3600000 ms).
        No default: no lines, or
        .B 1s
        when
        .B to=
        is given.
        Each line is
        .br
        \%{"t":SECONDS,"momentary":LUFS,
        .br
        \%"shortterm":LUFS,"integrated":LUFS,"range":LU,
        .br
        \%"truepeak":dBTP,"peak":dBFS,"rms":dBFS}
        .br
        (one line),
        keys always in that order,
        .B t
        the stream time at the end of the interval,
        .BR truepeak ,
        .B peak
        and
        .B rms
        over the interval,
        .B null
        for silence; a part interval at the end gets a last line.
        .TP
        .BI to= PATH
        Where the lines go: a file, a FIFO or
        .BR >(command) .
        No default: stderr.
        A FIFO or pipe never stalls the stream: a line its reader has no room for is
        dropped whole (counted in
        .BR \-\-stats ),
        and lines before a reader opens it are dropped.
        It may not be the input, the output or a side input (status 64).
        .TP
        .BI plot= PATH
        Draw momentary and short\-term loudness and true peak, every 100 ms (and at
        the end of a last part interval), over stream time into an SVG file at the end
        (axes in seconds and LUFS/dBTP); a point with no neighbour is drawn as a dot.
        A regular file whose name ends in
        .B .svg
        (another extension, a FIFO or a device is refused with status 64 before the
        stream starts: the plot is written whole at the end, as SVG).
        No default.
        """#
}
