import AUPipeFormats
import AUPipeGraph

extension RemixUnit {
    /// The remix section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Mixes input channels into output channels, in sox's grammar, so that sox users get
        what they type; or with a published matrix.
        .TP
        .BI out= OUT\-SPEC
        (bare value)
        One per output channel, in order.
        .I OUT\-SPEC
        is input channels counted from 1, joined by commas; each a channel
        .RB ( 2 ),
        or a range
        .RB ( 1\-3 ,
        .B 3\-
        to the last,
        .B \-2
        from the first,
        .B \-
        every channel), followed by an optional volume:
        .BI v X
        a linear factor
        .RB ( v\-1
        inverts),
        .BI p X
        a gain in dB,
        .BI i X
        a gain in dB with the polarity inverted.
        .B 0
        alone is a silent channel.
        An output mixed from n channels scales each by 1/n unless its out-spec gives a volume.
        .BR scaling= ,
        below, changes that as sox's flags do.
        .B "remix 2 1"
        swaps a stereo pair;
        .B "remix 1,2"
        and
        .B "remix \-"
        mix it to mono at 0.5 each;
        .B "remix scaling=manual 1,2"
        sums it;
        .B "remix 1v0.5,2v0.5"
        gives the factors;
        .B "remix 1 1 0"
        makes three channels of a mono stream, the last one silent.
        No default: give out\-specs or
        .BR preset= .
        .TP
        .BI scaling= WORD
        How the channels without a volume are scaled when an output mixes n of them:
        .B auto
        (the default: 1/n unless the out\-spec gives a volume),
        .B always
        (sox's
        .BR \-a :
        1/n beside volumes too),
        .B manual
        .RB ( \-m :
        none),
        .B power
        .RB ( \-p :
        1/\(srn where auto gives 1/n).
        Default auto.
        sox's flags are taken too, as the first out\-spec, where aupipe does not read them as
        its own options: after
        .BR \-\- ,
        as in
        .BR "aupipe \-\- remix \-m 1,2" .
        .TP
        .BI preset= NAME
        A published matrix instead of out-specs.
        The input's channels are taken by where its header (a WAV channel mask, a CAF
        .B chan
        chunk) places them, so a 5.1 in Core Audio's order (C L R Ls Rs LFE) is mixed right;
        without positions they are taken in WAV order, as below.
        .B 5.1\-to\-stereo
        is ITU\-R BS.775\-3, Table 2 (3/2 to 2/0): Lo = L + 0.7071 C + 0.7071 Ls,
        Ro = R + 0.7071 C + 0.7071 Rs, the LFE omitted as published; input L R C LFE Ls Rs.
        .B 7.1\-to\-stereo
        first folds each back channel into the side channel of its side at \-3 dB (0.7071, as
        libswresample's default matrix does when the output has no back pair), then applies
        BS.775: Lo = L + 0.7071 C + 0.7071 Ls + 0.5 Lb; input L R C LFE Lb Rb Ls Rs.
        .B stereo\-to\-mono
        is (L + R)/2;
        .B ms\-encode
        gives M = (L + R)/2, S = (L \- R)/2, and
        .B ms\-decode
        its inverse, L = M + S, R = M \- S.
        The presets are not normalised: loud passages of a full-scale 5.1 mix exceed full scale.
        No default.
        .TP
        .BI overload= clip\fR|\fBkeep
        Samples the sums push beyond full scale are clipped to it
        .RB ( clip ,
        the default) or kept in float for a later
        .B gain
        or
        .B loudnorm
        .RB ( keep );
        either way
        .B \-\-stats
        counts them (as clipped, or in remix's note as kept).
        Default clip.
        .TP
        .BI gain= DB
        A gain on every output, \-120 to 60 dB.
        Default 0.
        Live: a change made with
        .B \-\-control
        glides linearly in amplitude over 10 ms.
        """#
}
