import AUPipeFormats
import AUPipeGraph

extension EchoCancellerUnit {
    /// Of `manualText`: channels, frames, statistics, clock drift, echo-path changes, what it achieves.
    package static let manualChannelsAndDrift = #"""
        .PP
        .I Channels.
        All microphone channels (the input's channels with
        .BR ref= ,
        all but the reference with
        .BR ref\-channel= )
        go through one multichannel canceller (speex's multichannel state) with the
        one reference, and come out in their order.
        .PP
        .I Frames.
        speexdsp works on whole frames of
        .B frame=
        and on 16\-bit samples: the microphone and the reference are rounded to 16
        bits (to nearest, ties to even) and clipped at full scale on the way in
        (these clips are counted in the unit's
        .B clipped
        figure of
        .BR \-\-stats ),
        and the output holds 16\-bit values, whatever the stream's encoding.
        The output has exactly the input's frame count: a part\-filled last frame is
        padded with silence, processed and trimmed.
        The residual echo suppressor's delay (a frame; 2.5 ms with frames under
        20 ms) (and, with
        .BR preprocess=speex ,
        the preprocessor's) is removed, so nothing is shifted
        in time; in a live pipe the output comes a frame at a time (see
        .BR "LENGTH AND TIMING" ).
        The output does not depend on
        .BR \-\-block .
        .B aec
        is never bypassed.
        .PP
        .I Statistics.
        .B \-\-stats
        adds a note such as
        .PP
        .RS
        .EX
        ERLE 62.38 dB (median 55.88 dB) after convergence at 0.600 s, delay 90 ms (auto: found at
        0.250 s, changed 0 times since, canceller warm\-started from 0.240 s of
        history, correlation peak 202.45\(mu its noise floor), fast start at the first delay:
        the short filter in use from 0.240 s, the full tail back at 2.230 s, ...
        .EE
        .RE
        .PP
        (one line; it goes on with the shadow canceller, the drift, the residual echo
        suppressor, comfort noise and the worst frame).
        The ERLE (echo return loss enhancement) is how much quieter the output is
        than the microphone while there is echo to cancel: 10\(mulog10 of the
        microphone's energy over the output's, over half a second of frames in which
        the delayed reference is above \-50 dBFS and the microphone above \-60 dBFS
        (RMS over the frame; a silent microphone holds no echo to measure).
        The canceller has converged when its filter itself cancels, before the
        preprocessor (whose suppression of residual echo or noise is not
        cancellation): the filter's output is 10 dB or more below the microphone in
        two such half seconds in a row.
        Convergence is dated at the start of the first, and the note gives the upper
        quartile of the half seconds from there on: the ERLE the canceller holds
        while only the far end talks, which double talk (where the output is the near
        end's speech, not residual echo) and adapting again after an echo\-path change
        do not drag down as long as echo alone fills more than a quarter of the time.
        On the synthetic scenes of the tests it reads within 5 dB of the ERLE measured
        against the true echo there.
        The median beside it is the run as a whole, double talk included.
        The note says
        .B not converged: the filter never cancelled 10 dB for 1 s
        (and takes the figures of them all) when that never happened, as with an echo
        beyond
        .BR max\-delay= ,
        and
        .B ERLE: no echo measured
        instead of a figure when there was no such half second: the far end never
        played, or the microphone stayed below \-60 dBFS while it did.
        Then the delay in use: with
        .BR auto ,
        the delay applied (the estimate less 10 ms), when it was first found, how
        often it changed after that, how much history the last change's warm start
        replayed (left out when no change needed one), and how far the correlation's
        peak stands above its noise floor (20 or more counts).
        Without an estimate the note says
        .B delay not found
        with the number of analyses made, and 0 ms is used.
        Then, when the cancellation ever fell suddenly (see
        .I Echo\-path changes
        below):
        .B a shadow canceller ran after 5 sudden falls of the cancellation, taking over 1 time (an echo\-path change; the last at 27.800 s), the full\-tail canceller back in place 1 time
        or
        .BR "never taking over" .
        Then the drift (with
        .B ref=
        and not
        .BR drift=off ):
        .B drift 998.8 ppm
        with, for
        .BR auto ,
        when it was found, from how many measurements of the echo's lag, when
        compensation started (with
        .B "the canceller retrained on 1.500 s of the past, warped"
        when it was retrained then; or
        .B not compensated yet (under two frames of drift over 6 s)
        when it has not, or
        .B not compensated: its measurements do not follow one path
        when that holds it back) and the resampling in use at the end;
        .B drift not found
        when there were too few measurements.
        A reference that ended before the stream adds
        .BR "the reference ended at 1.000 s; silence after it" .
        .PP
        .I Clock drift.
        A microphone on one device and a far end played on another (HDMI, a USB
        speaker, a Bluetooth sink, or a reference recorded elsewhere) run on two
        clocks that differ by 20 to 1000 ppm: at 100 ppm the echo moves 6 ms a
        minute, at 1000 ppm 1 ms a second, and a canceller adapted to one alignment
        loses it.
        With
        .B drift=auto
        the echo's lag is measured to a fraction of a sample every quarter second
        (the peak of the delay estimator's correlation between the reference as
        compensated and the microphone, refined by a parabola and followed from one
        analysis to the next; a path lost for 2 s, as after an echo\-path change, is
        replaced by the strongest one, joined to the earlier measurements without a
        jump; a peak elsewhere four times higher than the path's own takes its place at
        once: before its echo is heard, a recorded voice can resemble itself a few
        hundred ms later).
        The lag without the compensation, over the last 240 measurements (30 s; with a
        fixed
        .B delay=
        the analyses are once a second once a drift is found), gives
        the drift as the median of the slopes between each measurement and the one
        half the window later, once they span 3 s.
        A drift too fast for those analyses (their half\-second windows smear the
        peak of an echo that moves 8 samples in one at 1000 ppm) is first found by a
        second tracker on quarter\-second windows of the band up to 3 kHz, whose
        first estimate needs only 1.5 s of measurements: it is used from 60 ppm until
        the first has an estimate of its own, so a large drift is compensated about
        2.2 s into the stream.
        Sooner, from five measurements over half a second, when they lie on one line
        (within half a frame of it at 16 kHz, root mean square, none beyond a frame,
        the slope ten standard errors from zero: the lag wandering between a diffuse
        room's taps at the start of an echo does not), a drift of 100 to 1000 ppm is
        compensated 1.2 to 1.9 s into the stream; under 300 ppm the canceller is then
        kept rather than retrained.
        Once the drift found would have moved the echo by two frames over 6 s or more
        of measurements on the path followed (a path found again after a gap of over
        a second starts anew), or at once when it is beyond 300 ppm, and either tracker
        only while its measurements follow one path (they lie within a frame of their
        line at 16 kHz, three at 48 kHz, plus a quarter of what the drift moves the echo within one analysis
        window, and three quarters of the slopes between them lie beyond half the
        drift on its side: in a diffuse room without a direct path the peak wanders
        between taps and reads as a drift of hundreds of ppm), the reference is
        resampled continuously (libsoxr's
        variable\-rate mode) to 1 + drift frames per frame read, plus a correction
        (at most 500 ppm) that brings the lag back within 2 s to where it was when
        compensation started; within \(+-2000 ppm in all.
        When the compensation starts, for a drift of 30 ppm or more, the canceller
        (adapted so far to an echo that moved) is retrained once on the history it
        keeps of both inputs (2 s with
        .BR delay=auto ,
        1.5 s plus
        .BR max\-delay= ;
        about 1.2 s with a fixed
        .BR delay= ),
        the reference's past warped by the drift found (a sample
        .I k
        frames back read drift\(mu\fIk\fR frames later, by Lanczos interpolation): what the
        compensation would have made had it always run.
        Every later read of that past (the delay line's first frames, a warm start
        after the delay changes, a shadow's replay) reads it warped the same way.
        The retraining is a burst of speex work in one frame, like a delay's warm
        start: about 10 ms of CPU at 16 kHz with the default tail, three times that at
        48 kHz.
        On the bench's drift scenes this raised the ERLE after 3 s from 14\(en25 dB to
        36\(en47 dB.
        Below 30 ppm the canceller follows on its own and is not retrained.
        Until then the reference is used sample for sample as read, so that a stream
        without drift is cancelled exactly as with
        .BR drift=off .
        While double talk is detected (below) and for a window after it, and while
        the far end is silent, nothing is measured and the resampling stays as it
        is.
        On the tests' 32 s scenes (speech\-like far end, a room of RT60 150 ms, 60 ms
        of delay, 2 s of double talk) the drift is found within 5 ppm at +100,
        \(+-500 and \(+-1000 ppm, and the ERLE over the last 10 s is 36 to 44 dB
        (48.5 dB without drift, the same as
        .BR drift=off ),
        where
        .B drift=off
        keeps under 1 dB at \(+-1000 ppm.
        A drift that moves from 300 to 600 ppm over the 32 s keeps 32 dB; the drift
        reported trails such a change (434 ppm at the end: the fit spans 30 s), the
        correction towards the lag held making up the rest.
        From the moment compensation starts, the reference is read ahead of the
        canceller by the resampler's latency (240 frames: 15 ms at 16 kHz, 5 ms at
        48 kHz).
        .PP
        Double talk, for the drift tracker and the plot, is a sudden fall of the
        filter's own cancellation (microphone over the filter's output, before the
        preprocessor, smoothed over 100 ms) 10 dB or more below its recent level
        (which rises within 200 ms and falls over a second), while the far end plays
        and after the canceller has cancelled 10 dB; it holds 200 ms.
        An echo\-path change reads as double talk until the filter has re\-adapted.
        The residual echo suppressor reads double talk the same way, except that while
        it holds, the recent level falls over 5 s (a near talker who goes on for
        seconds stays double talk), and that the output's background (the least of its
        smoothed power over the last 2 to 4 s) is taken from both powers first, the
        output's counted at no less than 5 dB under the background: in noise the plain
        cancellation is capped by the background, and a near talker under the echo
        would lower it by less than 10 dB.
        .PP
        .I Echo\-path changes.
        speex's filter re\-adapts slowly when the echo path changes (someone moves, a
        door opens): on the
        .B pathchange
        scene of
        .I bench/aec/
        it took 3.2 s to cancel 10 dB again.
        A sudden fall of the cancellation (the double talk above) is either the near
        end talking or such a change, so at each one (at most one at a time, 0.5 s
        apart) a second, shadow canceller starts afresh beside the one in use and runs
        on the same frames for up to 2 s.
        Its tail is 200 ms (or the canceller's, if shorter): a fresh filter of the
        whole tail learns a reverberant room slowly, a short one learns a room's direct
        path and early echo within a fraction of a second.
        Every 0.1 s in its first second it is trained again, three times over, on all
        it has seen (the history of both inputs), which learns a new room faster than
        one pass; after its first 0.2 s, only while its output is within 2.5 dB of the
        canceller's (in double talk it stays louder, and its retraining would be for
        nothing).
        That retraining runs in the background, spread over the frames that follow: a
        third speex state is reset and replayed, at most 20 speex calls per frame,
        caught up with the stream and swapped in, so no frame of a live capture is held
        back for it.
        It takes over only if its output is 2 dB quieter than the canceller's over
        0.2 s of far end; a linear filter cannot cancel a near end, so in double talk
        it never does, and the canceller in use is never reset for it; a shadow 4 dB
        louder than the canceller (double talk: the canceller in use still cancels the
        echo) is dropped once it has had 0.2 s of far end (one started in a pause of the
        far end has learnt nothing yet).
        Before the take-over, while the shadow is the quieter over that window (and
        after it, while the replaced canceller runs on beside the new one), the residual
        echo suppressor passes the other filter's output instead of the canceller's in
        the bins where it is 6 dB quieter: what a filter of the far end removes there is
        echo, and the output it passes still holds a near talker.
        A take-over confirms a path change: the fall is no longer counted as double
        talk from then on, and for 1 s the residual echo suppressor sets its coherence
        tests aside (the new filter's estimate is not yet coherent with the
        microphone, but all of it is echo) and learns and suppresses the transitional
        residual at full depth; the weights it had before come back after that
        second, so that the transition's larger leakage does not deepen the
        suppression of later double talk (a near end starting within it is still
        caught by the canceller's fall, or by the microphone being 3 dB louder than
        the echo estimate, a test that stays: in a room of RT60 0.4 s, a near end
        starting 0.6 s after the change keeps \-1.8 dB in double talk, against \-1.1
        with
        .BR residual=0 ).
        After a take-over the replaced full\-tail canceller goes on adapting to the new
        path beside the short one, and speex's preprocessor stays with it meanwhile
        (speex estimates the residual echo its preprocessor suppresses only once it
        counts a filter as adapted, which a new filter seldom is within a second of a
        path change); it is handed its place back once its output is 1 dB quieter over
        0.2 s (after at least 0.5 s, after 8 s in any case).
        On the five path changes of
        .I bench/aec/
        (rooms of RT60 0.2\(en1 s at 40\(en300 ms) the output cancels 10 dB again 0.7,
        0.9, 0.7, 0.5 and 0.4 s after the change (without the suppressor's second after
        a take\-over: 0.9, 0.9, 1.0, 0.8 and 3.5 s, the RT60 1 s room's tail being more
        than the 200 ms shadow models; a full\-tail shadow taking over at 4 dB, without
        a hand\-back: 0.9, 1.3, 3.1, 1.1 and 3.5 s).
        No other scene changes.
        Only while a shadow or a replaced canceller runs is speex run twice per frame
        (and retrained); without a sudden fall nothing changes a sample
        .RB ( "delay=0 preprocess=0"
        stays bit\-identical to direct speexdsp calls).
        .PP
        .I What it achieves.
        On the 42 scenes of
        .B bench/aec/
        (42 s each, 16 kHz;
        .B bench/aec/run
        on commit 2949bc3, bench/README.md, "Rerun at 2949bc3"), the
        defaults against WebRTC's AEC3 (the canceller PipeWire's echo\-cancel uses,
        with its noise suppression; it finds the delay itself), WebRTC's canceller of
        webrtc\-audio\-processing 0.3 (told the true delay): ERLE in dB, the mean /
        the worst scene of a kind (in noise, the residual echo told from the noise by
        phase inversion; aec's without its comfort noise); the near end's own level
        in double talk in dB; AECMOS, the AEC Challenge's perceptual model (1\(en5;
        read beside ERLE, as it rates silence highly), for the echo in the first
        2.5 s of a call and for the other degradations in double talk (which a ducked
        near talker lowers):
        .PP
        .RS
        .nf
                                aec          AEC3         WebRTC 0.3
        rooms, 0\-120 ms (5)     41.8/35.2    33.9/13.1    52.0/36.6
        rooms, 300\-400 ms (3)   41.0/34.8    33.5/23.2    57.9/54.0
        saturation (6)          29.5/20.0    32.4/26.2    44.7/31.1
        babble, 15 dB SNR (3)   32.2/30.2    36.3/26.4    48.2/46.9
        babble, other rooms (3) 33.2/29.2    35.8/32.0    46.9/45.5
        clock drift (8)         41.0/36.8    27.2/15.4    42.6/33.9
        path changes (5)        33.7/27.1    36.6/21.2    59.0/55.0
        near end, double talk   \-0.9/\-1.2    \-8.6/\-10.8   \-8.8/\-11.2
        quiet near talker       \-1.6/\-1.9    \-12.0/\-14.6  \-17.2/\-26.1
        AECMOS, call start      3.79         4.28         4.39
        AECMOS, double talk     4.10         1.68         1.44
        CPU ms/s (fa0e8aa run)  8.6          3.8          4.3
        .fi
        .RE
        .PP
        aec keeps the near talker (the others duck it by 8\(en11 dB, a quiet one by
        12\(en26) and leads on rooms, long delays and drift; it is behind AEC3 in the
        first seconds of a call and after a path change, with a saturating
        loudspeaker, in babble from other rooms, in CPU and in latency: in a live pipe
        the defaults hold the output back by 24\(en34 ms (the 20 ms frame, and a frame
        more for the residual echo suppressor, which does speex's preprocessor's work
        too; 42\(en50 ms where speex's preprocessor runs: with
        .BR preprocess=speex ,
        .BR agc= ,
        .B vad=
        or
        .BR dereverb= ),
        AEC3 by its 10 ms frame.
        """#
}
