import AUPipeFormats
import AUPipeGraph

extension SilenceUnit {
    /// The silence section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Trims the silence at the ends of the stream and shortens long pauses; kept samples
        pass unchanged.
        Its output is shorter than its input: that is its purpose.
        .BR threshold= ,
        .B hold=
        and
        .B keep=
        are live
        .RB ( keep=
        up to its value at the start, which sized the memory);
        .B get silence.cuts
        reads the cuts so far,
        .B silence.removed
        the seconds of input they removed.
        .TP
        .BI threshold= LEVEL
        (bare value)
        A frame is loud when its sample peak over the channels reaches this level:
        dBFS, \-120...0
        .RB ( \-50dB ),
        or dB below the running loudness, \-60...0
        .RB ( \-30rel ),
        where the running loudness is the mean power of every frame so far whose peak is
        above \-70 dBFS (EBU R128's absolute gate).
        Default
        .BR \-50dB .
        .TP
        .BI hold= DURATION
        A loud frame and the frames of this length after it are sound, the rest quiet:
        it bridges a word's zero crossings and short stops.
        0 to 1000 ms.
        Default
        .BR 20ms .
        .TP
        .BI trim= WHICH
        .BR start,end ,
        .BR start ,
        .B end
        or
        .BR none :
        the quiet run before the first sound is cut down to its last
        .BR pad= ,
        the one after the last sound to its first
        .BR pad= .
        Default
        .BR start,end .
        .TP
        .BI pause= DURATION
        Any other quiet run longer than this is cut down to
        .BR keep= :
        its first half (rounded up) and its last half.
        10 to 60000 ms.
        Default
        .BR 1s .
        The run is held until it ends, so the output lags by up to
        .BR pause= ;
        memory is
        .B pause=
        plus
        .B keep=
        frames, however long the silence.
        .TP
        .BI keep= DURATION
        0 to 60000 ms, at most
        .BR pause= .
        Default
        .BR 250ms .
        .TP
        .BI pad= DURATION
        0 to 10000 ms.
        Default
        .BR 100ms .
        .TP
        .BI events= PATH
        One JSON line per cut, to a file, a FIFO or
        .BR >(command) ,
        or
        .B \-
        for stderr:
        {"cut":{"start":S,"end":E},"seconds":[S/rate,E/rate],"output":O},
        S and E frames of the input (E excluded), O the output frame where the cut falls.
        An output time after O maps back to the input by adding E\-S and the earlier
        cuts' lengths.
        .B \-\-stats
        lists the cuts too (JSON: cutStarts, cutEnds).
        """#
}
