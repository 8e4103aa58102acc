extension ManualText {
    /// COMMANDS: info, units, help, plugins, demo, gen, completions, manual, compare. (part 3 of 3)
    package static let commands3 = #"""
        .TP
        RMS difference
        10\(mulog10(\(*S (A\-B)^2 / (frames \(mu channels)) dBFS.
        .TP
        SNR
        The ratio of
        .I A
        (the signal) to the difference, 10\(mulog10(\(*S A^2 / \(*S (A\-B)^2) dB:
        infinite for identical streams, minus infinity when
        .I A
        is silent and
        .I B
        is not.
        .TP
        non\-finite
        NaN and infinities, in A and in B: how many, and the frame and channel of the
        first.
        A NaN equals a NaN and an infinity the infinity of the same sign; where one
        stream has a non\-finite sample and the other does not have the same value,
        the streams differ whatever the tolerance.
        An unmatched one makes the difference infinite: the largest difference and
        the RMS difference are then inf, and the SNR \-inf.
        .TP
        first difference
        The frame and channel of the first sample that differs at all, with the two
        values.
        .PP
        The verdict: streams of different rates or channel counts cannot be compared
        sample by sample (their samples are not read).
        Different sample types (s16le against f32le, u16le against s16le) cannot be
        compared either unless
        .BR \-\-ignore\-format ;
        byte order alone is no difference.
        Different lengths differ unless
        .B \-\-allow\-length
        allows the difference; even then, nothing passes when no frame was compared
        (one stream is empty).
        Then a sample that is NaN or infinite in one stream only differs, and,
        without a tolerance, only identical samples pass; with tolerances, every one
        given must hold.
        The first reason found is reported.
        Options take their value as the next word or after
        .BR = :
        .TP
        .BI \-\-in\-format " SPEC"
        The format of a headerless input, A or B or both, as under
        .BR "FORMAT SPEC" .
        Raw input is refused without it (status 65).
        An input with a CAF, WAV or AU header uses its header, whatever
        .I SPEC
        says.
        .TP
        .BI \-\-max\-lsb " N"
        Pass when the largest difference is at most
        .I N
        LSB of the coarser encoding; a number, 0 to 10^12.
        .TP
        .BI \-\-max\-diff\-db " DB"
        Pass when the largest difference is at most
        .I DB
        dBFS, \-400 to 20; the value may carry its unit, as a unit's parameter does
        .RB ( \-80dB ).
        .TP
        .BI \-\-min\-snr " DB"
        Pass when the SNR is at least
        .I DB
        dB, \-400 to 400
        .RB ( 90dB
        too).
        .TP
        .BR \-\-allow\-length [= \fIN\fR | \fIP\fB% ]
        When the lengths differ, compare the common part (the first frames of the
        longer stream) instead of failing, if the difference is at most
        .I N
        frames
        .RB ( \-\-allow\-length=480 ,
        or
        .BR 480f ),
        or at most
        .I P
        percent of the length of
        .I A
        (0 to 100, rounded down to whole frames:
        .BR \-\-allow\-length=1% ).
        Alone, the option allows at most 1 % of the length of
        .I A
        .RB ( \-\-allow\-length=1% :
        enough for an encoder's padding on a clip of a few seconds), so that a
        truncated output does not pass a golden test.
        The bound is given after
        .B =
        only, so that the option alone never takes a path for its value.
        Whatever the bound, a comparison in which one stream is empty (no frame
        compared) does not pass, and a report of streams whose lengths differ never
        says identical.
        .TP
        .B \-\-ignore\-format
        When the sample types differ, compare the decoded samples instead of failing;
        an LSB is then one of the coarser encoding (s16le against f32le: 2^\-15).
        .TP
        .B \-\-json
        Print one line of JSON instead of text.
        .PP
        The text report of
        .BR "aupipe compare a.wav c.wav \-\-max\-lsb 1" ,
        where c.wav is a.wav made 0.0001 dB quieter:
        .PP
        .RS
        .EX
        A: a.wav: wav s16le:48000:1, 48000 frames
        B: c.wav: wav s16le:48000:1, 48000 frames
        max difference: 1 LSB of s16le (\-90.31 dBFS) at frame 10, channel 0
        rms difference: \-98.09 dBFS
        snr: 92.08 dB
        first difference: frame 10, channel 0: A 0.683837890625, B 0.683807373046875
        result: within tolerance
        .EE
        .RE
        .PP
        Figures are rounded to 0.01, infinities print as
        .B inf
        and
        .BR \-inf ,
        and the sample values are given in full.
        Identical samples give
        .B "max difference: 0 (no difference in N compared frames)"
        and no first difference.
        When the lengths differ, a line
        .B "compared: the first N frames (lengths differ by D frames)"
        comes before the figures; when either stream holds NaN or infinities, a line
        .B "non\-finite (NaN, inf): A ...; B ...; in one stream only: ..."
        follows them.
        The last line is
        .B "result: identical"
        (equal lengths, every sample equal),
        .B "result: within tolerance"
        (some samples differ, or the lengths do, within what was allowed: then it
        says by how much),
        .BI "result: differ: " REASON
        or, for streams that cannot be compared,
        .B "result: cannot compare"
        after the first two lines, with the reason on standard error.
        .B \-\-json
        prints the same as one object, with figures unrounded (whole numbers without
        a fraction), and paths escaped as JSON asks (see
        .BR STATISTICS ):
        .PP
        .RS
        .EX
        {"a":{"path":"a.wav","container":"wav","format":"s16le:48000:1",
         "frames":48000},"b":{...},"compared":true,"framesCompared":48000,"lsbOf":"s16le",
         "maxDifferenceLSB":1,"maxDifferenceDBFS":\-90.30899869919436,
         "rmsDifferenceDBFS":\-98.0905112030308,"snrDB":92.08022182183697,
         "maxAt":{"frame":10,"channel":0},"firstDifference":{"frame":10,
         "channel":0,"a":0.683837890625,"b":0.683807373046875},
         "nonFinite":{"a":{"count":0},"b":{"count":0},"mismatched":{"count":0}},
         "identical":false,"pass":true,"status":0,"reason":null,"failure":null}
        .EE
        .RE
        .PP
        (the same comparison, broken into lines here);
        .B maxAt
        and
        .B firstDifference
        appear only when some sample differs (with
        .B aText
        and
        .B bText
        giving a non\-finite value as
        .BR nan ,
        .B inf
        or
        .BR \-inf ,
        where
        .B a
        or
        .B b
        is
        .BR null ).
        .B compared
        is false when the samples were not read; then the frame counts and every
        figure are
        .B null
        (never 0), and so are the figures when no frame was compared.
        JSON has no infinity: an infinite figure (the
        .B snrDB
        of identical streams,
        .B maxDifferenceDBFS
        and
        .B rmsDifferenceDBFS
        of equal samples) is the largest double, 1.7976931348623157e+308, with the
        sign of the infinity (as
        .BR jq (1)
        writes infinity), so that
        .B "jq \-e \(aq.snrDB >= 90\(aq"
        holds for identical streams and not for a silent
        .IR A ;
        .B identical
        tells identical streams apart.
        .B status
        is the exit status,
        .B failure
        the reason in words and
        .B reason
        a word for scripts, both
        .B null
        when
        .B pass
        is true:
        .BR lengths\-differ ,
        .B nothing\-compared
        (one stream is empty),
        .BR non\-finite\-differ ,
        .B samples\-differ
        (no tolerance given),
        .BR max\-lsb ,
        .B max\-diff\-db
        and
        .B min\-snr
        (the tolerance that failed) with status 1;
        .B formats\-differ
        (rate or channels) and
        .B encodings\-differ
        with status 65.
        When an input cannot be opened or read,
        .B \-\-json
        still prints an object, with the paths,
        .BR compared ,
        .BR identical " and " pass
        false, the status, and the reason
        .B cannot\-open
        (66),
        .B bad\-input
        (65) or
        .B read\-error
        (74).
        .PP
        Exit status: 0 when the streams agree within the tolerance (or are identical
        when none is given), 1 when they were compared and differ; never 0 when they
        differ, even when the reader of the report went away (EPIPE, as in
        .BR "aupipe compare a b | true" ).
        Streams that cannot be compared give the sysexits status of the cause, as
        .B aupipe
        does, with a message on standard error: 64 for a usage
        error (an unknown option, a value out of range, not exactly two inputs, both
        of them
        .BR \- ),
        65 for streams whose rates, channel counts or sample types (without
        .BR \-\-ignore\-format )
        differ, and for bad input data (no header and no
        .BR \-\-in\-format ,
        a malformed header, a stream that ends mid\-frame or short of its declared
        size: an error, not a difference), 66 for an input that cannot be opened, 74
        for a failed read.
        A script tells the three apart with the status alone: 0 pass, 1 differ, more
        than 1 not compared.
        """#
}
