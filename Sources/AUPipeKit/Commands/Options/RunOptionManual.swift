/// The OPTIONS paragraphs of the manual page, in roff, one per option of `RunOption.all`:
/// each starts with its `.TP` and tag line. `--buffer` is told with `--period`.
public enum RunOptionManual {
    package static let input = #"""
        .TP
        .BR \-i ", " \-\-input " \fIPATH\fR"
        Read from
        .I PATH
        instead of standard input
        .RB ( \-
        means standard input).
        A file that cannot be opened, or a directory, gives status 66.
        """#
    package static let output = #"""
        .TP
        .BR \-o ", " \-\-output " \fIPATH\fR"
        Write to
        .I PATH
        instead of standard output
        .RB ( \-
        means standard output).
        A regular file, or a name that does not exist yet, is written under a
        temporary name beside it
        .RI ( .NAME.aupipe\- PID .tmp
        in the same directory) and renamed onto
        .I PATH
        when the run succeeds (status 0, which includes a run stopped by the end of
        the input, the reader or SIGINT/SIGTERM where that is its normal end), so that
        .I PATH
        never holds a half\-written stream: a reader, or
        .BR make ,
        sees the old file or the new one.
        When the run fails,
        .I PATH
        is left as it was and what was written is kept as
        .IB PATH .partial
        (its header patched to what it holds), named in one line on standard error.
        The new file gets the mode of the file it replaces, or 0644 before the umask
        for a new name; a symbolic link is followed and stays.
        If the directory cannot take the temporary file while
        .I PATH
        itself can be written, it is written in place.
        A FIFO or a device
        .RB ( /dev/null )
        is written directly.
        If the file cannot be created the status is 73.
        When the output is a regular file, given with
        .B \-o
        or as a redirection of standard output, the sizes in its header are patched to
        the true values at the end; on a pipe the streaming sizes stay.
        Without
        .BR \-o ,
        audio is not written to a terminal: if standard output is one,
        .B aupipe
        refuses with status 64 (as
        .B gzip
        does);
        .B \-o \-
        writes there all the same.
        """#
    package static let inFormat = #"""
        .TP
        .BI \-\-in\-format " SPEC"
        The format of headerless input, as a full
        .IR TOKEN : RATE : CHANNELS ,
        or the long form with all three keys (see
        .BR "FORMAT SPEC" ).
        Input without a CAF, WAV or AU header is refused without it.
        If the input has a header after all, the header is read and must agree exactly
        with
        .IR SPEC ,
        or the status is 64.
        """#
    package static let outFormat = #"""
        .TP
        .BI \-\-out\-format " SPEC"
        The output's format.
        Any of the three parts may be given:
        .B s16le
        sets only the encoding,
        .B s16le:16000:1
        also the rate and channel count,
        .B :16000
        only the rate,
        .B ::1
        only the channel count.
        A channel count appends
        .BI "convert channels=" N
        to the end of the chain, and a rate then appends
        .BI "resample rate=" RATE
        with the default engine (soxr, high); they follow the rules of those units and appear in
        .B \-\-stats
        as
        .B convert (\-\-out\-format)
        and
        .BR "resample (\-\-out\-format)" .
        An encoding given here wins over the chain's
        .BR "convert format=" ,
        and must be one the output container can hold (status 64 otherwise).
        """#
    package static let type = #"""
        .TP
        .BR \-t ", " \-\-type " \fITYPE\fR"
        The output container:
        .BR caf ,
        .BR wav ,
        .B au
        or
        .B raw
        (any case).
        Without it, the extension of
        .BR \-o 's
        path chooses, in any case:
        .B .caf
        CAF,
        .B .wav
        WAV,
        .B .au
        or
        .B .snd
        AU,
        .B .raw
        or
        .B .pcm
        raw.
        Standard output, and a path with no extension or another one, get the input's
        container, which is
        .B raw
        for headerless input.
        """#
    package static let block = #"""
        .TP
        .BI \-\-block " DURATION"
        The most frames processed in one step.
        A bare number is in milliseconds; a suffix
        .BR ms ,
        .B s
        or
        .B f
        (frames, as in
        .BR 480f )
        says otherwise.
        The default is 10 ms (the rate divided by 100, at least one frame).
        Allowed are 0.1 ms to 10 s, or 1f to 1048576f, and at most 1048576 frames at
        the stream's rate.
        The block size bounds the added latency and affects speed; it never changes
        the output bytes (plugins run on runs of their own length, see
        .BR PLUGINS ).
        """#
    package static let stats = #"""
        .TP
        .BR \-\-stats ", " \-\-stats=json
        After the run, print per\-unit figures on standard error as text, or as one
        line of JSON (see
        .BR STATISTICS ).
        The value must be attached with
        .BR = ;
        .B \-\-stats=text
        is the same as
        .BR \-\-stats .
        """#
    package static let check = #"""
        .TP
        .B \-\-check
        Validate and exit: parse the chain, check every path the run would open,
        read the input's header, prepare every unit for the stream and choose the
        output's container and encoding, then print one line on standard output and
        exit with status 0.
        No audio is read and nothing is created.
        The paths: the input
        .RB ( \-i )
        and the side inputs
        .RB ( mix
        buses,
        .BR aec 's
        .BR ref= )
        must exist and be readable (else 66); the output
        .RB ( \-o ),
        the side outputs
        .RB ( tee ,
        .BR plot= ,
        .BR "meter to=" )
        and the
        .B \-\-control
        FIFO must be writable or creatable in an existing directory (else 73), as the
        run would find.
        The line is
        .BI "ok: " "CONTAINER SPEC" " \-> " "CONTAINER SPEC"
        for the input and the output.
        When there is no input to read (standard input is a terminal,
        .B /dev/null
        or empty, as in CI), the chain is checked for
        .B \-\-in\-format
        if given, else for s16le:48000:2 and then s16le:48000:1:
        .BI "ok: the chain is valid (no input read: stdin is " WHY "; checked for " SPEC "; ...)" .
        If it fits neither, the chain needs the input's format: one line says so and
        what the chain asked for, and the status is 66 (give
        .BR \-i ,
        pipe the input, or give
        .BR \-\-in\-format ).
        """#
}
