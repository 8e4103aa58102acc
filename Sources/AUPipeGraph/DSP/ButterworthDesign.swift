import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// Butterworth and Linkwitz-Riley low- and high-pass filters as cascades of second-order
/// sections (and one first-order section for an odd order), by the bilinear transform
/// pre-warped at the corner, as scipy.signal's `butter(N, f, output='sos')` designs them.
public enum ButterworthDesign {
    /// The Q of each second-order section of an order-`order` Butterworth filter (1...),
    /// Q_k = 1 / (2·sin((2k+1)·π / (2·order))) for k < order/2: the analog poles taken pair by pair.
    public static func sectionQs(order: Int) -> [Double] {
        (0..<(order / 2)).map { k in 1 / (2 * sin(Double(2 * k + 1) * Double.pi / Double(2 * order))) }
    }

    /// How many sections an order-`order` Butterworth filter has: one per pole pair, and a
    /// first-order one for an odd order. Linkwitz-Riley (`linkwitzRiley`, even order) has
    /// those of half the order, twice.
    public static func sectionCount(order: Int, linkwitzRiley: Bool = false) -> Int {
        linkwitzRiley ? 2 * sectionCount(order: order / 2) : (order + 1) / 2
    }

    /// Section `index` of an order-`order` (1...8) Butterworth filter at `f0` Hz (−3 dB
    /// there), or of a Linkwitz-Riley one (even order: half the order twice, −6 dB at f0, so
    /// that a low-pass and a high-pass at f0 sum flat); a high-pass with `highpass`. Computed
    /// without allocating, for a glide in the audio path.
    public static func section(_ index: Int, order: Int, linkwitzRiley: Bool = false, f0: Double, rate: Double, highpass: Bool) -> BiquadCoefficients {
        if linkwitzRiley {
            let half = order / 2
            return section(index % sectionCount(order: half), order: half, f0: f0, rate: rate, highpass: highpass)
        }
        if index < order / 2 {
            let q = 1 / (2 * sin(Double(2 * index + 1) * Double.pi / Double(2 * order)))
            return highpass ? CookbookDesign.highpass(f0, rate: rate, width: .q(q)) : CookbookDesign.lowpass(f0, rate: rate, width: .q(q))
        }
        return highpass ? CookbookDesign.firstOrderHighpass(f0, rate: rate) : CookbookDesign.firstOrderLowpass(f0, rate: rate)
    }
}
