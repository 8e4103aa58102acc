import AUPipeFormats
import AUPipeGraph

extension GateUnit {
    /// The gate section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        A noise gate, or with
        .BI ratio= R
        a downward expander.
        The level is read as by
        .B compressor
        .RB ( detector= ,
        .BR link= ;
        a full\-scale sine is 0 dBFS).
        The gate opens when the level reaches
        .B threshold=
        and closes when it has stayed below threshold \- hysteresis for
        .BR hold= .
        Open, the gain is 0 dB; closed, it is
        .B range=
        dB for a gate, and for an expander (R \- 1)(x \- T) dB at level x under the
        threshold T (1 dB under comes out R dB under), never below
        .BR range .
        .B attack=
        (opening) and
        .B release=
        (closing) are time constants of the gain in dB: 63 % (1 \- 1/e) of a step in
        that time.
        Exact length and zero delay.
        .B sidechain=
        opens and closes the gate from another input, as
        .BR compressor 's.
        .IP
        .BR threshold ,
        .BR range ,
        .B ratio
        and
        .B hysteresis
        are live;
        .B get gate.reduction
        reads the gain reduction now (dB);
        .B \-\-stats
        prints it and the deepest
        .RB ( reductionDB ,
        .BR maxReductionDB );
        .B plot=
        draws the gain over stream time.
        .TP
        .BI threshold= NUMBER
        (bare value)
        Level at which the gate opens, in dBFS, \-120 to 0; live.
        Default
        .BR \-50 .
        .TP
        .BI range= NUMBER
        Gain while closed, in dB, \-120 to 0; live.
        Default
        .BR \-40 .
        .TP
        .BI ratio= NUMBER | inf
        .B inf
        for a gate, or an expander's ratio, 1 to 100; live.
        Default
        .BR inf .
        .TP
        .BI hysteresis= NUMBER
        dB below the threshold the level must fall before the gate closes, 0 to 40; live.
        Default
        .BR 6 .
        .TP
        .BI attack= DURATION
        Time constant of opening, 0 to 2000 ms.
        Default
        .BR 1ms .
        .TP
        .BI hold= DURATION
        How long the gate stays open once the level is below threshold \- hysteresis,
        0 to 10000 ms.
        Default
        .BR 50ms .
        .TP
        .BI release= DURATION
        Time constant of closing, 0 to 10000 ms.
        Default
        .BR 100ms .
        .TP
        .BI detector= rms | peak
        As
        .BR compressor 's.
        Default
        .BR rms .
        .TP
        .BI link= max | mean | none
        As
        .BR compressor 's.
        Default
        .BR max .
        .TP
        .BI sidechain= PATH\fR[\fP,format=SPEC\fR]\fP
        The input the level is read from: a file, a FIFO or <(command).
        No default: the stream's own level.
        .TP
        """# + "\n" + LiveSetting.manual(what: #"Whether a FIFO or pipe sidechain= is read in real time (without blocking)"#,
                                                 on: #"reads it without blocking in any run (late frames are silence);"#,
                                                 off: #"waits for it in any run (the same bytes on every run)."#) + "\n" + #"""
        .TP
        .BI plot= FILE.svg
        Draw the gain over stream time into this SVG file at the end.
        No default.
        """#
}
