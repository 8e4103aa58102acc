import AUPipeFormats
import AUPipeGraph

extension FilterUnit {
    /// What `eq`'s manual section says after its parameters: the band grammar, the file
    /// format, dropped bands and live changes (roff).
    package static let eqManualGrammar = #"""
        .PP
        A band is
        .IR KIND , FREQ [, key = value ...].
        .I KIND
        is
        .B peak
        (also
        .BR pk ,
        .BR equalizer ),
        .B lowshelf
        .RB ( ls ,
        .BR bass ),
        .B highshelf
        .RB ( hs ,
        .BR treble ),
        .B lowpass
        .RB ( lp ),
        .B highpass
        .RB ( hp ),
        .B bandpass
        .RB ( bp ),
        .B notch
        .RB ( no ,
        .BR bandreject )
        or
        .B allpass
        .RB ( ap );
        .I FREQ
        is in Hz
        .RB ( 1k
        allowed). Keys:
        .B gain=DB
        (peak and shelves, \-60 to 60),
        .B q=Q
        (0.01 to 100),
        .B width=
        Hz or octaves
        .RB ( 1oct ;
        band-pass, notch, all-pass, peak),
        .B slope=S
        (shelves, 0.01 to 1),
        .B order=N
        (1 to 8) and
        .B type=linkwitz\-riley
        (low- and high-pass). Defaults are those of the unit of the same name:
        Q 1 for peak, 0.707 for band-pass, notch and all-pass, slope 1 for shelves,
        Butterworth of order 2 for low- and high-pass.
        The bands of
        .B file=
        come first, then those given on the command line.
        .PP
        The file is read line by line:
        .RS
        .nf
        Preamp: \-6.2 dB
        Filter 1: ON PK Fc 105 Hz Gain \-3.1 dB Q 0.70
        Filter 2: ON LSC Fc 105 Hz Gain 5.5 dB Q 0.70
        Filter 3: ON HSC 12 dB Fc 10000 Hz Gain \-2 dB
        Filter 4: ON HP Fc 20 Hz
        .fi
        .RE
        .PP
        Types:
        .B PK
        (peaking),
        .BR LSC ,
        .B HSC
        and
        .BR LS ,
        .B HS
        (shelves: with
        .B Q
        a cookbook Q; with
        .I N
        .B dB
        after the type a slope of N dB per octave, S = N/12; with neither S = 1),
        .BR LP ,
        .B HP
        (Butterworth, Q 1/\(sr2),
        .BR LPQ ,
        .B HPQ
        (with
        .BR Q ),
        .BR BP ,
        .BR NO ,
        .B AP
        (with
        .B Q
        or
        .BR "BW Oct" ).
        .B OFF
        filters,
        .B #
        comments and blank lines are skipped. Any other line (Channel:, Include:,
        GraphicEQ:, Convolution: and the rest of Equalizer APO's language) or filter type
        stops the run with status 65 and one line naming the file and line number.
        .PP
        A band at or above 0.45 times the stream's rate (a file made for 48 kHz used at
        16 kHz) is dropped, with one warning line naming every dropped band; the
        numbering of the others does not change.
        .PP
        Live changes:
        .BR "set eq.band2.gain \-3" ,
        .B eq.band2.freq
        and
        .B eq.band2.q
        (bands numbered from 1: the file's first). A change glides over 20 ms: the band's
        frequency and Q move geometrically and its gain linearly in dB, and its coefficients
        are designed again every 32 frames; the filter state is kept, so nothing clicks.
        Each band is a cascade of second-order sections with RBJ cookbook coefficients
        (Butterworth sections for low- and high-pass), run in transposed direct form II
        with double-precision state, one state per channel.
        """#
}
