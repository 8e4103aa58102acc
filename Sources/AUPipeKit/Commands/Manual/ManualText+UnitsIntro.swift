extension ManualText {
    /// The UNITS heading and the types of the parameters; the units follow from the registry.
    package static let unitsIntro = #"""
        .SH UNITS
        Types:
        a
        .I number
        is decimal, with an optional sign, point and exponent
        .RB ( 16 ,
        .BR \-6.5 ,
        .BR .5 ,
        .BR 2.5e\-3 );
        hexadecimal
        .RB ( 0x10 ),
        .B nan
        and
        .B inf
        are refused, in options too.
        It may carry its unit as a suffix
        .RB ( \-6dB );
        a
        .I duration
        is
        .BR 20ms ,
        .B 1.5s
        or a frame count such as
        .BR 480f ,
        and a bare number is in the unit the parameter names;
        a
        .I boolean
        is
        .BR 1 / 0 ,
        .BR on / off ,
        .BR yes / no
        or
        .BR true / false ;
        a
        .I rate
        is a whole number of Hz from 1 to 768000, written
        .BR 16000 ,
        .BR 44.1k ,
        .B 44100Hz
        or
        .BR 16kHz .
        A unit that has nothing to do for the stream (0 dB, equal rates) is bypassed:
        it leaves the samples and the frame count untouched.
        """#
}
