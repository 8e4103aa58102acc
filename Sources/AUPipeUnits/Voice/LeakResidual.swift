import AUPipeFormats
import AUPipeGraph

/// The residual echo as speex's preprocessor reads it from the MDF canceller
/// (`speex_echo_get_residual`, libspeexdsp/mdf.c), computed on the residual echo suppressor's
/// own STFT: the echo estimate's power per bin times the canceller's leak, held with a decay.
///
/// speexdsp does not export `speex_echo_get_residual` from its shared library, and its leak
/// estimate is inside the echo state, so the same regression runs here on the suppressor's
/// spectra (C the canceller's output, Ŷ its echo estimate), as mdf.c does on its own:
/// - per bin, the variations of |C|² and |Ŷ|² from their means (smoothed by `specAverage`, N/rate),
///   summed over the bins: Pey = Σ(|C|² − Ē)(|Ŷ|² − Ȳ) / Pyy, Pyy = √Σ(|Ŷ|² − Ȳ)²;
/// - both averaged over frames at a rate α = min(β₀·Syy, βmax·See) / See (β₀ = 2N/rate,
///   βmax = N/(2·rate); See, Syy the frame's energies of C and Ŷ): fast while the echo is
///   strong against the output, slow while the near end or noise dominates;
/// - the leak Pey/Pyy within `leastLeak`...1, doubled and capped at 1 as speex's preprocessor
///   reads it (mdf.c: "it's right, because we convert from Q14 to Q15");
/// - the residual per bin: leak·|Ŷ|² times `hannOverSqrtHann` (speex takes Ŷ's spectrum through
///   a Hann window, the suppressor through a sqrt-Hann one), held with `holdDecay` per frame
///   (preprocess.c's `echo_noise`).
/// Everything is allocated in `init`; `update` allocates nothing.
package final class LeakResidual {
    package let bins: Int
    /// The residual echo's power per bin (the suppressor's scale), after the latest `update`.
    package let power: UnsafeMutablePointer<Float>
    /// The leak as speex's preprocessor applies it (0...1), after the latest `update`.
    package private(set) var leak: Float = 0
    private let eMean, yMean: UnsafeMutablePointer<Float>
    private var pey: Float = 0, pyy: Float = 1
    private let specAverage: Float, beta0: Float, betaMax: Float
    /// The least frame energy of C (mdf.c's `N·100/64` in 16-bit units), and the least Pyy
    /// (mdf.c's 1 in its spectra's units: a 2N-point transform scaled by 1/2N of 16-bit
    /// samples), both in the suppressor's units (full scale 1, transforms unscaled).
    private let leastEnergy: Float, leastPyy: Float

    /// mdf.c's `MIN_LEAK`: the leak is never taken under this ("we don't really hope to get
    /// better than 33 dB attenuation anyway").
    package static let leastLeak: Float = 0.005
    /// preprocess.c's hold of the residual per frame (`echo_noise = max(0.6·echo_noise, residual)`).
    package static let holdDecay: Float = 0.6
    /// A Hann window's power gain over a sqrt-Hann window's (3/8 over 1/2 of the length).
    package static let hannOverSqrtHann: Float = 0.75

    /// For the suppressor's `bins` and frames of `frameFrames` at `rate` Hz.
    package init(bins: Int, frameFrames: Int, rate: Int) {
        self.bins = bins
        power = .allocate(capacity: bins); power.initialize(repeating: 0, count: bins)
        eMean = .allocate(capacity: bins); eMean.initialize(repeating: 0, count: bins)
        yMean = .allocate(capacity: bins); yMean.initialize(repeating: 0, count: bins)
        let n = Float(frameFrames), r = Float(rate)
        specAverage = n / r
        beta0 = 2 * n / r
        betaMax = 0.5 * n / r
        leastEnergy = n * 100 / 64 / (32768 * 32768)
        leastPyy = (2 * n / 32768) * (2 * n / 32768)
        pyy = leastPyy
    }

    deinit { for b in [power, eMean, yMean] { b.deallocate() } }

    /// One frame: `cFrame` and `yFrame`, |C|² and |Ŷ|² per bin of this frame alone (the regression's,
    /// pre-emphasised as mdf.c's); `yPower`, |Ŷ|² of the suppressor's window (the residual's);
    /// `cEnergy` and `yEnergy`, the frame's Σc² and Σŷ² (full scale 1).
    package func update(cFrame: UnsafePointer<Float>, yFrame: UnsafePointer<Float>, yPower: UnsafePointer<Float>, cEnergy: Float, yEnergy: Float) {
        var sey: Float = 0, syy: Float = 0
        let s = specAverage
        for k in 0..<bins {
            let e = cFrame[k] - eMean[k], y = yFrame[k] - yMean[k]
            sey += e * y
            syy += y * y
            eMean[k] = (1 - s) * eMean[k] + s * cFrame[k]
            yMean[k] = (1 - s) * yMean[k] + s * yFrame[k]
        }
        let root = syy.squareRoot()
        let frameEy = root > 0 ? sey / root : 0
        let see = max(cEnergy, leastEnergy)
        let alpha = min(beta0 * yEnergy, betaMax * see) / see
        pey = (1 - alpha) * pey + alpha * frameEy
        pyy = (1 - alpha) * pyy + alpha * root
        pyy = max(pyy, leastPyy)
        pey = min(max(pey, Self.leastLeak * pyy), pyy)
        leak = min(1, 2 * pey / pyy)
        let scale = leak * Self.hannOverSqrtHann
        for k in 0..<bins { power[k] = max(Self.holdDecay * power[k], scale * yPower[k]) }
    }
}
