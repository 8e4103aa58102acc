extension ManualText {
    /// CAVEATS.
    package static let caveats = #"""
        .SH CAVEATS
        .B \-\-control
        commands are applied between blocks of audio: while no audio arrives (a
        silent pipe), they wait for the next block.
        Writing the output onto the input (\fB\-o\fR naming the input, or
        .BR "> in.wav" / ">> in.wav"
        for stdout) is refused with status 64.
        The output file is created only after the input's header has been read and
        the chain checked against it, so an error found before any audio leaves no
        file behind.
        .B \-o
        naming the input file itself is refused (status 64): aupipe streams, so write
        to another file and rename it.
        Units work in 32\-bit float: 32\-bit integer and f64 samples keep every bit
        only when no unit touches them (a plain copy, a change of byte order, or of
        signed to unsigned integers of the same width and back).
        """#
}
