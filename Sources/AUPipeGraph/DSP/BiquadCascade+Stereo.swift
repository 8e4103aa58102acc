import AUPipeFormats

/// Both channels of a stereo stream at once: each frame's pair in one `SIMD2<Double>`, so that
/// one vector instruction does the same operation for both channels. Lane by lane the
/// operations are those of `run`, in the same order: the samples are the same as channel by
/// channel, in about half the time.
extension BiquadCascade {
    package func processStereo(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int) {
        let pairs = UnsafeMutableRawPointer(planeStorage).bindMemory(to: SIMD2<Double>.self, capacity: maxFrames)
        let gain = SIMD2<Double>(repeating: inputGain)
        for f in 0..<frames { pairs[f] = SIMD2(Double(input[2 &* f]), Double(input[2 &* f &+ 1])) * gain }
        var s = 0
        while s + 4 <= sections { runFourStereo(pairs, from: s, frames: frames); s += 4 }
        while s < sections { runFourStereo(pairs, from: s, frames: frames, count: 1); s += 1 }
        for f in 0..<frames {
            let y = pairs[f]
            output[2 &* f] = Float(y.x) + 0
            output[2 &* f &+ 1] = Float(y.y) + 0
        }
    }

    /// `count` (1 or 4) sections from `s` over the pairs, their state in registers.
    @inline(__always)
    private func runFourStereo(_ p: UnsafeMutablePointer<SIMD2<Double>>, from s: Int, frames: Int, count: Int = 4) {
        let k = coefficientStorage + s * Self.coefficientCount
        func c(_ i: Int) -> SIMD2<Double> { SIMD2(repeating: i < count * Self.coefficientCount ? k[i] : (i % 5 == 0 ? 1 : 0)) }
        let b00 = c(0), b10 = c(1), b20 = c(2), a10 = c(3), a20 = c(4)
        let b01 = c(5), b11 = c(6), b21 = c(7), a11 = c(8), a21 = c(9)
        let b02 = c(10), b12 = c(11), b22 = c(12), a12 = c(13), a22 = c(14)
        let b03 = c(15), b13 = c(16), b23 = c(17), a13 = c(18), a23 = c(19)
        // Channel c's state for section s is at (c·sections + s)·2.
        let l = stateStorage + s * 2, r = stateStorage + (sections + s) * 2
        func z(_ i: Int) -> SIMD2<Double> { i < count * 2 ? SIMD2(l[i], r[i]) : .zero }
        var z10 = z(0), z20 = z(1), z11 = z(2), z21 = z(3), z12 = z(4), z22 = z(5), z13 = z(6), z23 = z(7)
        if count == 1 {
            for f in 0..<frames {
                let x0 = p[f]
                let y0 = b00 * x0 + z10
                z10 = b10 * x0 - a10 * y0 + z20
                z20 = b20 * x0 - a20 * y0
                p[f] = y0
            }
        } else {
            for f in 0..<frames {
                let x0 = p[f]
                let y0 = b00 * x0 + z10
                z10 = b10 * x0 - a10 * y0 + z20
                z20 = b20 * x0 - a20 * y0
                let y1 = b01 * y0 + z11
                z11 = b11 * y0 - a11 * y1 + z21
                z21 = b21 * y0 - a21 * y1
                let y2 = b02 * y1 + z12
                z12 = b12 * y1 - a12 * y2 + z22
                z22 = b22 * y1 - a22 * y2
                let y3 = b03 * y2 + z13
                z13 = b13 * y2 - a13 * y3 + z23
                z23 = b23 * y2 - a23 * y3
                p[f] = y3
            }
        }
        func store(_ i: Int, _ v: SIMD2<Double>) { l[i] = Self.flushed(v.x); r[i] = Self.flushed(v.y) }
        store(0, z10); store(1, z20)
        if count == 4 { store(2, z11); store(3, z21); store(4, z12); store(5, z22); store(6, z13); store(7, z23) }
    }
}
