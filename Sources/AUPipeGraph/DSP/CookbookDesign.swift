import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// How wide a cookbook section is: the cookbook's Q, its bandwidth in octaves (BW), a
/// bandwidth in Hz (Q = f0 / width, as sox's `h`), or a shelf's slope S (1 is the steepest
/// without a bump; sox's `s`).
public enum FilterWidth: Equatable, Sendable {
    case q(Double)
    case octaves(Double)
    case hertz(Double)
    case slope(Double)

    /// The same kind of width with another value (for glides).
    package var value: Double {
        switch self { case .q(let v), .octaves(let v), .hertz(let v), .slope(let v): v }
    }

    package func with(_ v: Double) -> FilterWidth {
        switch self {
        case .q: .q(v)
        case .octaves: .octaves(v)
        case .hertz: .hertz(v)
        case .slope: .slope(v)
        }
    }
}

/// Second-order sections from Robert Bristow-Johnson's "Cookbook formulae for audio EQ
/// biquad filter coefficients" (the W3C Audio EQ Cookbook): the bilinear transform of the
/// analog prototypes, with the frequency pre-warped so that the response at f0 is exact.
/// Frequencies in Hz, 0 < f0 < rate/2; gains in dB.
public enum CookbookDesign {
    /// The cookbook's intermediate variables for one section: w0 = 2π·f0/rate, and alpha.
    package struct Angle {
        package let cosw0: Double
        package let alpha: Double
    }

    /// A = 10^(gain/40): the square root of the linear gain, as the peaking and shelf forms use it.
    package static func shelfAmplitude(_ gainDB: Double) -> Double { pow(10, gainDB / 40) }

    package static func angle(_ f0: Double, rate: Double, width: FilterWidth, gainDB: Double = 0) -> Angle {
        let w0 = 2 * Double.pi * f0 / rate
        let s = sin(w0)
        let alpha: Double
        switch width {
        case .q(let q): alpha = s / (2 * q)
        case .hertz(let bw): alpha = s / (2 * (f0 / bw))
        // BW in octaves between the −3 dB points (or the half-gain points of a peaking section),
        // pre-warped digitally: the w0/sin(w0) factor of the cookbook.
        case .octaves(let bw): alpha = s * sinh(log(2) / 2 * bw * w0 / s)
        case .slope(let slope):
            let a = shelfAmplitude(gainDB)
            alpha = s / 2 * (max(0, (a + 1 / a) * (1 / slope - 1) + 2)).squareRoot()
        }
        return Angle(cosw0: cos(w0), alpha: alpha)
    }

    public static func lowpass(_ f0: Double, rate: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width)
        let b1 = 1 - g.cosw0
        return BiquadCoefficients(b0: b1 / 2, b1: b1, b2: b1 / 2, a0: 1 + g.alpha, a1: -2 * g.cosw0, a2: 1 - g.alpha)
    }

    public static func highpass(_ f0: Double, rate: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width)
        let b1 = -(1 + g.cosw0)
        return BiquadCoefficients(b0: -b1 / 2, b1: b1, b2: -b1 / 2, a0: 1 + g.alpha, a1: -2 * g.cosw0, a2: 1 - g.alpha)
    }

    /// Band-pass with a constant 0 dB peak gain at f0.
    public static func bandpass(_ f0: Double, rate: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width)
        return BiquadCoefficients(b0: g.alpha, b1: 0, b2: -g.alpha, a0: 1 + g.alpha, a1: -2 * g.cosw0, a2: 1 - g.alpha)
    }

    public static func notch(_ f0: Double, rate: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width)
        return BiquadCoefficients(b0: 1, b1: -2 * g.cosw0, b2: 1, a0: 1 + g.alpha, a1: -2 * g.cosw0, a2: 1 - g.alpha)
    }

    public static func allpass(_ f0: Double, rate: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width)
        return BiquadCoefficients(b0: 1 - g.alpha, b1: -2 * g.cosw0, b2: 1 + g.alpha, a0: 1 + g.alpha, a1: -2 * g.cosw0, a2: 1 - g.alpha)
    }

    /// Peaking section: `gainDB` at f0, 0 dB far from it.
    public static func peaking(_ f0: Double, rate: Double, gainDB: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width, gainDB: gainDB)
        let a = shelfAmplitude(gainDB)
        return BiquadCoefficients(b0: 1 + g.alpha * a, b1: -2 * g.cosw0, b2: 1 - g.alpha * a,
                                  a0: 1 + g.alpha / a, a1: -2 * g.cosw0, a2: 1 - g.alpha / a)
    }

    /// Low shelf: `gainDB` below f0 (half of it, in dB, at f0), 0 dB above.
    public static func lowshelf(_ f0: Double, rate: Double, gainDB: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width, gainDB: gainDB)
        let a = shelfAmplitude(gainDB), c = g.cosw0, r = 2 * a.squareRoot() * g.alpha
        return BiquadCoefficients(b0: a * ((a + 1) - (a - 1) * c + r), b1: 2 * a * ((a - 1) - (a + 1) * c), b2: a * ((a + 1) - (a - 1) * c - r),
                                  a0: (a + 1) + (a - 1) * c + r, a1: -2 * ((a - 1) + (a + 1) * c), a2: (a + 1) + (a - 1) * c - r)
    }

    /// High shelf: `gainDB` above f0 (half of it, in dB, at f0), 0 dB below.
    public static func highshelf(_ f0: Double, rate: Double, gainDB: Double, width: FilterWidth) -> BiquadCoefficients {
        let g = angle(f0, rate: rate, width: width, gainDB: gainDB)
        let a = shelfAmplitude(gainDB), c = g.cosw0, r = 2 * a.squareRoot() * g.alpha
        return BiquadCoefficients(b0: a * ((a + 1) + (a - 1) * c + r), b1: -2 * a * ((a - 1) + (a + 1) * c), b2: a * ((a + 1) + (a - 1) * c - r),
                                  a0: (a + 1) - (a - 1) * c + r, a1: 2 * ((a - 1) - (a + 1) * c), a2: (a + 1) - (a - 1) * c - r)
    }

    /// First-order low-pass: the bilinear transform of 1/(s+1), pre-warped at f0 (−3 dB there).
    public static func firstOrderLowpass(_ f0: Double, rate: Double) -> BiquadCoefficients {
        let k = tan(Double.pi * f0 / rate)
        return BiquadCoefficients(b0: k, b1: k, b2: 0, a0: k + 1, a1: k - 1, a2: 0)
    }

    /// First-order high-pass: the bilinear transform of s/(s+1), pre-warped at f0.
    public static func firstOrderHighpass(_ f0: Double, rate: Double) -> BiquadCoefficients {
        let k = tan(Double.pi * f0 / rate)
        return BiquadCoefficients(b0: 1, b1: -1, b2: 0, a0: k + 1, a1: k - 1, a2: 0)
    }
}
