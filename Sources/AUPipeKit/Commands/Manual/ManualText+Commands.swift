extension ManualText {
    /// COMMANDS: info, units, help, plugins, demo, gen, completions, manual, compare. (part 1 of 3)
    package static let commands1 = #"""
        .SH COMMANDS
        .TP
        .B info \fR[\fB\-\-in\-format \fISPEC\fR] [\fIFILE\fR|\fB\-\fR]
        Read the header of
        .I FILE
        (default: standard input) and print its container, its format as a
        .IR TOKEN : RATE : CHANNELS
        spec, its length in frames and seconds, the header's size in bytes
        .RB ( "header: none"
        for raw input), and the
        stream as the fields of Core Audio's in\-memory AudioStreamBasicDescription
        .RB ( mSampleRate ,
        .B mFormatID
        .RB ( lpcm ,
        .B ulaw
        or
        .BR alaw ),
        .B mFormatFlags
        (1 float, 2 big\-endian, 4 signed integer, 8 packed),
        .BR mBytesPerPacket ,
        .BR mFramesPerPacket ,
        .BR mBytesPerFrame ,
        .BR mChannelsPerFrame ,
        .BR mBitsPerChannel ).
        When the header gives no size, or there is no header (raw input), the length
        is measured from the size of a regular file, and is printed as unknown for a
        pipe.
        A regular file shorter than its header declares is truncated: the length is
        that of the frames it holds, and a line
        .B "warning: the file is truncated: ..."
        gives what the header declares.
        Headerless input needs
        .BR \-\-in\-format .
        .TP
        .B units
        List every unit with its summary and each parameter as
        .IR name = default
        (an ellipsis where there is no default); a
        .B *
        marks the parameter a bare value sets.
        .TP
        .BI help " UNIT"
        Describe one unit: what it does, each parameter's type, range and default, and
        an example.
        .B aupipe help
        without a unit prints the help text;
        .B aupipe help gen
        lists the signals of
        .B gen
        with their parameters, and
        .B aupipe help compare
        summarises the options of
        .BR compare .
        .B aupipe help lv2
        .I URI
        and
        .B aupipe help ladspa
        .I LABEL
        describe one plugin the same way: its name, identifier, library, audio
        inputs and outputs, whether it reports latency, its output control ports,
        and each input control port as a parameter (symbol, range, default, unit,
        scale points; every one is live).
        A port's bounds, default and scale points are 32\-bit floats and print as the
        shortest text that reads back as the same float
        .RB ( 0.02 ,
        not 0.019999999552965164); a range or default that is a fraction of the sample
        rate says so
        .RB ( "default 0.007 \(mu the sample rate" ),
        and is multiplied by the stream's rate when it is known.
        .TP
        .B plugins \fR[\fBlv2\fR|\fBladspa\fR] [\fIWORD\fR]
        List the installed plugins, one row each: the standard, the identifier (an
        LV2 URI, or LADSPA's
        .IR library : label ,
        the library's file name without
        .BR .so ),
        the name, the audio inputs and outputs
        .RB ( "1 in 1 out" ),
        and notes:
        .B reports latency
        for a plugin with a latency port,
        .B missing
        and the features (URIs) it requires that aupipe does not provide,
        .B unsupported ports
        and their symbols.
        .I WORD
        keeps the rows whose identifier or name contains it, in any case.
        Listing every standard, one whose library is missing (lilv) is reported in
        one line on standard error and the others are listed; naming it is an error
        (69).
        See
        .BR PLUGINS .
        .TP
        .B demo \fR[\fB\-o \fIPATH\fR]
        Run a built\-in 3 s clip (44100 Hz stereo s16, a C major arpeggio) through
        .B resample 48000 : gain \-3 : mute at=2\-2.5 ramp=20ms
        and write it (16\-bit, 48000 Hz, stereo) to
        .I PATH
        (without
        .BR \-o :
        standard output when it is not a terminal, as in
        .BR "aupipe demo > x.wav" ,
        else
        .BR demo.wav ;
        .B \-o \-
        for standard output always),
        with the statistics on standard error.
        The file is WAV unless the extension of
        .I PATH
        names another container, as for
        .BR \-o .
        .TP
        .B spectrogram \fIFILE\fR|\fB\-\fR [\fIPARAMETER\fB=\fIVALUE\fR]...
        Run the
        .B spectrogram
        unit over
        .I FILE
        (any input aupipe reads;
        .B \-
        for standard input) and throw the audio away: the picture goes to
        .BR plot= ,
        by default
        .IR FILE 's
        name with its extension replaced by
        .B .png
        .RB ( talk.wav
        draws
        .BR talk.png ;
        standard input needs
        .BR plot= ).
        The parameters are the unit's; the options
        .BR \-\-in\-format ,
        .B \-\-block
        and
        .B \-\-duration
        are taken, no other.
        .B "aupipe spectrogram talk.wav"
        draws what
        .B "aupipe \-i talk.wav spectrogram plot=talk.png \-o /dev/null"
        draws, byte for byte.
        It is told from a chain that starts with the unit by its first argument: a
        path, not
        .IR key = value .
        .SS gen
        .B aupipe gen
        .I SIGNAL
        .RI [ ARG ]...\&
        writes a test signal instead of reading a stream: the input of a golden test,
        or a tone to measure a chain with.
        The signal is a function of its arguments and options alone, so the same
        arguments and options give the same bytes on every run.
        .PP
        .I SIGNAL
        is one of the names below (not case\-sensitive).
        Its arguments follow the rules of a unit's:
        .IR key = value ,
        or a bare value for the parameter marked
        .IR "bare value" ;
        keys are not case\-sensitive, a key may be given only once, an empty value is
        refused, and an unknown key is reported with the nearest valid one.
        A frequency in Hz may be written in kHz, as a rate may:
        .B freq=1k
        is
        .BR freq=1000 ,
        .B freqs=1k,2.5kHz
        is
        .BR freqs=1000,2500 .
        A
        .B :
        is refused: gen makes one signal, and a pipe into a second
        .B aupipe
        processes it.
        Every argument and option is checked before the output is created, so a
        mistake (status 64) leaves no file behind.
        .PP
        The samples are computed in double precision and rounded to 32\-bit float
        (f32le at the output's rate and channel count), then written exactly as a
        chain's output is: by the output encoder into the container (see
        .BR "SAMPLE CONVERSION" :
        integer encodings of 16 bits or fewer get seeded TPDF dither, as
        .B \-\-dither
        says, others round to nearest with ties to even; all clip and count samples
        beyond full scale; float encodings keep them), with the
        header's sizes patched when the output is a regular file and streaming sizes
        on a pipe.
        Levels are in dBFS: a level of
        .I L
        is the amplitude 10^(L/20), and 0 dBFS is 1.0, full scale.
        .PP
        .B gen
        takes only these options; any other
        .RB ( \-i ,
        .BR \-\-in\-format ,
        .BR \-\-block ,
        .BR \-\-check )
        is an error (status 64), and
        .B \-h
        or
        .B \-\-help
        prints
        .BR "aupipe help gen" .
        .TP
        .BR \-o ", " \-\-output " \fIPATH\fR"
        Write to
        .I PATH
        instead of standard output, as in
        .BR OPTIONS ;
        without it, a terminal on standard output is refused (status 64), and
        .B \-o \-
        forces it.
        .TP
        .BR \-t ", " \-\-type " \fITYPE\fR"
        The container:
        .BR caf ,
        .BR wav ,
        .B au
        or
        .BR raw .
        Without it, the extension of
        .BR \-o 's
        path chooses as in
        .B OPTIONS
        .RB ( .caf ,
        .BR .wav ,
        .BR .au ,
        .BR .snd ,
        .BR .raw ,
        .BR .pcm ),
        and otherwise the default is
        .BR wav .
        .TP
        .BI \-\-out\-format " SPEC"
        The encoding, rate and channel count of the output, as
        .IR TOKEN : RATE : CHANNELS ;
        any part may be left out, as in
        .BR OPTIONS ,
        and the missing ones come from the default
        .BR s16le:48000:1 .
        The signal is computed at this rate and for this many channels; nothing is
        resampled or converted.
        An encoding given here must be one the container holds (status 64 otherwise);
        the default s16le moves to the nearest one the container holds, as a chain's
        inherited encoding does: s16be in AU.
        .TP
        .BI \-\-dither " TYPE"
        As in
        .BR OPTIONS :
        .B auto
        (the default) and
        .B tpdf
        add seeded TPDF dither when the encoding is an integer of 16 bits or fewer
        (not \(*m\-law or A\-law),
        .B shaped
        F\-weighted noise at 44.1 and 48 kHz,
        .B off
        rounds plainly (a tone's exact samples, as before 0.2.0).
        The dither is seeded, so the bytes are the same on every run.
        .TP
        .BR \-\-stats ", " \-\-stats=json
        Print the figures of
        .B STATISTICS
        on standard error: the generated f32le stream as the input, no units, and the
        output with the samples its encoder clipped.
        .PP
        Every signal takes, besides its own parameters:
        .TP
        .BI duration= DURATION
        The length of the output: a number of seconds (a bare number),
        .B ms
        or
        .BR s ,
        or a frame count such as
        .BR 480f ,
        rounded to the nearest frame at the output's rate.
        0 to 86400000 ms (24 hours); a frame count must not be negative.
        Default 1 s, and for
        .B dtmf
        the length of its digits.
        .PP
        The signals, and what frame
        .I n
        (counted from 0) of each holds:
        .TP
        .B sine
        A sine wave, the same in every channel:
        A\(musin(2\(*p\(mu(f\(mun/rate + phase/360)), with
        .I f
        the frequency and
        .I A
        the amplitude of
        .BR level= .
        The whole cycles of f\(mun/rate are dropped before the sine is taken, so the
        phase stays precise however long the stream.
        Without
        .B duration=
        it lasts 1 s.
        .RS
        .TP
        .BI freq= HZ
        (bare value)
        Frequency in Hz, 0 to 384000, and at most half the rate (status 64
        otherwise).
        Default
        .BR 1000 .
        .TP
        .BI level= DBFS
        Peak level in dBFS, \-200 to 20.
        Default
        .BR \-3 .
        .TP
        .BI phase= DEGREES
        Phase at frame 0 in degrees, \-360 to 360
        .RB ( 90
        gives a cosine).
        Default
        .BR 0 .
        .RE
        .TP
        .B tones
        Several sines added together, each of the same amplitude and starting at
        phase 0, the same in every channel: for the frequencies f1, f2, ...,
        A\(mu(sin(2\(*p\(muf1\(mun/rate) + sin(2\(*p\(muf2\(mun/rate) + ...).
        The peak of the sum can reach the number of tones times
        .IR A .
        Without
        .B duration=
        it lasts 1 s.
        .RS
        .TP
        .BI freqs= LIST
        (bare value)
        The frequencies in Hz, separated by commas, 1 to 64 of them, each 0 to 384000
        and at most half the rate.
        Default
        .BR 440,880 .
        .TP
        .BI level= DBFS
        Peak level of each tone in dBFS, \-200 to 20.
        Default
        .BR \-12 .
        .RE
        .TP
        .B sweep
        A sine whose frequency goes from
        .B from=
        to
        .B to=
        over the whole
        .BR duration= ,
        with a continuous phase, the same in every channel: A\(musin(2\(*p\(muc(t)), with
        t = n/rate the time of frame
        .IR n ,
        .I T
        the duration in seconds (the frame count divided by the rate, at least one
        frame), f0 and f1 the two frequencies, and the phase
        .I c
        in cycles
        .br
        f0\(mut + (f1 \- f0)\(mut^2/(2T) for
        .BR mode=lin ,
        .br
        f0\(muT/ln(f1/f0)\(mu(e^(t\(muln(f1/f0)/T) \- 1) for
        .BR mode=log .
        .br
        A downward sweep (from above to) works too, and equal frequencies give a
        steady sine.
        Without
        .B duration=
        it lasts 1 s.
        .RS
        """#
}
