import AUPipeFormats
import AUPipeGraph

extension ResampleUnit {
    /// The resample section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Changes the sample rate with libsoxr
        .RB ( engine=soxr )
        or speexdsp's polyphase resampler
        .RB ( engine=speex ).
        .TP
        .BI rate= RATE
        (bare value)
        Output sample rate in Hz, 1 to 768000
        .RB ( 44.1k
        allowed), within a factor of 1024 of the input rate either way (speexdsp's
        filter, and its cost, grow with the ratio; resample in two steps beyond that).
        No default; the unit needs it.
        A rate equal to the stream's bypasses the unit.
        .TP
        .BI engine= NAME
        .B soxr
        (libsoxr) or
        .B speex
        (speexdsp).
        Default
        .BR soxr ,
        at its
        .B high
        recipe, chosen by the benchmark (the README's table): from 48 to 16 kHz it
        rejects aliases by 147 to 150 dB, where speex's quality 4 (the default before)
        rejects them by 88 dB, in 0.40 to 0.44 of sox's default time from 48 to 16
        kHz and from 44.1 to 48 kHz (the target: at least 140 dB in at most half of
        sox's time).
        The implicit conversions of
        .BR \-\-out\-format ,
        mix buses and aec's reference use the same default.
        In a real\-time run
        .RB ( \-\-live
        or
        .BR \-\-capture )
        the default is the low\-latency one instead, for
        .B resample
        and the implicit conversions alike: speex at quality 5, whose filter looks
        ahead 40 frames at the lower of the two rates (2.5 ms at 16 kHz, 5 ms at
        8 kHz), where soxr's recipes hold back a few hundred to a few thousand input
        frames before their first output; it was chosen by measurement (bench/run's
        latency rows) as the best alias rejection whose first output of a 10 ms block
        comes within 15 ms.
        Without
        .BR \-\-live
        nothing changes;
        .B \-\-stats
        names the engine used.
        Without
        .BR engine= ,
        a
        .B quality=
        names its engine: an integer is speex's (so
        .B resample 16000 quality=3
        gives the bytes it gave when speex was the default), a recipe soxr's.
        .TP
        .BI quality= Q
        The filter quality, its values depend on the engine.
        With speex an integer from 0 to 10: 0 is fastest, 10 best, 3 speex's
        VoIP setting and 4 its default (default 4).
        With soxr one of soxr's recipes
        .BR quick " (cubic interpolation, no anti-alias filter), " low ", " medium ,
        .B high
        (20-bit precision, the default) or
        .B very-high
        (28-bit precision).
        A quality of the other kind than the
        .B engine=
        given is a usage error that names the engine's own qualities.
        No default: each engine's own when not given.
        .PP
        The length is exact and the delay is zero for both engines: see
        .BR "LENGTH AND TIMING" .
        libsoxr compensates its own filter delay; speexdsp's is skipped at the start.
        Both flush their tail at the end.
        When aec tracks clock drift, a soxr resampler runs soxr's variable-rate mode,
        which in soxr 0.1.3 has one filter whatever the recipe (about
        .BR high 's
        quality); aupipe moves its output by the whole frames it measures soxr's
        filter off (2 late downsampling), so an impulse lands on its ideal sample;
        what is left is a fraction: upsampling at most half a sample (exactly half
        from 16 to 48 kHz), downsampling 0.39 sample at low frequencies (that filter
        is not linear-phase).
        .B \-\-stats
        names the engine, the quality and the filter latency.
        In a live chain that latency is what the output lags behind the input:
        soxr's
        .B high
        recipe holds back 585 input frames (37 ms) from 16 to 48 kHz and 1853 (116
        ms) from 16 to 8 kHz before its first output, speex's quality 4 only 32 (2
        ms) and 64 (4 ms); where that matters, use
        .BR engine=speex .
        .PP
        Determinism: both engines give the same bytes on every run and whatever the
        block size (one thread, no dither).
        speex is bit\-identical to direct speexdsp calls; soxr agrees with a direct
        libsoxr call within 1 LSB of 16 bits.
        libsoxr chooses SIMD code at run time (SSE on x86\-64, NEON on ARM, scalar
        elsewhere;
        .B SOXR_USE_SIMD
        overrides it), so
        .B engine=soxr
        may give different last bits on another CPU family.
        """#
}
