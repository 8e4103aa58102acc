extension ManualText {
    /// EXAMPLES.
    package static let examples = #"""
        .SH EXAMPLES
        Capture from ALSA, resample to 16 kHz mono and encode Opus.
        Raw input gives raw output, so ask for WAV:
        .PP
        .RS
        .EX
        arecord \-q \-t raw \-f S16_LE \-r 48000 \-c 2 |
          aupipe \-\-live \-\-in\-format S16_LE:48000:2 \-t wav resample 16000 : convert channels=1 |
          opusenc \- call.opus
        .EE
        .RE
        .PP
        A voice through LADSPA plugins from swh\-plugins: a 100 Hz high\-pass and a
        4:1 compressor, before Opus; the compressor's gain reduction is printed at
        the end:
        .PP
        .RS
        .EX
        arecord \-q \-t raw \-f S16_LE \-r 48000 \-c 1 |
          aupipe \-\-live \-\-in\-format s16le:48000:1 \-t wav \-\-stats ladspa highpass_iir cutoff_frequency=100 : ladspa sc4m ratio_1_n=4 |
          opusenc \- voice.opus
        .EE
        .RE
        .PP

        Mix a backing track 12 dB down into the microphone, as Core Audio's
        MultiChannelMixer would; the file is resampled and converted to the
        microphone's 48 kHz stereo if it is not already:
        .PP
        .RS
        .EX
        arecord \-q \-t raw \-f S16_LE \-r 48000 \-c 2 |
          aupipe \-\-live \-\-in\-format s16le:48000:2 mix input=backing.wav,gain=\-12 \-t wav |
          opusenc \- out.opus
        .EE
        .RE
        .PP
        The same with anything ffmpeg decodes, through a process substitution: a
        pipe bus, which never stalls the live microphone.
        ffmpeg's
        .B \-nostdin
        keeps it from reading the microphone's stream, which it shares as standard
        input.
        Here arecord writes WAV, so aupipe needs no
        .B \-\-in\-format
        and writes WAV too:
        .PP
        .RS
        .EX
        arecord \-q \-t wav \-f S16_LE \-r 48000 \-c 2 |
          aupipe \-\-live mix input=<(ffmpeg \-nostdin \-v error \-i music.mp3 \-f caf \-),gain=\-18 |
          opusenc \- out.opus
        .EE
        .RE
        .PP
        With
        .B \-\-control /tmp/ctl
        before
        .BR mix ,
        .B "echo \(dqset mix.bus1.gain \-30\(dq > /tmp/ctl"
        ducks the music while someone talks, and
        .B "echo \(dqset mix.bus1.gain \-18\(dq > /tmp/ctl"
        brings it back, each over 10 ms.
        .PP
        Cancel the echo of
        .BR far.wav ,
        which a player sends to the loudspeaker while arecord captures the
        microphone, with the delay found from the signals.
        Start the player as the recording starts or just after (the time between
        the two counts in the delay, which must stay under
        .BR max\-delay= ,
        500 ms by default), and add
        .B \-\-stats
        to see the ERLE and the delay found:
        .PP
        .RS
        .EX
        arecord \-q \-t raw \-f S16_LE \-r 16000 \-c 1 |
          aupipe \-\-live \-\-in\-format s16le:16000:1 aec ref=far.wav delay=auto \-t wav |
          opusenc \- out.opus
        .EE
        .RE
        .PP
        A stereo capture with the loudspeaker's feed looped back into channel 1 and
        the microphone in channel 0: the reference comes with the microphone, in
        step, and the output is the clean microphone, mono.
        .PP
        .RS
        .EX
        arecord \-q \-t raw \-f S16_LE \-r 16000 \-c 2 |
          aupipe \-\-live \-\-in\-format s16le:16000:2 aec ref\-channel=1 \-t wav |
          opusenc \- out.opus
        .EE
        .RE
        .PP
        FLAC takes no floats: send it integers.
        At the end of a WAV stream of unknown size (on a pipe) flac warns
        .IR "unexpected EOF; expected 2147483647 samples" ;
        nothing is lost.
        It stops after 4 GiB of such a stream: add its
        \-\-ignore\-chunk\-sizes beyond that (which trades the warning for notes of
        its own).
        Raw samples with flac's format flags (the second line) keep it quiet:
        .PP
        .RS
        .EX
        aupipe \-i in.caf \-t wav \-\-out\-format s24le gain \-3 | flac \-o out.flac \-
        aupipe \-i in.caf \-t raw \-\-out\-format s24le:48000:2 gain \-3 |
          flac \-\-force\-raw\-format \-\-endian=little \-\-sign=signed \-\-channels=2 \-\-bps=24 \-\-sample\-rate=48000 \-o out.flac \-
        .EE
        .RE
        .PP
        MP3 with lame (at most two channels):
        .PP
        .RS
        .EX
        aupipe \-i talk.wav \-\-out\-format s16le resample 44100 | lame \- talk.mp3
        .EE
        .RE
        .PP
        Anything ffmpeg decodes, as CAF on a pipe; the redirected output is a regular
        file, so its header gets the true sizes:
        .PP
        .RS
        .EX
        ffmpeg \-v error \-i in.m4a \-f caf \- |
          aupipe resample 16000 : convert channels=1 \-t wav > speech.wav
        .EE
        .RE
        .PP
        sox reads and writes AU with an unknown size to the end of the stream, without
        a warning.
        From a WAV stream of unknown size it warns
        .I "Premature EOF on .wav input file"
        at the end (nothing is lost) unless given \-\-ignore\-length before the input
        (or \-V1, which hides every warning):
        .PP
        .RS
        .EX
        sox in.flac \-t au \- | aupipe gain \-6 : mute at=1.5\-3 | sox \-t au \- out.flac
        aupipe \-i in.caf gain \-6 \-t wav | sox \-\-ignore\-length \-t wav \- out.flac
        .EE
        .RE
        .PP
        aupipe to aupipe, in float, and on to ffmpeg:
        .PP
        .RS
        .EX
        aupipe \-i in.wav \-t caf \-\-out\-format f32le resample 16000 |
          aupipe mute at=1\-2 ramp=10ms | ffmpeg \-f caf \-i \- out.m4a
        .EE
        .RE
        .PP
        A golden\-file test: the same input and arguments give the same bytes.
        .PP
        .RS
        .EX
        aupipe \-i in.wav \-o got.wav resample 16000 quality=6 : gain \-3 &&
          cmp got.wav expected.wav
        .EE
        .RE
        .PP
        A golden test of a pipeline that needs no input file:
        .B gen
        makes the same input on every run, and
        .B compare
        fails the test with status 1 when the output drifts from the reference kept
        with the test (made once by the same commands, with
        .B \-o ref.wav
        on the second line).
        .PP
        .RS
        .EX
        aupipe gen sweep from=50 to=7500 duration=3s \-\-out\-format s16le:16000:1 |
          aupipe resample 48000 : gain \-3 \-o out.wav &&
          aupipe compare ref.wav out.wav \-\-max\-lsb 1
        .EE
        .RE
        .PP
        Check a chain against a file's format without processing it:
        .PP
        .RS
        .EX
        aupipe \-\-check \-i in.wav convert map=1,0 : resample 44.1k
        .EE
        .RE
        """#
}
