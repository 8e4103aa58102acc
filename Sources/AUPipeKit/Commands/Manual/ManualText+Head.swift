extension ManualText {
    /// NAME, SYNOPSIS and DESCRIPTION.
    package static let head = #"""
        .SH NAME
        aupipe \- an AudioUnit\-style processing chain for PCM audio in Unix pipes
        .SH SYNOPSIS
        .B aupipe
        .RI [ OPTIONS ]
        .I UNIT
        .RI [ ARG ]...\&
        .RB [ :
        .I UNIT
        .RI [ ARG ]...\&]...
        .br
        .B aupipe info
        .RB [ \-\-in\-format
        .IR SPEC ]
        .RI [ FILE | \- ]
        .br
        .B aupipe units
        .br
        .B aupipe help
        .I UNIT
        .br
        .B aupipe plugins
        .RB [ lv2 | ladspa ]
        .RI [ WORD ]
        .br
        .B aupipe help
        .BR lv2 | ladspa
        .I PLUGIN
        .br
        .B aupipe demo
        .RB [ \-o
        .IR PATH ]
        .br
        .B aupipe gen
        .I SIGNAL
        .RI [ ARG ]...\&
        .RB [ \-o
        .IR PATH ]
        .RB [ \-t
        .IR TYPE ]
        .RB [ \-\-out\-format
        .IR SPEC ]
        .RB [ \-\-dither
        .IR TYPE ]
        .RB [ \-\-stats [ =json ]]
        .br
        .B aupipe spectrogram
        .IR FILE | \-
        .RI [ PARAMETER = VALUE ]...\&
        .RB [ \-\-in\-format
        .IR SPEC ]
        .RB [ \-\-block
        .IR DURATION ]
        .RB [ \-\-duration
        .IR DURATION ]
        .br
        .B aupipe compare
        .I A B
        .RB [ \-\-in\-format
        .IR SPEC ]
        .RB [ \-\-max\-lsb
        .IR N ]
        .RB [ \-\-max\-diff\-db
        .IR DB ]
        .RB [ \-\-min\-snr
        .IR DB ]
        .RB [ \-\-allow\-length [= \fIN\fR | \fIP\fB% ]]
        .RB [ \-\-ignore\-format ]
        .RB [ \-\-json ]
        .br
        .B aupipe completions
        .BR bash | zsh | fish
        .br
        .B aupipe version
        .br
        .B aupipe manual
        .SH DESCRIPTION
        .B aupipe
        reads a stream of PCM audio on standard input, runs it through a chain of
        processing units and writes the result on standard output.
        The input carries a CAF, WAV or Sun AU header, or is raw PCM described by
        .BR \-\-in\-format .
        Every sample is decoded to 32\-bit float, passed through the units in the order
        given, and encoded again at the end.
        The output uses the input's container unless
        .B \-t
        or the extension of
        .BR \-o 's
        path names another one.
        Whatever has arrived is processed and written at once, in steps of at most one
        block: nothing waits to fill a large buffer, so
        .B aupipe
        can sit in a live pipe between a capture program and an encoder.
        Memory use does not grow with the length of the stream.
        .PP
        The chain is a list of units separated by a colon that stands as a word of its
        own
        .RB ( resample\ 16000\ :\ gain\ \-6 ).
        Each unit name is followed by its arguments.
        An
        .I ARG
        is
        .IR key = value ,
        or a bare value, which sets the unit's primary parameter (marked
        .I bare value
        under
        .BR UNITS ):
        .B resample 16000
        is
        .BR "resample rate=16000" ,
        .B gain \-6
        is
        .BR "gain db=\-6" .
        Unit names and keys are not case\-sensitive.
        A key may be given only once per unit (a second unit needs its own
        .BR : ;
        only
        .BR mix 's
        .B input=
        may be repeated, each one adding a bus),
        an empty value is refused, and an unknown key is reported with the nearest
        valid one.
        .PP
        Options may stand before the chain or anywhere in it.
        A word that starts with
        .B \-
        followed by a letter is an option; one followed by a digit or a point is a
        value, so
        .BR "gain \-6" ,
        .B gain \-0.5
        and
        .B gain \-6dB
        all set the gain.
        A lone
        .B \-\-
        ends the options: every word after it belongs to the chain.
        .PP
        The whole command line is parsed and every parameter checked before the input
        is opened.
        Checks that need the stream's format (a channel map against the channel
        count, an encoding against the output container) are made once the header has
        been read, before any audio is processed.
        Every error is one line on standard error that starts with
        .B aupipe:
        and names the unit, the parameter, the value and the accepted range or the fix.
        .PP
        With no units the stream is copied, converted only as
        .B \-\-out\-format
        and
        .B \-t
        ask.
        When nothing changes the samples or their encoding, the audio bytes are copied
        unchanged.
        .PP
        The same input and arguments always give the same output bytes, whatever the
        block size: there is no dither and nothing random (only changes made while
        running, with
        .B \-\-control
        or a
        .B mute
        .BR signal= ,
        and
        .B mix
        buses and
        .B aec
        references read from a FIFO or pipe in a real\-time run
        .RB ( \-\-live ,
        .BR \-\-capture ),
        depend on when they come).
        .PP
        .B aupipe
        run with no arguments at all while standard input is a terminal prints the help
        text and exits with status 0, instead of waiting for audio.
        The words
        .BR info ,
        .BR units ,
        .BR help ,
        .BR demo ,
        .B gen
        and
        .B compare
        are commands only as the first argument.
        """#
}
