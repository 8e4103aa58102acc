import AUPipeFormats
import AUPipeGraph

extension GainUnit {
    /// The gain section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Changes the level by a number of decibels.
        .TP
        .BI db= NUMBER
        (bare value)
        Gain in dB, \-120 to 60; an optional
        .B dB
        suffix is accepted.
        Default
        .BR 0 .
        Every sample is multiplied by 10^(db/20) in 32\-bit float.
        Samples pushed past full scale are clipped (and counted) only where the stream
        is encoded as integers: by a later
        .B convert format=
        or by the output encoder.
        0 dB bypasses the unit.
        .B db=
        is live: a change made with
        .B \-\-control
        while running glides linearly in amplitude from the old factor to the new
        one over 10 ms, starting at the next block.
        """#
}
