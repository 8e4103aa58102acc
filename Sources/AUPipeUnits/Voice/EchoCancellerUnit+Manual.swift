import AUPipeFormats
import AUPipeGraph

extension EchoCancellerUnit {
    /// What `aupipe help aec` says before the parameters: one screen. The rules behind it (the
    /// delay search and its warm start, drift, path changes, the residual suppressor, what
    /// --stats reports) are in the unit's manual section (`manual`).
    package static let helpDetails = """
        The stream is the microphone; ref= names the far end (a file, FIFO or <(command), mixed to
        mono, or N channels with speakers=N), or ref-channel=N an input channel. delay=auto finds the
        bulk delay, drift=auto a clock difference; a nonlinear canceller, a residual echo suppressor
        (speex's preprocessor's work) and comfort noise follow; from 24 kHz all of it runs on a low
        band near 16 kHz (bands=). --stats: ERLE, delay, drift, double talk, worst frame's CPU time.
        """
}

extension EchoCancellerUnit {
    /// The aec section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`),
    /// in parts to keep each file short.
    package static let manualText = [manualParameters, manualDelay, manualChannelsAndDrift, manualPlot].joined(separator: "\n")

    /// The start of `manualText`: what aec does, and its parameters.
    package static let manualParameters = #"""
        Cancels the echo of a loudspeaker in a microphone stream with speexdsp's
        acoustic echo canceller (MDF) and its preprocessor: what VoiceProcessingIO
        does on iOS, or the echo\-cancel modules of PulseAudio and PipeWire, as a
        filter in a pipe.
        The stream is the microphone, the near end.
        The far end, what the loudspeaker played, comes from a file, a FIFO or a
        process substitution
        .RB ( ref= ),
        or from a channel of the input
        .RB ( ref\-channel= );
        exactly one of the two is needed (status 64 otherwise).
        The output is the microphone with the echo of the far end taken out.
        The stream must be at least 8000 Hz and frames, tail and delays are checked
        in frames as well as in time (status 64 otherwise).
        A reference that ends before the stream is silence from there on, with one
        warning line on standard error.
        With
        .BI \-\-play " DEVICE"
        the far end of
        .B ref=
        is also played on a sound device as it is read, and the canceller gets it as
        the device plays it (full duplex; see
        .BR \-\-play ).
        .TP
        .BI ref= PATH\fR[\fB,format=\fITOKEN\fB:\fIRATE\fB:\fICHANNELS\fR]
        (bare value)
        The far end: a regular file, a FIFO or a process substitution such as
        .BR <(command) ,
        in any container aupipe reads (CAF, WAV, AU), or raw with
        .BR format= .
        No default.
        It is read as
        .B mix
        reads a bus (see
        .I The reference
        below), mixed to mono (the sum of its channels divided by their number) and
        resampled to the stream's rate as
        .B resample
        does it by default (soxr, high, zero delay).
        .B format=
        is its only option:
        .BR gain= ,
        .BR pan= ,
        .BR offset= ,
        .B loop
        and
        .B mute
        are refused (status 64; use
        .B delay=
        to shift it), and so is
        .B \-
        (standard input is the microphone).
        .TP
        .BI ref\-channel= N
        Take the far end from input channel
        .I N
        instead, counted from 0: an integer from 0 to 63.
        No default.
        The input needs at least two channels, and more than
        .I N
        (status 64 otherwise).
        That channel is dropped from the output, which keeps the other channels in
        their order: a stereo capture with the reference in channel 1 gives a mono
        output.
        .TP
        .BI speakers= N
        How many loudspeakers play the far end of
        .BR ref= :
        an integer from 1 to 8.
        Default
        .BR 1 :
        the far end is mixed to mono, one echo path.
        With
        .I N
        above 1 the far end is read as
        .I N
        channels (a mono far end is copied to each; another count is refused, status
        64) and speex's multichannel canceller models one echo path from each
        loudspeaker to each microphone, at
        .I N
        times the cost: a stereo far end played on two loudspeakers whose paths to
        the microphone differ is cancelled where its mono mix cannot be (23 dB against
        4 dB in the tests).
        .B delay=auto
        estimates the delay common to all of them from their sum, and
        .B \-\-play
        plays
        .I N
        channels.
        Needs
        .B ref=
        (status 64 with
        .BR ref\-channel= ).
        .TP
        .BI delay= DURATION\fR|\fBauto
        How long the reference is delayed before the canceller sees it:
        .BR auto ,
        or a duration, 0 to 2000 ms (a bare number is in milliseconds;
        .B s
        and frame counts such as
        .B 480f
        work too), and at most
        .B max\-delay=
        (status 64 otherwise).
        Default
        .BR auto :
        the delay is found from the two signals while running (see
        .I Delay
        below).
        A fixed delay should be the bulk delay between the reference and its echo in
        the microphone (the player's and the recorder's buffers, the way through the
        air), or a little less: the canceller's filter starts at the delayed
        reference and reaches
        .B tail=
        beyond it, so echo that arrives before the delayed reference, or after the
        tail, is not cancelled.
        .TP
        .BI max\-delay= DURATION
        The longest delay
        .B auto
        looks for, and the length of the reference's delay line: 10 to 2000 ms; a
        bare number is in milliseconds.
        Default
        .BR 500ms .
        A longer one makes
        .BR auto 's
        analyses cost more, and its warm start (see
        .I Warm start
        below) replays more.
        .TP
        .BI tail= DURATION
        The length of echo the adaptive filter covers after the delay: 10 to 2000 ms,
        and at least one frame; a bare number is in milliseconds.
        Default
        .BR 400ms ,
        chosen by measurement (see
        .I Defaults
        below): enough for rooms up to an RT60 of 1 s.
        A longer tail takes in more of the room's reverberation but adapts more
        slowly and costs more.
        .TP
        .BI frame= DURATION
        The frame speexdsp works on: 2.5 to 100 ms, and at least 16 frames; a bare
        number is in milliseconds.
        Default
        .B 20ms
        (for
        .B aec
        only; chosen by measurement, see
        .I Defaults
        below).
        See
        .I Frames
        below.
        .TP
        .BI preprocess= BOOLEAN\fR|\fBspeex
        What runs after the canceller: its residual echo and noise suppression
        (speex's preprocessor's work), level and voice activity.
        Default
        .BR 1 :
        on a stream of at most 16 kHz with one microphone channel,
        .B residual=1
        and no
        .BR agc= ,
        .B vad=
        or
        .BR dereverb= ,
        speex's preprocessor does not run: its suppression of the echo the canceller
        leaks (from the canceller's own leak estimate) and of the noise
        .RB ( denoise= ,
        with
        .B suppress=
        and
        .B suppress\-active=
        as the echo's floors) is done as speex computes it inside the residual echo
        suppressor's own transform, so that the post\-filter holds the output back one
        frame, not two (2.5 ms with frames under 20 ms); otherwise speex's preprocessor runs (at 48 kHz it took 0.5 to
        1.5 dB more of the near end in double talk than speex's preprocessor, not yet
        understood).
        .B speex
        runs speex's preprocessor before the residual echo suppressor in every case
        (a frame more latency).
        .B 0
        runs neither, nor the comfort noise.
        Without it,
        .BR suppress= ,
        .BR suppress\-active= ,
        .BR denoise= ,
        .BR agc= ,
        .B vad=
        and
        .B dereverb=
        have no effect.
        .TP
        .BI suppress= DB
        How far the residual echo (what the filter left of it) is suppressed while
        only the far end talks, in dB, \-100 to 0.
        Default
        .BR \-80
        (see
        .I Defaults
        below).
        .TP
        .BI suppress\-active= DB
        How far the residual echo is suppressed while both ends talk (double talk),
        in dB, \-100 to 0.
        Default
        .BR \-30
        (see
        .I Defaults
        below).
        Less suppression keeps more of the near end's voice.
        Both also bound the residual echo suppressor's gains (see
        .B residual=
        and
        .I Residual echo
        below).
        .TP
        .BI residual= BOOLEAN
        Run the residual echo suppressor (1) or not (0):
        it takes out, per frequency bin, what the linear filter leaves of the echo,
        including a saturating loudspeaker's distortion, without ducking the near
        end (see
        .I Residual echo
        below).
        Default
        .BR 1 ;
        it runs only with
        .B preprocess=1
        or
        .B speex
        and one microphone channel.
        .B residual=0
        gives the canceller and preprocessor alone, to compare.
        .TP
        .BI nonlinear= BOOLEAN
        With
        .BR residual=1 ,
        run the residual echo suppressor's nonlinear canceller (1) or not (0): a
        short second filter that cancels what a saturating loudspeaker adds to the
        echo (see
        .I Residual echo
        below).
        Default
        .BR 1 ;
        it pauses by itself where the loudspeaker does not saturate.
        .TP
        .BI comfort= BOOLEAN
        Comfort noise (1) or not (0): while the far end talks, what the
        suppressors took of the microphone's background is put back as noise of the
        level and spectrum the output has while the far end is silent (learnt then,
        after denoise= when it is on; before the far end's first silence, the
        microphone's background less denoise=), so that the line sounds the same
        whether the far end talks or not. A frequency bin that holds its background
        gets none (one 3 dB under it gets half). The output's background also has a
        floor: one 16-bit step rms (\-90 dBFS), shaped as the microphone's background
        and never above it, so that a quiet room (denoise= takes one of 40 dB SNR
        under half a step) is not digital silence; with the near end alone that is
        all that is added. The noise is seeded by frame: the same bytes on every
        run and block size.
        Default
        .BR 1 ;
        it runs only with
        .B preprocess=1
        or
        .B speex
        and one microphone channel.
        Its noise counts as residual echo in an ERLE measured by phase inversion.
        .TP
        .BI bands= auto|off
        From 24 kHz on, split the stream in two bands as WebRTC's AEC3 does
        .RB ( auto ):
        the microphone and the far end are decimated by the whole number nearest
        rate / 16000 (3 at 48 and 44.1 kHz, 6 at 96 kHz, 2 at 32 kHz) through a
        linear\-phase low\-pass (\-6 dB at 7 kHz of a 16 kHz low band), and everything
        above (the linear filter, delay=auto, drift=, the preprocessor, the residual
        echo suppressor, comfort noise, the statistics) runs on that low band (16 kHz;
        14.7 kHz at 44.1 kHz) as it runs on a 16 kHz stream; the rest of the
        microphone, the upper band, is held back to match and given, frame by frame,
        the share of the low band's top octave that the canceller kept (falling at
        once, rising within two frames), with comfort noise where that takes it under
        its own background. The two bands add up to the input exactly when nothing is
        removed. It costs far less CPU than the whole band and adds 2 ms of
        latency (removed from the output, as the frame's; --stats says it).
        .B off
        cancels the whole band.
        Default
        .BR auto ;
        a frame= or rate that is not a whole number of low-band frames is not split.
        .TP
        .BI denoise= DB
        Noise suppression in dB, \-100 to 0, as
        .B denoise
        does it.
        Default
        .BR \-30
        (see
        .I Defaults
        below);
        .B denoise=0
        removes no noise (the noise floor is 0 dB; see
        .I Residual echo
        below). With
        .B comfort=1
        the output's background stops at about one 16-bit step rms (\-90 dBFS)
        however far under that denoise= would take it.
        .TP
        .BI agc= LEVEL
        Automatic gain control towards this level, 1 to 32768, as
        .BR agc 's
        .BR level= .
        No default: off unless given.
        .TP
        .BI vad= BOOLEAN
        Run speex's voice activity detection (1) or not (0).
        Default
        .BR 0 .
        Its decision does not change the output:
        .B \-\-stats
        reports the share of frames it called voice (mono microphone).
        speexdsp prints a warning of its own on standard error when it is switched on.
        .TP
        .BI dereverb= BOOLEAN
        speex's dereverberation (1) or not (0).
        Default
        .BR 0 .
        .TP
        .BI drift= PPM\fR|\fBauto\fR|\fBoff
        How the far end's clock relates to the microphone's:
        .BR auto ,
        .BR off ,
        or a known drift in ppm, \-2000 to 2000 (a
        .B ppm
        suffix is allowed).
        Default
        .BR auto :
        the drift is tracked and compensated (see
        .I Clock drift
        below).
        A positive drift means the microphone records (1 + PPM/1000000) frames for
        every frame of the reference, so the echo arrives progressively later (at
        1000 ppm, 1 ms later every second); a negative one, earlier.
        .B drift=
        .I PPM
        resamples the reference by that much from the start;
        .B off
        uses it sample for sample as read.
        With
        .B ref\-channel=
        the far end shares the microphone's clock:
        .B auto
        then does nothing and a number is refused (status 64).
        """#
}
