import AUPipeFormats
import AUPipeGraph

/// `eq`: several bands in one unit, from the command line and from an Equalizer APO file.
extension FilterUnit {
    package static let eqDescriptor = UnitDescriptor(
        name: "eq",
        summary: "parametric equaliser: several filter bands, or an AutoEQ / Equalizer APO file",
        details: """
            Each band (a bare value, repeatable) is KIND,FREQ[,key=value...]: peak (pk, equalizer) and lowshelf/highshelf (ls, hs) take gain=DB and q= (shelves also slope=); lowpass/highpass (lp, hp) take order=1...8, type=linkwitz-riley or q=; bandpass, notch, allpass (bp, no, ap) take q= or width= (Hz, or octaves: 1oct). Defaults as the units of the same names.
            file=PATH reads Equalizer APO's parametric format as AutoEQ publishes it (Preamp:, Filter N: ON PK|LSC|HSC|LS|HS|LP|HP|LPQ|HPQ|BP|NO|AP Fc .. Hz Gain .. dB Q ..); its bands come first, then the command line's. Bands at or above 0.45 x the rate are dropped with one warning.
            --control: eq.bandN.freq, eq.bandN.gain and eq.bandN.q (N from 1, in that order) glide over 20 ms, coefficients designed every 32 frames, state kept.
            Double precision, zero latency, exact length.
            """,
        parameters: [Keys.band, Keys.file, Keys.preamp, Keys.channels],
        primary: Keys.band.name,
        example: "aupipe eq file=ParametricEQ.txt < in.wav > out.wav",
        exercise: UnitExercise(["peak,1k,gain=-6,q=0.7", "highpass,80,order=3", "highshelf,8k,gain=3", "preamp=-3"]),
        manual: manual(details: "Several filter bands in one unit, in series, with a gain before them.", parameters: [Keys.band, Keys.file, Keys.preamp, Keys.channels],
                       primary: Keys.band.name, extra: eqManualGrammar),
        make: { v in
            FilterUnit(name: "eq", bands: v[Keys.band], perBand: true, preamp: v[Keys.preamp], file: v[Keys.file], only: v[Keys.channels])
        })
}
