import AUPipeFormats
import AUPipeGraph

extension SpectrogramUnit {
    /// The unit's section of the manual page (roff, after its `.SS` heading): what the picture
    /// shows, how the DFT and the pooled columns are chosen, and the parameters.
    package static let manualText = #"""
        Passes the stream through byte for byte and draws its spectrogram at the end
        into a PNG file (written with libpng), as sox's
        .B spectrogram
        effect does: time across (seconds), frequency up (kHz, from 0 to
        .BR max\-freq= ),
        one panel per channel, a colour bar in dBFS on the right, a title, and labels
        in a built\-in 5\(mu7 bitmap font (no font file is read).
        The level of each point is a colour from black
        .RB ( range=
        dB below
        .BR top= ,
        or quieter) through purple, red, orange and yellow to white
        .RB ( top=
        dBFS or louder), sox's palette; a full\-scale sine reads 0 dBFS at its
        frequency.
        .IP
        The DFT has the smallest power of two of points whose bins are no further
        apart than the rows: 2\(mu(\fBy\fR\-1) up to the Nyquist frequency (512 by
        default), as sox's, and more when
        .B max\-freq=
        shows less; each row shows the strongest bin within half a row of its
        frequency.
        DFT frames are a quarter of the DFT size apart (closer while a column is
        shorter), windowed by
        .BR window= ;
        a column shows the mean power of the frames centred in it.
        .IP
        The length of a stream is not known ahead, so the columns start a sixteenth of
        the DFT size apart (32 frames by default), and when
        .B x=
        columns are full, neighbouring pairs are merged (their mean power) and each
        column covers twice as long from then on.
        Any stream ends with between
        .BR x= /2
        and
        .B x=
        columns, stretched to
        .B x=
        pixels, held in the same memory: an hour costs what a minute does, and nothing
        is allocated while the stream runs.
        The same input gives the same PNG bytes, whatever
        .BR \-\-block .
        .B aupipe spectrogram
        .I FILE
        (see
        .BR COMMANDS )
        runs the unit over a file.
        .TP
        .BI plot= PATH
        The PNG file drawn at the end; its name must end in
        .B .png
        (any other is refused with status 64), and it must be a regular file (a FIFO
        or device is refused with status 64: the picture is written whole at the end).
        No default; the unit needs it.
        It may not be the input, the output or a side input (status 64).
        .TP
        .BI x= PIXELS
        Width of the time axis in pixels: the most columns kept.
        100 to 8000.
        Default 800.
        .TP
        .BI y= PIXELS
        Height of each channel's frequency axis in pixels, which sets the DFT size as
        above.
        16 to 4097.
        Default 257.
        All panels together may be at most 16384 pixels high (status 64 beyond).
        .TP
        .BI range= DB
        The dynamic range shown below
        .BR top= ,
        in dB (sox's
        .BR \-z ).
        20 to 180.
        Default 120.
        .TP
        .BI top= DB
        The level of the brightest colour, in dBFS (sox's
        .BR \-Z ).
        \-100 to 100.
        Default 0.
        .TP
        .BI window= NAME
        The DFT's window (sox's
        .BR \-w ):
        .BR hann ,
        .BR hamming ,
        .BR blackman ,
        .B bartlett
        or
        .BR rectangular .
        Default hann.
        .TP
        .BI max\-freq= HZ
        The frequency of the top row, in Hz (or kHz:
        .BR 8k ).
        10 to 384000, and at most half the stream's sample rate (status 64 above it:
        resample first).
        No default: half the sample rate.
        A fine frequency axis with a low
        .B max\-freq=
        needs a long DFT: one of more than 65536 points is refused (status 64).
        """#
}
