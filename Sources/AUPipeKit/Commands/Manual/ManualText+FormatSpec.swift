extension ManualText {
    /// FORMAT SPEC.
    package static let formatSpec = #"""
        .SH FORMAT SPEC
        A stream format is written
        .IR TOKEN : RATE : CHANNELS ,
        for example
        .BR s16le:48000:1 ,
        .BR f32le:44.1k:2 ,
        .BR s24be:96k:6 .
        .I RATE
        is a whole number of Hz from 1 to 768000 and may be written with
        .B k
        (thousands) or
        .B Hz
        .RB ( 44.1k ,
        .BR 44100Hz ,
        .BR 16kHz ).
        .I CHANNELS
        is 1 to 64.
        The long form for scripts,
        .BR format=f32le,rate=48000,channels=2 [ ,layout=interleaved ],
        takes the same values; its keys are
        .BR format ,
        .BR rate ,
        .B channels
        and
        .BR layout ,
        any other key is an error, and
        .B layout
        accepts only
        .B interleaved
        (planar layouts are refused).
        .PP
        .I TOKEN
        is
        .RB [ su ]( 8 | 16 | 24 | 32 )[ le | be ],
        .BR f ( 32 | 64 )[ le | be ],
        .B mulaw
        or
        .BR alaw :
        ffmpeg's raw format names, so that
        .B ffmpeg \-f
        .I TOKEN
        takes it as it is.
        .B s
        is signed,
        .B u
        unsigned,
        .B f
        IEEE float;
        .B le
        and
        .B be
        give the byte order, and without them the order is little\-endian.
        24 always means 3 packed bytes.
        The canonical 8\-bit tokens are
        .B u8
        and
        .BR s8 .
        Tokens are not case\-sensitive, and these spellings are accepted too:
        .TP
        ALSA
        .BR S16_LE ,
        .BR U16_BE ,
        .B S24_3LE
        and
        .B S24_3BE
        (3 bytes),
        .BR S32_LE ,
        .BR FLOAT_LE ,
        .BR FLOAT_BE ,
        .BR FLOAT64_LE ,
        .BR FLOAT64_BE ,
        .BR MU_LAW ,
        .BR A_LAW ;
        in general a letter and a width, an optional
        .B _3
        after 24, an optional underscore, and
        .B LE
        or
        .BR BE .
        .TP
        GStreamer
        .BR S16LE ,
        .BR S24BE ,
        .BR F32LE ,
        .BR F64BE .
        .TP
        ffmpeg sample formats
        .BR u8 ,
        .BR s16 ,
        .BR s32 ,
        .B flt
        (f32le),
        .B dbl
        (f64le), always read as little\-endian.
        .TP
        G.711
        .BR mulaw ,
        .BR mu_law ,
        .BR mu\-law ,
        .BR ulaw ,
        .BR pcm_mulaw ;
        .BR alaw ,
        .BR a_law ,
        .BR a\-law ,
        .BR pcm_alaw .
        .PP
        Refused with a hint: ALSA's
        .BR S24_LE ,
        .BR S24_BE ,
        .B U24_LE
        and
        .B U24_BE
        and GStreamer's
        .BR S24_32LE ,
        .B S24_32BE
        and
        .B S24_32
        (24 bits in 4\-byte containers; record as
        .B S24_3LE
        or
        .B S32_LE
        instead), and ffmpeg's planar formats
        .BR s16p ,
        .BR s32p ,
        .BR fltp ,
        .BR dblp ,
        .BR u8p .
        Note that
        .B s24le
        (3 bytes) is accepted while ALSA's
        .B S24_LE
        is not.
        """#
}
