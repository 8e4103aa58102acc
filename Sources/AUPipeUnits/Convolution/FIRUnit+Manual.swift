import AUPipeFormats
import AUPipeGraph

extension FIRUnit {
    /// The fir section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Convolves the stream with an impulse response read from a file: room correction
        with a measured response, a loudspeaker or cabinet model, a long FIR filter
        designed elsewhere (sox's
        .BR fir ,
        ffmpeg's
        .BR afir ).
        .TP
        .BI ir= PATH
        (bare value)
        The response: a CAF, WAV or AU file, any encoding, at most 2^22 frames.
        No default; the unit needs it.
        One channel is used on every channel of the stream; otherwise it must have as
        many channels as the stream, and channel i filters channel i (an error says
        so when the counts differ).
        At another rate than the stream's it is resampled with the default engine
        (libsoxr, high) and multiplied by its rate over the stream's, so that its gain
        is kept: a response that passes 1 kHz at 0 dB at 96 kHz does so at 48 kHz too.
        .TP
        .BI normalize= none|peak|energy
        Scales the response before
        .BR gain= :
        .B peak
        makes the largest |tap| of any channel 1,
        .B energy
        makes the largest sum of squared taps of any channel 1 (white noise keeps its
        level); one factor for all channels, so their balance is kept.
        Default
        .BR none .
        .TP
        .BI gain= DB
        Gain applied to the response, \-120 to 60 dB. Default 0.
        .TP
        .BI extend= 0|1
        1 writes the response's tail after the stream's end: N + taps \- 1 frames
        instead of N. Default 0: the stream keeps its length.
        .PP
        No latency: output frame n is written when input frame n is read.
        The first 64 taps act in the time domain, sample by sample; the rest by
        non\-uniformly partitioned FFT convolution (overlap\-save, W. G. Gardner,
        "Efficient convolution without input\-output delay", JAES 1995) in levels of
        growing partitions, each level's block transformed the moment it is complete.
        The sizes are chosen from the response's length by a cost model of the
        transforms and the spectral products: a 2 s response at 48 kHz gets seven
        partitions of 64 frames, fifteen of 512, then eleven of 8192.
        Every level runs at the same stream positions whatever the block size, so the
        output is the same bits for any block size and on every run.
        Arithmetic is 32\-bit float with aupipe's own FFT (faster than libkissfft at
        these sizes: bench/README.md); against an exact convolution the error is
        below \-120 dB of the output.
        .B \-\-stats
        names the taps used and the latency.
        """#
}
