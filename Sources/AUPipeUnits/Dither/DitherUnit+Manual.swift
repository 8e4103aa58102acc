import AUPipeFormats
import AUPipeGraph

extension DitherUnit {
    /// The dither section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Adds seeded dither and rounds the stream to the grid of
        .IR bits \-bit
        integers at this point of the chain, as sox's
        .B dither
        does; the output edge does the same by itself where it is needed
        .RB ( \-\-dither ),
        so this unit is for a chosen point, width, shape or seed.
        .TP
        .BI bits= N
        (bare value)
        The integer width, 2 to 24.
        Default 16.
        Every sample becomes a multiple of 2^\-(N\-1), which an encoder of N bits writes
        exactly.
        A stream that carries no more than N bits already (a 16\-bit input that no
        unit before recomputed) has nothing to lose and is passed on untouched
        (bypassed).
        .TP
        .BI type= TYPE
        Default tpdf.
        .BR tpdf :
        triangular noise of \(+-1 step, white; the error's power is a quarter
        step squared, 4.8 dB above plain rounding's, and no longer follows the signal.
        .BR shaped :
        the error is fed back through Wannamaker's 9\-tap F\-weighted filter (J. Audio
        Eng. Soc. 40(7/8), 1992, as sox's
        .BR "dither \-f f\-weighted" ):
        about 19 dB less noise in 1\(en5 kHz than TPDF, 12 dB less below 1 kHz, and more
        above 15 kHz (18 dB more in all).
        It exists for 43.7 to 48.3 kHz (44.1 and 48 kHz); at other rates it is refused
        (status 64): resample first, or use tpdf.
        .TP
        .BI seed= N
        0 to 4294967295.
        Default 0.
        Each channel's noise is a hash of the seed, the channel and the frame's position
        in the stream, so the same seed gives the same bytes on every run and for every
        .BR \-\-block .
        .PP
        A channel whose input has been on the grid for 32 samples in a row (digital
        silence) is rounded without noise, exactly, until a sample off the grid comes.
        """#
}
