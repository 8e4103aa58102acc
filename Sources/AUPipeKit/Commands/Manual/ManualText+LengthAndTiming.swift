extension ManualText {
    /// LENGTH AND TIMING.
    package static let lengthAndTiming = #"""
        .SH LENGTH AND TIMING
        Nothing is lost and nothing is invented.
        Every unit but
        .BR resample ,
        and
        .B mix
        under
        .B duration=longest
        or
        .BR shortest ,
        keeps the frame count exactly.
        .B resample
        turns N input frames at rate
        .I in
        into round(N\(muout/in) frames at rate
        .I out
        (halves round up), with zero delay: the filter's latency is skipped at the start
        and its tail is flushed with silence at the end, so input frame
        .I k
        lands at output time k\(muout/in.
        .PP
        .BR aec ,
        .B agc
        and
        .B denoise
        work on whole frames of their
        .BR frame= :
        a part\-filled last frame is padded with silence, processed and trimmed, so
        the frame count is exact, and the one frame by which speex's preprocessor
        delays its output is removed, so input frame
        .I k
        is output frame
        .IR k .
        In a live pipe they give out audio a frame at a time: a frame comes out once
        it is complete, which holds the output back by up to one frame
        .RB ( "aec preprocess=0" ),
        and with the preprocessor
        .RB ( agc ,
        .BR denoise ,
        and
        .B aec
        by default) once the frame after it is complete too, which holds it back by
        up to two frames (20 ms with the default 10 ms frame): the price of removing
        the preprocessor's delay.
        .PP
        A stream that ends in the middle of a frame: every complete frame is processed
        and written, the chain is drained and the header patched, then
        .B aupipe
        reports how many trailing bytes it dropped and exits with status 65.
        A stream that ends before the data size its header declares is handled the
        same way, also with status 65.
        """#
}
