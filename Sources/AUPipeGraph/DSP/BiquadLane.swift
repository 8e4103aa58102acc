import AUPipeFormats

/// What the second-order section loops (`BiquadSections`) run on, one frame at a time: one
/// channel's sample (`Double`) or a stereo pair (`SIMD2<Double>`, where one vector instruction
/// does the same operation for both channels). Lane by lane the operations are the same, in the
/// same order, so a channel gets the same samples either way.
package protocol BiquadLane {
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    /// `value` in every lane (a coefficient).
    init(broadcast value: Double)
    /// One state variable of every lane: lane i's at `z[i · stride]`.
    init(state z: UnsafeMutablePointer<Double>, stride: Int)
    /// Stores the state variable as `init(state:stride:)` reads it, each lane flushed to 0 below
    /// `BiquadCascade.flushBelow`.
    func storeState(_ z: UnsafeMutablePointer<Double>, stride: Int)
    /// Each lane rounded to the float a unit writes, back in double: what the next unit of a
    /// chain reads. A unit writes −0 as +0, which this leaves out (it would lengthen each
    /// section's path by one addition): through the sections' multiplications and additions a
    /// zero's sign changes no value but the sign of other zeros, and the last unit's output makes
    /// every zero +0, so the samples written are the same.
    var roundedToFloat: Self { get }
}

extension Double: BiquadLane {
    @inline(__always) package init(broadcast value: Double) { self = value }
    @inline(__always) package init(state z: UnsafeMutablePointer<Double>, stride: Int) { self = z[0] }
    @inline(__always) package func storeState(_ z: UnsafeMutablePointer<Double>, stride: Int) {
        z[0] = BiquadCascade.flushed(self)
    }
    @inline(__always) package var roundedToFloat: Double { Double(Float(self)) }
}

extension SIMD2: BiquadLane where Scalar == Double {
    @inline(__always) package init(broadcast value: Double) { self.init(repeating: value) }
    @inline(__always) package init(state z: UnsafeMutablePointer<Double>, stride: Int) { self.init(z[0], z[stride]) }
    @inline(__always) package func storeState(_ z: UnsafeMutablePointer<Double>, stride: Int) {
        z[0] = BiquadCascade.flushed(x)
        z[stride] = BiquadCascade.flushed(y)
    }
    @inline(__always) package var roundedToFloat: SIMD2<Double> {
        SIMD2(Double(Float(x)), Double(Float(y)))
    }
}
