import AUPipeFormats
import AUPipeGraph

extension MixUnit {
    /// The mix section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`),
    /// in parts to keep each file short.
    package static let manualText = [manualParameters, manualRules].joined(separator: "\n")

    /// The start of `manualText`: what mix does, and its parameters.
    package static let manualParameters = #"""
        Mixes side inputs into the stream, as a MultiChannelMixer does: files, FIFOs
        and process substitutions such as
        .BR <(command) .
        The stream that reaches
        .B mix
        is bus 0; every
        .B input=
        adds a bus, numbered from 1 in the order given.
        Every bus is converted to the stream's format at
        .BR mix 's
        place in the chain, and the mix keeps that format.
        At least one
        .B input=
        is needed (status 64 otherwise).
        .TP
        .BI input= PATH\fR[\fB,\fIOPTION\fR]...
        (bare value)
        A bus: a regular file, a FIFO, or a process substitution
        .RB ( <(ffmpeg\ \-nostdin\ \-v\ error\ \-i\ music.mp3\ \-f\ caf\ \-) ,
        which the shell turns into a path such as
        .BR /dev/fd/63 ),
        in any container aupipe reads (CAF, WAV, AU), or raw with
        .BR format= .
        No default.
        .B input=
        is the only key that may be given more than once: each one adds a bus.
        The command of a process substitution shares
        .BR aupipe 's
        standard input: one that reads it takes bytes of the stream, and ffmpeg does
        (for its keyboard commands) unless given
        .B \-nostdin
        or
        .BR "< /dev/null" .
        A bare path is an
        .B input=
        too
        .RB ( "mix backing.wav" ),
        unless what comes before its first
        .B =
        is only letters, digits and
        .B \-
        (a path like
        .B a=b/x.wav
        needs
        .BR input= ).
        .B \-
        is refused: standard input is bus 0.
        Options follow the path, separated by commas, each at most once; an unknown
        one is reported with the nearest valid one:
        .RS
        .TP
        .BI ,gain= DB
        The bus's gain in dB, \-120 to 60 (a
        .B dB
        suffix is accepted), or a linear factor written with an
        .B x
        .RB ( 0.5x
        is about \-6 dB), 0.000001x to 1000x; default 0 dB.
        .TP
        .BI ,pan= P
        Position from \-1 (left) to 1 (right), by the pan laws below; stereo output
        only (status 64 otherwise).
        Without it, the bus goes to every channel at its gain.
        .TP
        .BI ,offset= DURATION
        Where the bus starts on the stream's timeline: a bare number is in
        milliseconds;
        .BR s ,
        .B ms
        and frame counts
        .RB ( 480f )
        work too, up to 24 hours.
        Default 0.
        A positive offset puts that much silence before the bus;
        a negative one
        .RB ( offset=\-1.5s )
        skips that much of the bus's beginning (counted at the stream's rate, after
        conversion), once: a looping bus starts again from its first frame.
        .TP
        .BR ,loop " or " ,loop=\fIBOOLEAN\fR
        Start the file again from its beginning each time it ends, without a gap;
        the bus then never ends (a file with no audio is not looped).
        Regular files only: a FIFO or pipe cannot start again (status 64).
        .TP
        .BR ,mute " or " ,mute=\fIBOOLEAN\fR
        Start with the bus muted.
        It is still read, so it stays in time, and
        .BI bus K .mute
        can unmute it while running.
        .TP
        .BI ,format= TOKEN : RATE : CHANNELS
        The format of a raw bus, with all three parts (the long form of
        .B FORMAT SPEC
        does not fit among the commas).
        A bus without a CAF, WAV or AU header needs it (status 65 otherwise);
        a bus with a header must agree with it exactly (status 64 otherwise), as with
        .BR \-\-in\-format .
        .RE
        .IP
        Conversion: every bus is decoded to 32\-bit float and, when its format is not
        the stream's, converted on the fly;
        .B \-\-stats
        says how.
        A bus at another rate is resampled as
        .B resample
        does it by default (libsoxr, high, zero delay): N frames at rate
        .I in
        give exactly round(N\(muout/in) frames at the stream's rate
        .IR out .
        A mono bus into an
        .IR N \-channel
        stream is copied into every channel, and an
        .IR N \-channel
        bus into a mono stream is averaged (the sum of its channels divided by
        .IR N ),
        as
        .B convert channels=
        does.
        Any other difference in channel count (a 6\-channel bus into a stereo stream)
        is refused with status 64; convert the bus first, for example
        .BR "input=<(aupipe \-i surround.wav convert map=0,1)" .
        .TP
        .BI duration= POLICY
        Which input decides the length:
        .BR first ,
        .B longest
        or
        .BR shortest .
        Default
        .BR first .
        .B first
        ends the mix with the stream, whatever the buses still hold.
        .B longest
        goes on after the stream's end, with the stream as silence, until the last
        bus ends.
        .B shortest
        ends at the frame where the stream or the first bus ends.
        A bus that ends before the mix does is silence from then on.
        A looping bus never ends: it never shortens
        .BR shortest ,
        and
        .B longest
        does not wait for it (with only looping buses, the mix ends with the stream).
        A FIFO or pipe bus ends when its writer closes it after sending audio.
        Under
        .B longest
        and
        .B shortest
        the mix can change the frame count.
        .TP
        .BI main\-gain= DB
        Gain of bus 0, the chain's own stream, in dB, \-120 to 60 (a
        .B dB
        suffix is accepted).
        Default
        .BR 0 .
        .B main\-gain=
        is live: a change made with
        .B \-\-control
        (\fBset mix.main\-gain \-6\fR) glides linearly in amplitude over 10 ms,
        starting at the next block.
        .TP
        .BI main\-mute= BOOLEAN
        Silence bus 0 (1) or not (0); the buses still sound.
        Default
        .BR 0 .
        .B main\-mute=
        is live: a change made with
        .B \-\-control
        fades linearly over 10 ms, starting at the next block.
        .TP
        .BI out\-gain= DB
        Gain of the whole mix in dB, applied after the sum and before
        .BR overload= ,
        \-120 to 60.
        Default
        .BR 0 .
        .B out\-gain=
        is live: a change made with
        .B \-\-control
        glides linearly in amplitude over 10 ms, starting at the next block.
        .TP
        .BI overload= MODE
        What happens to output samples beyond full scale:
        .B clip
        or
        .BR limit .
        Default
        .BR clip .
        .B clip
        sets every sample above 1 or below \-1 to full scale and counts it, as the
        unit's clipped samples in
        .BR \-\-stats .
        .B limit
        bends every sample whose magnitude is above the knee
        k = 0.8913 (\-1 dBFS) softly towards full scale:
        .I x
        becomes sign(x)\(mu(k + (1 \- k)\(mutanh((|x| \- k)/(1 \- k))), which never
        passes full scale; samples below the knee are untouched.
        It works sample by sample, with no attack or release (a soft clipper, not a
        compressor), and counts the samples it bent.
        Either way the output never wraps around.
        An integer output encoding cannot hold +1.0 exactly, so a sample at or very
        near full scale is clipped to the largest code by the output encoder and
        counted again there.
        .TP
        .BI wait= DURATION
        The longest a block waits for a FIFO or pipe bus that has nothing in a
        real-time run (see below); a bare number is in milliseconds.
        0 to 1000 ms (a frame count of more than one second is refused).
        Default
        .BR 5ms .
        Each block waits at most once per bus, so a late bus adds at most
        .B wait=
        per bus to a block's latency.
        .TP
        """# + "\n" + LiveSetting.manual(what: #"Whether FIFO and pipe buses are read in real time (without blocking)"#,
                                                 on: #"reads FIFO and pipe buses without blocking in any run;"#, off: #"reads every bus blocking in any run (the same bytes on every run)."#) + "\n" + #"""
        .PP
        The mix rule: for every frame and every output channel
        .IR c ,
        .RS
        out = G_out \(mu (m_0\(muG_0\(mux_0 + \(*S_k m_k\(muG_k\(muP_k,c\(mux_k)
        .RE
        .PP
        where
        .I x_0
        is the stream and
        .I x_k
        bus
        .I k
        after conversion,
        .I G
        = 10^(dB/20) from
        .B main\-gain=
        .RI ( G_0 ),
        the bus's
        .B gain=
        .RI ( G_k )
        and
        .B out\-gain=
        .RI ( G_out ),
        .I m
        is 0 for a muted bus and 1 otherwise, and
        .I P_k,c
        is the bus's pan gain for channel
        .I c
        (1 without
        .BR pan= ).
        It is a plain weighted sum: there is no renormalisation by the number of buses
        and no automatic level, so two buses near full scale overload (see
        .BR overload= ).
        A bus that has ended, has not started yet (offset) or is late adds 0 and
        nothing else changes: no gain jumps when a bus ends.
        """#
}
