import AUPipeFormats
import AUPipeGraph

extension ReverbUnit {
    /// The reverb section of the manual page (roff, after its `.SS` line; `UnitDescriptor.manual`).
    package static let manualText = #"""
        Algorithmic reverberation, as Core Audio's AUReverb2 and sox's
        .B reverb
        give it: Freeverb as sox builds it, eight feedback combs with a one\-pole low\-pass
        in each loop (25 to 37 ms long at 44.1 kHz and room\-scale 100 %, scaled with the
        rate), then four allpasses, with sox's parameters, mappings and defaults.
        Nothing is random: the same input gives the same output.
        .TP
        .BI reverberance= PERCENT
        (bare value) 0 to 100.
        Default 50.
        The combs' feedback
        g = 1 \- e^((R \- b)/(a b)), a = \-1/ln 0.7, b = 100/(a ln 0.02 + 1), from 0.3 at 0 %
        to 0.98 at 100 %.
        .TP
        .BI hf\-damping= PERCENT
        0 to 100.
        Default 50.
        The pole of the loops' low\-pass, 0.2 + 0.3 \(mu hf\-damping/100;
        high frequencies die away faster the higher it is.
        .TP
        .BI room\-scale= PERCENT
        0 to 100.
        Default 100.
        The comb delays are scaled by 0.1 + 0.9 \(mu room\-scale/100.
        .TP
        .BI stereo\-depth= PERCENT
        0 to 100.
        Default 100.
        The right bank's delays differ from the left's by up to 12 frames at 44.1 kHz,
        alternately longer and shorter, as in sox, which decorrelates the two.
        .TP
        .BI pre\-delay= DURATION
        0 to 500 ms.
        Default 0ms.
        The delay before the reverberation starts.
        .TP
        .BI wet\-gain= DB
        \-10 to 10 dB.
        Default 0.
        The reverberation's level, 0.015 \(mu 10^(wet\-gain/20) on
        the combs' sum as in Freeverb; live, gliding over 10 ms.
        .TP
        .BI wet\-only= BOOLEAN
        1 leaves the dry signal out.
        Default 0.
        .TP
        .BI stereo= BOOLEAN
        1 makes stereo of a mono stream (two banks, as below).
        Default 0: mono stays mono.
        .TP
        .BI extend= BOOLEAN
        Default 0: the length is kept.
        1 keeps the tail until the longest comb has decayed by 120 dB, after the pre\-delay
        (at most 60 s).
        .PP
        A stereo stream feeds the mean of its two channels to a left and a right bank, which
        is what sox's two per\-channel reverbs add up to; at stereo\-depth 0, and in streams of
        more channels, each channel reverberates on its own, as in sox.
        The output equals sox's
        .B reverb
        with the same parameters (the test suite compares them, within \-120 dB).
        .PP
        .B "Reverberation time."
        At low frequencies a comb's loop gain is g, so its amplitude falls by g every
        M frames of its length: 60 dB in 3 M / (rate log10(1/g)) seconds.
        Taking the mean comb length, M = 1378 \(mu (0.1 + 0.9 room\-scale/100) frames at
        44.1 kHz, gives the combs' decay; the allpasses after them ring on with their own
        (gain 0.5 every 556 frames for the longest: 3 \(mu 556 / (44100 log10 2) = 0.126 s),
        and decay times in series add:
        RT60 = 3 M / (44100 log10(1/g)) + 0.126 s, the same at every rate since the delays
        scale with it.
        At room\-scale 100 %: 0.3 s at reverberance 0 %, 0.76 s at 25 %, 1.84 s at 50 %,
        4.45 s at 75 %, 10.8 s at 100 %.
        .B \-\-stats
        prints the value for the settings.
        The test suite measures it on the impulse response's Schroeder decay.
        """#
}
