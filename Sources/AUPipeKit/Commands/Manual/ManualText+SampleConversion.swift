extension ManualText {
    /// SAMPLE CONVERSION.
    package static let sampleConversion = #"""
        .SH SAMPLE CONVERSION
        Inside the chain every sample is a 32\-bit float.
        An integer of
        .I b
        bits is read as value/2^(b\-1), so full scale is [\-1, 1) and s16 32767 becomes
        0.999969; unsigned integers are offset by 2^(b\-1) first.
        G.711 is read as its 16\-bit linear value divided by 32768.
        Floats are read as they are (f64 rounded to the nearest f32).
        .PP
        Encoding to integers multiplies by 2^(b\-1), rounds to the nearest integer with
        ties to even, and clips to [\-2^(b\-1), 2^(b\-1)\-1].
        Every clipped sample is counted and shown by
        .BR \-\-stats .
        NaN becomes 0.
        There is no dither.
        Floats are written as they are, without clipping: values beyond \(+-1 survive.
        G.711 encodes the 16\-bit value found by the integer rule.
        .PP
        Precision: 8\-, 16\- and 24\-bit integers and f32 survive the trip through the
        float chain exactly (decoded and encoded again, they give the same values).
        32\-bit integers and f64 keep every bit only when no unit touches the samples
        (no units, only bypassed ones, or a last
        .B convert format=
        that only sets the output's encoding), with or without
        .BR \-\-stats :
        then their bytes are copied, or swapped for a change of byte order, or, between signed and unsigned integers of one width,
        have their top bit flipped, as ffmpeg does (u32 0 becomes s32 \-2147483648,
        u8 128 becomes s8 0), with the bytes swapped if the order changes too.
        Any other change of encoding (to float, to another width) goes through the
        float path.
        Otherwise they go through 32\-bit float and keep 24 significant bits; a 32\-bit
        sample of 2147483584 or more rounds to full scale in float, and is written back
        as 2147483647 and counted as clipped.
        """#
}
