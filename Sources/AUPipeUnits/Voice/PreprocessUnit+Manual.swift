import AUPipeFormats
import AUPipeGraph

extension PreprocessUnit {
    /// The agc section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let agcManual = #"""
        Automatic gain control with speexdsp's preprocessor, without an echo
        canceller: brings speech towards a target level.
        Each channel has a preprocessor of its own, so the channels of a stereo
        stream may get different gains.
        .TP
        .BI level= LEVEL
        (bare value)
        The target level in speex's 16\-bit units, 1 to 32768 (a level as a 16\-bit
        sample value; 32768 is full scale).
        Default
        .BR 8000 ,
        speex's own, about \-12 dBFS.
        The gain changes gradually, within speex's limits: at most about 30 dB, rising
        by at most 12 dB and falling by at most 40 dB a second.
        """# + "\n" + frameAndTiming("agc")
    /// The denoise section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let denoiseManual = #"""
        Reduces stationary noise (hiss, hum, a fan) with speexdsp's preprocessor, its
        spectral noise suppression, without an echo canceller.
        Each channel has a preprocessor of its own.
        .TP
        .BI db= DB
        (bare value)
        The most the noise is attenuated, in dB, \-100 to 0; an optional
        .B dB
        suffix is accepted.
        Default
        .BR \-15 ,
        speex's own.
        .B 0
        removes no noise, but the unit still runs.
        """# + "\n" + frameAndTiming("denoise")

    /// The part both sections share: `frame=`, and how speex's 16-bit frames keep the length
    /// and the timing (`unit` names the unit that is never bypassed).
    package static func frameAndTiming(_ unit: String) -> String {
        #"""
        .TP
        .BI frame= DURATION
        The frame speexdsp works on: 2.5 to 100 ms, and at least 16 frames; a bare
        number is in milliseconds.
        Default
        .BR 10ms .
        .PP
        As in
        .BR aec ,
        the samples go through speex as 16\-bit values (rounded to nearest, and
        clipped at full scale on the way in; these clips are counted in the unit's
        .B clipped
        figure of
        .BR \-\-stats ),
        the output has exactly the input's frame count
        (a part\-filled last frame is padded, processed and trimmed), and the
        preprocessor's one frame of delay is removed (see
        .BR "LENGTH AND TIMING" ).
        .B \#(unit)
        is never bypassed.
        """#
    }
}
