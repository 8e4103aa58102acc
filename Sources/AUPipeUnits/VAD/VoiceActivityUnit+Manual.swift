import AUPipeFormats
import AUPipeGraph

extension VoiceActivityUnit {
    /// The vad section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Detects voice activity in every 10\ ms frame of the stream, at any sample rate and with no
        model to download: the channels' mean is analysed over its last 20\ ms (Hann window) between
        150\ Hz and 4\ kHz, and each frequency bin's noise power follows the bin's 30\ % quantile
        over time (seeded on the first 100\ ms of sound, quick for the first second, then up to 6.5\ dB a
        second), so that it stays at a fluctuating noise's typical level instead of its dips. Two
        features against that noise, the share of bins more than 6\ dB above it and the band's
        SNR, give the log-odds of speech (a logistic model fitted on speech in pink noise and
        babble), smoothed over about 50\ ms. When the band's level has spanned more than 8.7\ dB
        over the last seconds (its 30\ % and 90\ % quantiles), a frame counts as speech only in the
        upper 75\ % of that range: other talkers at a distance light up the spectrum as a near
        talker does, but not at the near talker's level.
        Under 8000\ Hz the band ends short of 4\ kHz, at the Nyquist frequency, and a warning
        says so.
        Frames are exact on the input's timeline: frame k spans samples k*rate/100 to
        (k+1)*rate/100.
        .TP
        .BI threshold= P
        A frame is speech when the smoothed probability of speech exceeds this (and its level passes the range test above).
        Default 0.5, 0.05 to 0.95. Lower finds more quiet speech and more noise. Live:
        .BR "set vad.threshold 0.6" .
        .TP
        .BI hangover= DURATION
        A frame stays speech this long after the last frame judged speech, so that word ends and
        short pauses are kept. Default 100ms, 0 to 5000 ms.
        .TP
        .BI gate= 0|1
        1 mutes what is not speech with a 5\ ms ramp; 0 passes the audio untouched, byte for byte.
        Default 0.
        The decision of a frame acts from the next frame: no latency, exact length.
        .TP
        .BI events= PATH
        Where the JSON lines go (default stderr): one
        .B {"event":"start","frame":F,"t":S}
        when a segment starts and one
        .B {"event":"end","frame":F,"t":S,"start":F,"frames":N,"seconds":D}
        when it ends (or the stream does), in frames and seconds of the input.
        A FIFO whose reader is too slow loses lines, never stalls the stream.
        .PP
        While running,
        .B get vad.active
        reads 1 during speech and 0 otherwise;
        .BR vad.probability ,
        .B vad.segments
        and
        .B vad.speech\-seconds
        the figures so far.
        .B \-\-stats
        prints the speech time and the number of segments (JSON speechSeconds, segments).
        Frame F1 against labels from clean speech, in pink and babble noise beside WebRTC's VAD:
        bench/README.md.
        """#
}
