import AUPipeFormats
import AUPipeGraph

extension MixUnit {
    /// Of `manualText`: the pan laws and the rules that follow them.
    package static let manualRules = #"""
        .PP
        The pan laws, with
        .I p
        the bus's
        .BR pan= :
        a bus that is mono (before conversion) is placed with the constant\-power
        law, P_L = cos((p + 1)\(*p/4) and P_R = sin((p + 1)\(*p/4), so that
        P_L^2 + P_R^2 = 1: at the centre each side gets 0.7071 (\-3 dB), and
        .B pan=\-1
        puts it in the left channel alone.
        A stereo bus is balanced, P_L = min(1, 1 \- p) and P_R = min(1, 1 + p):
        at the centre both channels pass unchanged,
        .B pan=0.5
        halves the left (\-6 dB) and keeps the right, and its channels are never
        crossed.
        .PP
        Real-time runs.
        A run is real time when it is told so
        .RB ( \-\-live )
        or captures from a device
        .RB ( \-\-capture ),
        never because of how its input arrives:
        .B cat song.wav | aupipe mix ...
        is not real time, and every bus is waited for.
        Buses that are regular files are read with blocking reads as needed, and
        always deliver every frame in order; so are all buses in a run that is not
        real time (a FIFO bus then waits for its writer, and a slow writer slows the
        mix): the same bytes on every run.
        In a real-time run, a bus that is a FIFO or a pipe (a process
        substitution too) is opened and read without blocking, so that it never
        stalls the stream: a block takes what the bus has, waits at most
        .B wait=
        once if that is not enough, and mixes silence for the rest.
        Those frames are late: as many of the bus's frames are dropped when they
        arrive, so the bus keeps its place on the stream's timeline and never drifts
        (a writer slower than real time is heard only where it keeps up).
        Late frames are said once on standard error at the end of the stream and
        counted in
        .B \-\-stats
        (per bus; all buses'
        .B lateFrames
        in
        .BR \-\-stats=json ).
        Before a writer has opened a FIFO nothing is late: an end of file then means
        that no writer has opened it yet, and the bus joins the stream when one does;
        once it has sent audio, its writer closing it ends the bus.
        A pipe (such as
        .BI <( command ))
        has its writer from the start, so a command that is slow to start is late
        from the stream's start, as is a writer that opens a FIFO and then sends
        nothing for a while.
        A bus is closed when the mix ends, so a writer that is still writing then
        gets EPIPE (ffmpeg reports a broken pipe; that is expected).
        A live bus that runs ahead is held in a bounded buffer (at least 2 s of
        audio), and then its writer blocks.
        With
        .BR duration=longest ,
        once the stream has ended there is no real time left to keep: the remaining
        buses are read with blocking reads until they end.
        .PP
        Live parameters: besides
        .BR main\-gain= ,
        .B main\-mute=
        and
        .BR out\-gain= ,
        .B \-\-control
        reaches each bus
        .I K
        (from 1, in the order of the
        .B input=
        arguments) as
        .BI bus K .gain
        (dB, \-120 to 60),
        .BI bus K .mute
        (a boolean) and
        .BI bus K .pan
        (\-1 to 1, stereo output only; a bus given without
        .B pan=
        is placed by the pan law from then on):
        .BR "set mix.bus1.gain \-12" ,
        .BR "set mix.bus2.mute 1" ,
        or, for a
        .B mix
        given
        .BR name=m ,
        .BR "set m.bus1.pan \-0.5" .
        Every change, of a gain, a mute or a pan, glides linearly in amplitude over
        10 ms, starting at the next block.
        .B get
        also reports
        .BI bus K .late
        (its late frames so far) and
        .BI bus K .frames
        (its frames mixed so far).
        .B list
        shows
        .BR main\-gain ,
        .BR main\-mute ,
        .B out\-gain
        and every bus's
        .BI bus K .gain\fR,
        .BI bus K .mute
        and
        .BI bus K .pan
        .RB ( none
        for a bus given without
        .BR pan= ).
        .PP
        Statistics:
        .B \-\-stats
        gives the mix's frames in and out (they differ under
        .B duration=longest
        or
        .BR shortest ),
        its peak, the samples that
        .B overload=
        clipped or limited, and a note with, for every bus, its path, container and
        format, its conversion
        .RB ( "1 to 2 channels" ,
        .BR "resampled 44100 to 48000 Hz" ),
        the frames it gave, and when they happened its late frames
        .RB ( "480 frames late (silence)" ),
        its loops
        .RB ( "looped 3 times" )
        and the bytes of a torn last frame it dropped; with
        .B overload=limit
        the note ends with the number of samples limited.
        A FIFO bus that never sent its header says
        .BR "no header yet" .
        .PP
        Errors name the bus by its number and path
        .RB ( "aupipe: mix: input 2 (music.wav): ..." ).
        A file that does not exist or cannot be opened gives status 66.
        A bad bus option (an unknown one, reported with the nearest valid one, as in
        .BR "unknown option 'gian'; did you mean 'gain'?" ,
        a value out of range, an option given twice),
        .B pan=
        when the stream is not stereo, a channel count that is neither 1 to
        .I N
        nor
        .I N
        to 1,
        .B loop
        on a FIFO or pipe, and a header that disagrees with
        .B format=
        give status 64; a bus with no header and no
        .BR format= ,
        or a malformed header, gives status 65.
        These are found before any audio is processed and before the output file is
        created, with
        .B \-\-check
        too; only a live FIFO's header is read when it arrives.
        A bus that ends mid\-frame, or short of the size its header declares, just
        ends: unlike the stream, that is not an error (the torn bytes are counted in
        .BR \-\-stats ).
        """#
}
