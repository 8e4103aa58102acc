extension RunOptionManual {
    static let dither = #"""
        .TP
        .BI \-\-dither " TYPE"
        What the output, and every
        .B tee
        copy, does when it rounds samples to a linear integer encoding of 16 bits or
        fewer (s16, u16, s8, u8) and the samples carry more precision than that: float
        results of
        .BR gain ,
        .BR mix ,
        .BR loudnorm ,
        .BR resample ,
        or an f32, s24 or s32 input written as s16.
        .B auto
        (the default) and
        .B tpdf
        add triangular (TPDF) noise of \(+-1 step before rounding, as sox and GStreamer
        do: the error no longer follows the signal (no harmonics of a quiet tone, no
        truncation buzz in a fade), at the cost of a flat noise floor 4.8 dB above plain
        rounding's (an error power of a quarter step squared instead of a twelfth).
        .B shaped
        feeds the rounding error back through Wannamaker's 9\-tap F\-weighted filter,
        at 44.1 and 48 kHz (43.7 to 48.3 kHz): the noise in 1\(en5 kHz, where hearing is
        most sensitive, is about 19 dB below TPDF's and is moved above 15 kHz; at other
        rates it falls back to TPDF.
        .B off
        rounds to nearest (ties to even) with no noise, as before.
        .B \-\-check
        and
        .B \-\-stats
        name the dither the output gets
        .RB ( "dither tpdf" ;
        in JSON,
        .BR "dither" ,
        null when none).
        Whether to dither is decided before any audio, from the precision each unit
        declares for its output (sox's signal precision): a byte copy, a bypassed unit
        .RB ( "gain 0" ,
        .B resample
        to the same rate),
        .BR mute ,
        .BR tee ,
        .BR meter ,
        and speexdsp's 16\-bit output
        .RB ( aec ,
        .BR denoise ,
        .BR agc )
        keep a 16\-bit stream's precision, so such runs stay bit\-exact.
        The noise is seeded: each channel has its own sequence indexed by the frame's
        position in the stream, so the bytes are the same on every run and for every
        .BR \-\-block .
        Like sox, it adds noise only where the samples are off the output's grid: a
        channel whose samples have been on it for 32 samples in a row (digital silence, a
        16\-bit stream a unit passed on at 0 dB, a plugin's exact product) is rounded
        without noise, exactly, until a sample off the grid comes.
        A
        .B convert format=
        to such an encoding in the middle of the chain dithers the same way.
        The
        .B dither
        unit dithers at a point of the chain, to any width, with its own seed.
        """#
}
