extension ManualText {
    /// COMMANDS: info, units, help, plugins, demo, gen, completions, manual, compare. (part 2 of 3)
    package static let commands2 = #"""
        .TP
        .BI from= HZ
        Frequency at the start in Hz, 0 to 384000, and at most half the rate.
        Default
        .BR 20 .
        .TP
        .BI to= HZ
        Frequency at the end in Hz, 0 to 384000, and at most half the rate.
        Default
        .BR 20000 .
        .TP
        .BI mode= MODE
        .B log
        (equal time per octave; both frequencies must be above 0 Hz, status 64
        otherwise) or
        .B lin
        (equal time per Hz).
        Default
        .BR log .
        .TP
        .BI level= DBFS
        Peak level in dBFS, \-200 to 20.
        Default
        .BR \-6 .
        .RE
        .TP
        .B noise
        Gaussian noise from a seeded generator, white (flat) or pink (\-3 dB per
        octave), with
        .B level=
        its RMS level; the channels are independent.
        Uniform numbers in (0, 1) come from SplitMix64, whose 64\-bit state starts at
        .BR seed= ;
        the Box\(enMuller transform turns each pair
        .IR u1 ,
        .I u2
        into the normal values r\(mucos\(*h and r\(musin\(*h, with r = sqrt(\-2\(muln
        u1) and \(*h = 2\(*p\(muu2, and uses both in turn.
        The values are drawn frame by frame and, within a frame, channel by channel,
        so every channel has its own sequence (and the first channel of stereo noise
        is not the mono noise of the same seed).
        White noise is these values times
        .IR A .
        Pink noise passes each channel's white noise through its own copy of Paul
        Kellet's refined filter (within \(+-0.05 dB of \-3 dB per octave from 9 Hz up
        at 44.1 kHz; at other rates its corners scale with the rate) and is scaled by
        the inverse of the filter's RMS gain for unit white noise (the root of the
        summed squares of its impulse response), so that
        .B level=
        is the RMS level for both colours.
        Gaussian noise exceeds four times its RMS level (+12 dB) in about one sample
        in 16000; an integer encoding clips what goes past full scale.
        Without
        .B duration=
        it lasts 1 s.
        .RS
        .TP
        .BI color= COLOR
        (bare value)
        .B white
        or
        .BR pink .
        Default
        .BR white .
        .TP
        .BI seed= N
        The random seed, an integer from 0 to 2147483647: the same seed gives the
        same noise.
        Default
        .BR 1 .
        .TP
        .BI level= DBFS
        RMS level in dBFS, \-200 to 20.
        Default
        .BR \-20 .
        .RE
        .TP
        .B impulse
        Zeros, with one sample of value
        .I A
        in every channel at frame
        .B at=
        and, with
        .BR every= ,
        at every
        .B every=
        frames after it as well (at + k\(muevery for k = 1, 2, ...): a click, or a
        train of clicks.
        Both are rounded to the nearest frame at the output's rate; an impulse past
        the end is not written.
        Without
        .B duration=
        it lasts 1 s.
        .RS
        .TP
        .BI at= TIME
        (bare value)
        Position of the (first) impulse: a number of seconds (a bare number),
        .B ms
        or
        .BR s ,
        or a frame count; 0 to 86400000 ms.
        Default
        .B 0f
        (the first frame).
        .TP
        .BI every= TIME
        Period of an impulse train, in the same forms; 0 to 86400000 ms, and at least
        one frame once rounded (status 64 otherwise).
        No default: a single impulse.
        .TP
        .BI level= DBFS
        Height in dBFS, \-200 to 20.
        Default
        .BR 0 ,
        the value 1.0, which an integer encoding cannot hold: it is written as the
        largest value (32767 in s16) and counted as clipped.
        .RE
        .TP
        .B silence
        Digital silence: every sample is 0.
        No parameters but
        .BR duration= ;
        without it, 1 s.
        .TP
        .B dtmf
        Telephone keypad digits: for each digit, in order, a tone of
        .B tone=
        (rounded to the nearest frame, at least one) and then
        .B gap=
        of silence.
        The tone is the sum of two sines, each at
        .I A
        and both starting at phase 0 at the digit's first frame: the key's row
        frequency and its column frequency,
        .RS
        .PP
        .EX
                1209 Hz  1336 Hz  1477 Hz  1633 Hz
        697 Hz     1        2        3        A
        770 Hz     4        5        6        B
        852 Hz     7        8        9        C
        941 Hz     *        0        #        D
        .EE
        .RE
        .IP
        the same in every channel.
        Without
        .B duration=
        the signal lasts exactly its digits: for
        .I N
        digits, N\(mu(tone + gap), including the gap after the last digit; a shorter
        .B duration=
        cuts it, a longer one adds silence.
        The rate must be at least 3300 Hz (status 64 otherwise).
        .RS
        .TP
        .BI digits= KEYS
        (bare value)
        The keys, in order: up to 256 of the characters 0 to 9,
        .BR * ,
        .B #
        and A to D (or a to d).
        Default
        .BR 123 .
        .TP
        .BI tone= DURATION
        Length of each digit's tone: a number of milliseconds (a bare number),
        .B ms
        or
        .BR s ,
        or a frame count; 1 to 10000 ms.
        Default
        .BR 100ms .
        .TP
        .BI gap= DURATION
        Silence after each digit, in the same forms; 0 to 10000 ms.
        Default
        .BR 100ms .
        .TP
        .BI level= DBFS
        Peak level of each of the two tones in dBFS, \-200 to 20.
        Default
        .BR \-10 .
        .RE
        .SS completions
        .B aupipe completions
        .BR bash | zsh | fish
        prints a completion script for that shell on standard output. It is made
        from the same descriptions as the help: the commands, the options, the units
        (every unit the registry has, so plugin units will appear too), each unit's
        parameters as
        .IB key =
        and their choices
        .RB ( "resample engine=soxr" | speex ,
        booleans 0 and 1), gen's signals and their parameters, and the format tokens
        after
        .BR \-\-in\-format ,
        .B \-\-out\-format
        and
        .BR "convert format=" .
        File arguments (\fB\-i\fR, \fB\-o\fR, \fBinfo\fR, \fBcompare\fR,
        \fBmix input=\fR) complete as file names.
        After
        .B lv2
        or
        .B ladspa
        the installed plugins complete (LV2 URIs, and the last segment of a URI where
        it names one plugin alone, such as
        .BR eg\-amp ;
        LADSPA labels), after a plugin its input ports as
        .IB port =
        (and
        .B preset=
        where it has presets), and after
        .B aupipe help lv2
        or
        .B help ladspa
        the plugins: the script asks the aupipe being completed (else the one on
        .BR PATH )
        for them while completing (a form of
        .B aupipe completions
        kept for the scripts), so they are the plugins installed then, on the
        .B LV2_PATH
        and
        .B LADSPA_PATH
        of the shell. Install it with:
        .PP
        .RS
        .EX
        aupipe completions bash > ~/.local/share/bash-completion/completions/aupipe
        aupipe completions zsh > ~/.zfunc/_aupipe
        aupipe completions fish > ~/.config/fish/completions/aupipe.fish
        .EE
        .RE
        .PP
        For zsh, ~/.zfunc must be in
        .B fpath
        before
        .B compinit
        runs. Regenerate the script after an upgrade. Another shell name is a usage
        error (64).
        .B scripts/install
        and the Debian package
        .RB ( scripts/package\-deb )
        install the three scripts where the shells look for them:
        .IR PREFIX /share/bash\-completion/completions/aupipe,
        .IR PREFIX /share/zsh/vendor\-completions/_aupipe
        and
        .IR PREFIX /share/fish/vendor_completions.d/aupipe.fish.
        .SS version
        .B aupipe version
        prints the version line of
        .B \-\-version
        and then one line per library:
        .IR "NAME VERSION" :
        .I PATH
        .RI ( how ).
        The version is the one the library reports (libsoxr's
        .BR soxr_version ,
        libebur128's
        .BR ebur128_get_version ,
        libpng's
        .BR png_get_libpng_ver ,
        ALSA's
        .BR snd_asoundlib_version );
        speexdsp has no such call, so its line gives the version
        .B pkg\-config
        reported when aupipe was built, where the build recorded it
        .RB ( scripts/install
        and
        .B scripts/package\-deb
        do), and otherwise says it was not recorded.
        .I PATH
        is the file loaded, symbolic links resolved
        .RB ( /usr/lib/x86_64\-linux\-gnu/libsoxr.so.0.1.2 ),
        whose name carries the library's ABI version.
        libsoxr, libebur128, speexdsp and libpng are linked; lilv (for
        .BR lv2 )
        and ALSA (for
        .BR \-\-capture ,
        .B \-\-monitor
        and
        .BR \-\-play )
        are loaded here as a run that needs them loads them, and when one is missing
        its line says
        .B not found
        and names the Debian package to install
        .RB ( liblilv\-0\-0 ,
        .BR libasound2 );
        that is no error (status 0), since everything else works without them.
        .SS manual
        .B aupipe manual
        prints this manual page, in roff, on standard output.
        It is made from the descriptions that the help texts show (the options, the
        units and the parameters of the plugin units) and from the prose kept with the
        source; nothing of the plugins installed is in it.
        .B man/aupipe.1
        in the source tree is its output
        .RB ( "aupipe manual > man/aupipe.1" );
        read it with
        .BR "aupipe manual | man \-l \-" .
        .SS compare
        .B aupipe compare
        .I A B
        compares two streams sample by sample, prints what it found on standard output,
        and exits with status 0 when they agree within the tolerance and 1 when they
        do not, as
        .BR diff (1)
        does; streams that cannot be compared give another status (see the end of
        this subsection), never 0 or 1.
        .PP
        .I A
        and
        .I B
        are files, or
        .B \-
        for standard input (for one of them at most), in any container: a WAV file
        and a CAF file with the same samples are identical, and so are s16le samples
        in a WAV file and the same s16be samples in an AU file (byte order is how
        samples are stored, not what they are).
        A path that starts with
        .B \-
        goes after
        .BR \-\- ,
        after which every word is a path:
        .BR "aupipe compare \-\-max\-lsb 1 \-\- \-take1.wav golden.wav" .
        Every sample is decoded to double precision at full scale 1.0 as under
        .B "SAMPLE CONVERSION"
        (32\-bit integers and f64 keep every bit here), and frame
        .I k
        of
        .I A
        is compared with frame
        .I k
        of
        .IR B ,
        channel by channel.
        Nothing is aligned, delayed, trimmed or resampled: a stream that is one frame
        late differs everywhere.
        The streams are read in step, in constant memory.
        .PP
        The figures, over the frames both streams have:
        .TP
        largest difference
        The largest |A\-B|, with the frame and channel where it first occurs, in LSB
        and in dBFS.
        One LSB is that of the coarser of the two encodings: 2^\-(b\-1) for integers of
        .I b
        bits (2^\-15 for s16, 2^\-7 for u8 and s8), 2^\-15 for G.711 (counted as
        16\-bit), 2^\-23 for f32 and 2^\-52 for f64.
        In dBFS it is 20\(mulog10 |A\-B| (1.0 is full scale).
        """#
}
