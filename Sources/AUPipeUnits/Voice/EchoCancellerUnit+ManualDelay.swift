import AUPipeFormats
import AUPipeGraph

extension EchoCancellerUnit {
    /// Of `manualText`: the reference, the delay and its warm start, residual echo, the defaults.
    package static let manualDelay = #"""
        .TP
        .BI plot= PATH
        Draw the ERLE, the delay in use, the drift and double talk over stream time
        into an SVG file at the end (see
        .I The plot
        below).
        No default.
        Its name must end in
        .B .svg
        (another extension is refused with status 64 before the stream starts).
        It must be a regular file (or a new one); a FIFO is refused (status 64), and
        so are the input, the output and
        .BR ref= 's
        file.
        .TP
        """# + "\n" + LiveSetting.manual(what: #"Whether a FIFO or pipe\#n.B ref=\#nis read in real time"#,
                                                 on: #"reads it in real time in any run,"#, off: #"waits for it in any run."#) + "\n" + #"""
        .PP
        .I The reference.
        .B ref=
        is read as
        .B mix
        reads a bus, with
        .B wait=5ms
        (which cannot be changed here).
        A regular file is read with blocking reads and delivers every frame, in step
        with the stream; so is a FIFO or pipe in a run that is not real time (files
        and pipes alone, without
        .BR \-\-live ):
        it is waited for, however late its writer starts, so the output is the same
        on every run
        .RB ( "cat mic.wav | aupipe aec ref=<(sleep 0.3; cat far.wav)"
        cancels as with files).
        In a real-time run
        .RB ( \-\-capture
        or
        .BR \-\-live ,
        or
        .BR live=on ),
        a FIFO or pipe reference is read without blocking, so that it never stalls the
        microphone: what has not come within 5 ms of a block is silence, and as many
        of its frames are dropped when they come late, so it keeps its place on the
        stream's timeline.
        Late frames are said once on standard error at the end
        .RB ( "aupipe: aec: ref (far.fifo): warning: 1200 frames came late and were silence ..." )
        and counted in
        .B \-\-stats
        .RB ( referenceLateFrames
        in
        .BR \-\-stats=json ).
        Frame 0 of the reference lines up with frame 0 of the stream, before
        .BR delay= .
        A reference that ends before the stream is silence from then on (the rest
        of the microphone passes with nothing cancelled): as soon as the stream goes
        on past its end, one line on standard error says so, with or without
        .B \-\-stats
        .RB ( "aupipe: aec: warning: the reference far.wav ended at 1.000 s, before the stream; silence from there on" ),
        and
        .B \-\-stats
        says where it ended too.
        A reference longer than the stream is read no further.
        A reference that cannot be opened gives status 66, one with no header and no
        .B format=
        or with a malformed header status 65, as for
        .BR mix ;
        a regular file's header is read before any audio, with
        .B \-\-check
        too.
        .PP
        .I Delay.
        .B delay=auto
        estimates the bulk delay with GCC\-PHAT.
        Every quarter of a second it correlates the last half second of the
        microphone (its first channel) with the reference frames that could have
        made its echo, whitened between 100 Hz and 7 kHz (at most 0.45 times the rate) and
        smoothed over the analyses; above 16 kHz both signals are first decimated to at most 16 kHz
        for this.
        An analysis in which either signal is near silence (RMS below \-70 dBFS) is
        skipped.
        A peak counts only when it stands at least 20 times above the correlation's
        noise floor, and a new delay must win three analyses in a row (within 1 ms
        of one another; for the first estimate within 5 ms, since a room's strongest
        paths can take turns a few milliseconds apart) before it is taken, so the
        estimate does not jump about; until the first estimate, though, one analysis
        whose peak stands 40 times above the floor gives the first delay at once.
        The delay applied is the estimate less 10 ms (not below 0), so that the
        first part of the echo, which can come a few milliseconds before its
        strongest part, stays inside the filter.
        The analyses start a quarter of a second in (before their start both
        signals count as silence).
        Until the first estimate the reference is not delayed; with speech at both
        ends it comes within about half a second of the echo's arrival.
        When the estimate moves (the echo path changed) by 5 ms or more, the new
        delay is applied once none of the analyses that moved it saw double talk
        (a near talker can raise a correlation peak of its own at another lag);
        smaller moves are ignored, and a first estimate equal to the delay in use
        (0) changes nothing.
        Only delays from 0 to
        .B max\-delay=
        are found: the echo cannot come before the reference.
        A file given as the reference is read from its start at the stream's start,
        so start playing it as the recording starts or just after: the time between
        the two counts in the delay, with the way to the microphone.
        .PP
        .I Warm start.
        A change of the delay (the first estimate too) warm\-starts the canceller:
        it is reset and run again, its output discarded, over the last 1.5 s plus
        .B max\-delay=
        of the stream (2 s by default; all of it if shorter) with the reference at
        the new delay, so that it goes on as converged as if it had had that delay
        all along, instead of adapting again from nothing for a few seconds.
        When that is the whole stream so far, a fresh canceller takes over: exactly
        the one a fixed
        .B delay=
        would have given.
        The preprocessor is not run again (its noise estimate and gain control
        would count that time twice).
        .PP
        .I Fast start.
        At the first estimate a short filter (200 ms, the path change's shadow
        below) is put in use, trained at once several times over all the stream so
        far and again every 0.1 s for a second, so that the call's first echo is
        cancelled within about half a second; the full\-tail canceller learns the
        room beside it and gets its place back once it cancels as much (at most
        2 s later).
        That replay costs, in that one frame, about 3.5 ms of CPU per second
        replayed at 16 kHz and 11 ms at 48 kHz with the default tail (release
        build, x86\-64; more with a longer tail), and in a live pipe holds that
        frame back as long.
        .PP
        .I Residual echo.
        With
        .B preprocess=1
        every microphone channel goes through a preprocessor of its own after the
        canceller.
        With one microphone channel it is attached to the canceller's state and
        suppresses the residual echo
        .RB ( suppress= ,
        .BR suppress\-active= ).
        speex applies that suppression in the spectral gain of its noise
        suppressor, which it runs only when noise suppression is on: so under
        .B aec
        noise suppression is always on, with the noise floor
        .B denoise=
        gives (0 dB: no noise removed).
        speex's residual echo suppression works with a mono microphone only: with
        several microphone channels there is none
        .RB ( suppress= ,
        .B suppress\-active=
        and
        .B residual=
        do nothing), and each channel's preprocessor does only what
        .BR denoise= ,
        .B agc=
        and
        .B dereverb=
        ask.
        .PP
        With
        .B residual=1
        (the default), a residual echo suppressor follows the preprocessor (one
        microphone channel only).
        It predicts, per frequency bin of a short\-time Fourier transform (windows of
        two frames at a hop of one; with frames under 20 ms a 40 ms analysis window
        and a 2.5 ms synthesis overlap), the power of the echo the linear filter left
        from the filter's own echo estimate (the microphone through speex's own DC notch
        less the canceller's output: what the notch takes, under about 50 Hz, is not
        echo): that estimate's power, the same held over
        a decaying tail (the room beyond
        .BR tail= ),
        spread over \(+-500 Hz, and spread over the whole band (a saturating
        loudspeaker's harmonics and intermodulation follow the echo's overall level).
        The weights of these terms are learned only in frames where the far end talks
        alone: no double talk, the microphone coherent with the echo estimate and no
        more than 3 dB above it.
        Each bin's gain then takes the predicted echo out (a Wiener\-like gain, down to
        .BR suppress= ),
        but never below the noise floor (so the noise bed stays and does not pump);
        in frames where the near end may be talking it acts gently (down to
        .BR suppress\-active= ,
        and in bins where the near end is present no more than the predicted echo):
        no broadband gain is ever applied, so the near talker is not ducked, the trade
        WebRTC's canceller makes and this one refuses.
        Gentle mode outlasts a near talker's word by the detectors' release; when a
        word has just ended (a frame 20 dB over the predicted echo and noise, then,
        within 40 ms, frames that prediction explains) the bins where no near end is
        heard get the far end's gain at once, for as long as the frames stay
        explained.
        For the gain, a frame counts as the far end's alone while the microphone's
        incoherence with the echo estimate stays within twice its running median over
        such frames (and within that of a coherence of 0.88): in babble, speech that
        is noise, the microphone is less coherent with the echo in most frames of
        echo alone, while a near talker at the echo's level starts well above that
        median; in a quiet room nothing changes.
        Nor is a frame taken for the near
        end's by its incoherence alone when the canceller's output holds no more power
        than the background's running median level (per bin, over frames where the far
        end talks and no near end is heard) and the predicted residual account for:
        babble's frames of echo alone (not within 0.5 s of a near end found per bin).
        On the babble scenes of
        .B bench/aec/
        (15 dB SNR, three rooms) this took the worst from 25.5 to 30.8 dB of ERLE,
        the near end in double talk staying at \-1.6 dB or better in every scene.
        The suppressor also finds the near end per bin, once its model has had 4 s
        of echo alone: a bin whose microphone stands 6 dB over the echo estimate and
        the background, and whose output the model does not explain, is the near
        end's, and a frame with enough such bins passes them as the canceller gave
        them. A near talker 10 dB under the echo keeps \-1.3 to \-2.0 dB on the
        quietnear scenes (at 6d15916).
        For the call's first echo, from the moment the delay is found until the first
        filter has converged (it cancels 20 dB, or the suppressor has had 0.5 s of
        echo alone by the filter's estimate, or 4 s of far end have passed), the
        suppressor also predicts the echo from the far end itself: its power over
        the analysis window around the delay, held with the tail's decay, times a coupling
        per bin learnt from the microphone (lowered by anything, raised only within
        6 dB of the prediction, outside double talk and where the microphone is
        coherent with the echo estimate), in the frames that prediction explains.
        Before the delay is found, and while the first filter's estimate is not yet
        coherent with the microphone, a frame is the echo's when the far end explains
        0.4 or more of the microphone's power at one lag (its coherence with the far
        end at every lag the search allows) for 80 ms in a row; before the delay each
        bin is then suppressed by its coherent share. A near talker who starts with
        the call is coherent with the far end at no lag and is kept.
        Its model runs on the canceller's output before the preprocessor (whose
        residual follows the echo estimate steadily; modelled after the
        preprocessor, whose own suppression switches from frame to frame, the same
        setting gained 1 dB less in rooms) and its gain applies to the
        preprocessor's output: applied before the preprocessor instead, it measured
        1 to 4 dB more ERLE in rooms and 2 dB more with a saturating loudspeaker, but
        took 0.75 to 1 dB off the near end's SI\-SDR in double talk (against 0.2 to
        0.3 dB here).
        With
        .B preprocess=1
        (the default), with one microphone and without
        .BR agc= ,
        .B vad=
        or
        .BR dereverb= ,
        the preprocessor's own suppression is a second gain in this transform, from
        the canceller's leak and a noise estimate that does not rise with the residual
        echo, and speex's preprocessor does not run; the two gains multiply, and the
        output is one frame late (2.5 ms with frames under 20 ms; a frame more
        otherwise).
        With
        .B nonlinear=1
        (the default) a second, short canceller (100 ms, speexdsp) comes first, on
        the linear canceller's output.
        Its references are the far end's
        .IR x \(mu| x |
        and
        .IR x \(ha3
        made orthogonal to
        .I x
        and to each other (over the last few seconds) and brought to the far end's
        level, so that with the linear filter it models a saturating loudspeaker: a
        memoryless nonlinearity, then the room.
        (On the far end of
        .BR bench/aec/ ,
        tanh(3\fIx\fR)/3 is explained to 12 dB by
        .I x
        alone and to 30 dB by
        .I x
        and
        .IR x \(mu| x |;
        a hard clip to 23 dB.)
        Its estimate is taken out times the share of it that is echo (the
        least-squares scale of the signal on it over about 10 s, 0 to 1), so that a
        filter with nothing to model adds nothing (in pink noise at 5 dB SNR it cost
        5 dB of ERLE before that); a share under 0.75 only once no near end has been
        heard for a second.
        While it runs with a share of 0.5 or more, a frame the suppressor's model
        explains is the far end's alone however small the predicted residual beside
        the echo estimate, and once no near end has been heard for a second no bin is
        kept as the near end's by its coherence with the estimate (a distorted echo
        is incoherent with it in every bin); the near end's own tests stay as they are.
        While a sign also says the loudspeaker distorts (over seconds of far end
        alone the linear canceller leaves more than \-14 dB of the echo in its
        loudest frames; off again under \-17 dB, and a linear loudspeaker leaves far
        less there), such a frame is explained after 0.2 s without a near end
        instead of a second, and outside a detected double talk the per-bin test of a
        near end counts as residual the loudspeaker's harmonics of the frame's echo
        (at twice, three and four times its partials' frequencies, at a level learnt
        per bin in frames of its echo alone); a frame that test takes for the near
        end's stays so only if it still does with the harmonics at the level they
        reach in a tenth of those frames, or if its near-end bins reach under 650 Hz
        or span 400 Hz (a word's first frame: a burst of harmonics leaves a few bins
        above the low band).
        It runs in probes of 3 s of far end; after a probe in which its share was 0.5
        or more in under a quarter of the frames (a loudspeaker that does not
        saturate) it probes again at once the first time, and pauses for 60 s after a
        later one; where it runs it costs
        about 1.2 times the bare
        canceller's CPU.
        The suppressor itself adds one frame of latency (removed from the output's
        timing); with frames under 20 ms, 2.5 ms (its gain computed on a 40 ms window,
        resynthesised with a short one), and costs about 0.35 times the bare canceller's CPU.
        .B \-\-stats
        gives the share of frames in which its model adapted (those it took for the
        far end alone), those in which the loudspeaker's distortion sign was on, and
        those in which the nonlinear canceller ran and its estimate was taken out.
        Its noise floor starts from the stream's first frames: after digital
        silence it suppresses down to the noise bed only once it has seen the
        noise (2 to 4 s).
        On the 29 scenes of
        .B bench/aec/
        with targets it raises the mean ERLE in rooms from 31.0 to 44.7 dB at delays up to 120 ms
        and from 31.4 to 44.3 dB at 300 to 400 ms (the worst room from 26.2 to
        38.4 dB), with a saturating loudspeaker from 18.4 to 34.0 dB (the nonlinear
        canceller, when it came, took the worse of the two saturating scenes from
        23.0 to 31.5 dB, every other scene as it was) and in babble at 15 dB SNR
        from 25.2 to 34.4 dB (three rooms), with the near end's worst gain in double
        talk going from \-1.3 to \-1.6 dB and its mean SI\-SDR from 8.8 to 8.4 dB.
        .PP
        .I Defaults.
        .BR tail= ,
        .BR frame= ,
        .BR suppress= ,
        .B suppress\-active=
        and
        .B denoise=
        were chosen by measurement on the 23 echo scenes of
        .B bench/aec/
        (42 s each at 16 kHz: espeak\-ng speech at both ends, rooms of RT60 0.2 to 1 s
        at delays of 0 to 400 ms, pink noise and babble at 5 to 45 dB SNR, a saturating
        loudspeaker, an echo\-path change, double talk, clock drift), as the setting
        that gives the best worst\-case ERLE while the near end keeps at least \-2 dB
        in double talk, over all the scenes rather than one
        .RB ( "bench/aec/compare.py sweep" ;
        the ERLE there is measured against the true echo, see bench/README.md).
        The former defaults (200 ms, 10 ms, \-40, \-15, no noise suppression) gave
        26.0 dB on average in rooms at delays up to 120 ms, 21.9 dB at 300 to 400 ms,
        14.0 dB in the worst room (RT60 1 s) and 16.2 dB with a saturating
        loudspeaker; the defaults give 31.0, 31.3, 26.2 and 17.7 dB, with the near end
        at \-1.3 dB or better in double talk.
        A 400 ms tail gives 26.2 dB in the worst room against 21.7 dB with 300 ms and
        14.3 dB with 200 ms (500 ms gains 0.8 dB there but loses 1 dB on average: it
        adapts more slowly);
        20 ms frames cancel 0.9 to 4.7 dB more than 10 ms on average in every kind of
        scene, at 10 ms more latency and no more CPU;
        .B denoise=\-30
        adds 2.7 dB on average (8 dB in noise) for 0.4 dB less of the near end in
        double talk, and stronger noise suppression adds nothing;
        .B suppress=\-80
        and
        .B suppress\-active=\-30
        add 0.5 dB in the worst case (the saturating loudspeaker) at the same
        near\-end level, and stronger settings at most 0.2 dB more.
        The whole benchmark, with speexdsp and WebRTC's canceller on the same scenes,
        is
        .BR bench/aec/run .
        """#
}
