import AUPipeFormats
#if canImport(Glibc)
import Glibc
#endif

/// One second-order IIR section, normalised so that a0 = 1:
/// y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2].
/// A first-order section is one with b2 = a2 = 0.
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
    }

    /// Coefficients as the cookbook writes them, with a0 not yet divided out (a0 ≠ 0).
    public init(b0: Double, b1: Double, b2: Double, a0: Double, a1: Double, a2: Double) {
        self.init(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }

    /// The section that passes its input unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// Whether both poles lie strictly inside the unit circle (the Jury conditions for
    /// z² + a1·z + a2): |a2| < 1 and |a1| < 1 + a2. An unstable section grows without bound.
    public var isStable: Bool {
        a1.isFinite && a2.isFinite && b0.isFinite && b1.isFinite && b2.isFinite && abs(a2) < 1 && abs(a1) < 1 + a2
    }
}
