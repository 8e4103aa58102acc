import AUPipeFormats
import AUPipeGraph

extension TeeUnit {
    /// The tee section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Writes a copy of the stream as it is at this point of the chain, and passes
        the stream on untouched:
        .B gain \-6 : tee a.wav : resample 16000
        writes to
        .B a.wav
        exactly what
        .B gain \-6
        alone would write.
        .TP
        .BI path= PATH
        (bare value)
        Where the copy goes: a regular file, a FIFO, or a pipe such as
        .BR >(opusenc \- copy.opus) .
        No default; the unit needs it.
        It may not be the input
        .RB ( \-i
        or stdin), the output
        .RB ( \-o ,
        or stdout when it is the output), a side input of another unit (a
        .B mix
        bus,
        .BR aec 's
        reference) or another tee's path: refused with status 64.
        A regular file is created at the first audio and gets the same bytes
        .B \-o
        would, its header patched with the true sizes at the end.
        It may be stdout
        .RB ( \- ,
        .BR /dev/stdout )
        when the main output is a file
        .RB ( \-o
        .IR FILE ).
        A FIFO or pipe gets the streaming sizes (CAF \-1, WAV and AU 0xFFFFFFFF).
        In a run that is not real time (files and pipes alone) it gets every frame,
        as GNU
        .BR tee (1)
        does: the stream waits for its reader, and for a FIFO's reader to open it.
        In a real-time run
        .RB ( \-\-capture
        or
        .BR \-\-live ;
        see
        .BR live= )
        it never stalls the stream: frames its reader is too slow for (beyond
        .BR queue= ),
        or that come before a reader opens the FIFO, are dropped whole, said on
        standard error and counted in
        .BR \-\-stats .
        A reader that goes away stops the copy with one warning, and the stream goes on.
        .TP
        .BI type= TYPE
        The copy's container:
        .BR caf ,
        .BR wav ,
        .B au
        or
        .BR raw .
        No default: the path's extension
        .RB ( .caf ,
        .BR .wav ,
        .BR .au / .snd ,
        .BR .raw / .pcm ,
        any case), or else WAV (what
        .B >(command)
        gets).
        .TP
        .BI format= TOKEN
        The copy's sample encoding, which the container must hold (else status 64).
        No default: the stream's encoding, moved to the nearest one the container
        holds, as for the main output.
        Samples are rounded to nearest and clipped (counted) as the encoder does.
        .TP
        .BI block= BOOLEAN
        FIFOs and pipes: wait for a slow or absent reader instead of dropping frames,
        until SIGINT or SIGTERM, even in a real-time run.
        Default
        .BR 0 .
        .TP
        .BI queue= DURATION
        FIFOs and pipes: the most audio held for a slow reader before frames are
        dropped; a bare number is in milliseconds.
        10 to 60000 ms, and at most 8 MiB of encoded audio.
        Default
        .BR 2s .
        At the end, what is queued is delivered as the reader takes it; in a
        real-time run
        .B aupipe
        gives up once the reader has taken nothing for the queue's length (at least
        0.5 s), and the rest counts as dropped.
        .TP
        """# + "\n" + LiveSetting.manual(what: #"FIFOs and pipes: whether they are written in real time"#,
                                                 on: #"never stalls the stream in any run;"#, off: #"waits for the reader in any run, as\#n.B block=1\#ndoes."#) + "\n" + #"""
        .PP
        Several tees may be in one chain.
        .B \-\-stats
        gives each copy's path, container, format, frames written and dropped
        .RB ( framesWritten ,
        .B framesDropped
        and
        .B clippedSamples
        in
        .BR \-\-stats=json ).
        """#
}
