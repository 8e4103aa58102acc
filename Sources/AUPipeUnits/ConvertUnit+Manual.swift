import AUPipeFormats
import AUPipeGraph

extension ConvertUnit {
    /// The convert section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Changes the sample encoding, the channel count or the channel order (the
        AUConverter).
        At least one parameter is needed.
        .TP
        .BI format= TOKEN
        (bare value)
        Sample encoding from this point on: a format token or alias as under
        .BR "FORMAT SPEC" .
        No default.
        The samples are quantized to it here (round to nearest, ties to even, clipped
        and counted; G.711 through 16\-bit linear), so later units see what a file of
        that format would hold; a float encoding leaves them as they are.
        The output is written in this encoding unless
        .B \-\-out\-format
        gives one, and the output container must be able to hold it (status 64
        otherwise: WAV takes no
        .BR s8 ,
        AU no
        .BR u8 ).
        As the last unit, with no channel change and nothing after it from
        .BR \-\-out\-format ,
        the output's encoder rounds to this encoding the same way, so the unit leaves
        it to the encoder (whose clipped samples
        .B \-\-stats
        counts in its output line) and shows as bypassed: alone, it converts as
        .B \-\-out\-format
        does, so u32le to
        .B s32le
        is exact.
        .TP
        .BI channels= N
        Output channel count, an integer from 1 to 64.
        No default.
        Without
        .BR map= :
        the same count keeps the channels;
        1 to
        .I N
        copies the mono channel into all
        .IR N ;
        .I N
        to 1 averages the channels (their sum divided by
        .IR N );
        any other change is an error that asks for
        .BR map= .
        With
        .BR map= ,
        the two must name the same count.
        .TP
        .BI map= LIST
        For each output channel, the input channel it takes, counted from 0 and
        separated by commas: output channel
        .I i
        takes input channel
        .RI map[ i ].
        1 to 64 entries, each 0 to 63 and below the stream's channel count.
        No default.
        .B 1,0
        swaps a stereo pair,
        .B 0,0
        copies the left channel into both,
        .B 1
        picks the right.
        """#
}
