import AUPipeFormats

/// The loops that run second-order sections in transposed direct form II over a plane of
/// lanes: written once, for one channel (`Double`) and for a stereo pair (`SIMD2<Double>`).
///
/// Four sections go through in one loop, sample by sample with their state in registers: each
/// section's recursion is a chain of dependent multiply-adds, and four chains in one loop
/// overlap in the processor (section 2 of one sample with section 1 of the next), where four
/// passes would wait on each chain in turn. Each section does the same operations in the same
/// order whichever loop runs it, so the grouping changes no sample.
package enum BiquadSections {
    /// Where one section is: its coefficients (b0, b1, b2, a1, a2), its state (z1, z2) for the
    /// first lane with the next lane's `stride` doubles on, and whether its input is first
    /// rounded to float (it is the first section of a unit that follows another one in a chain
    /// and runs fused with it: `BiquadCascade.process(_:into:frames:then:)`).
    package struct Section {
        package var k: UnsafePointer<Double>
        package var z: UnsafeMutablePointer<Double>
        package var stride: Int
        package var roundsInput: Bool

        package init(k: UnsafePointer<Double>, z: UnsafeMutablePointer<Double>, stride: Int, roundsInput: Bool) {
            (self.k, self.z, self.stride, self.roundsInput) = (k, z, stride, roundsInput)
        }
    }

    /// One section over `frames` lanes of `p`, in place.
    @inline(__always)
    package static func runOne<L: BiquadLane>(_ p: UnsafeMutablePointer<L>, frames: Int, _ s: Section) {
        if s.roundsInput { runOne(p, frames, s, Round.self) } else { runOne(p, frames, s, Keep.self) }
    }

    /// Four sections in series over `frames` lanes of `p`, in place.
    @inline(__always)
    package static func runFour<L: BiquadLane>(_ p: UnsafeMutablePointer<L>, frames: Int,
                                               _ s0: Section, _ s1: Section, _ s2: Section, _ s3: Section) {
        let n = frames
        // Each rounding pattern is a loop of its own, with no test per sample.
        switch (s0.roundsInput, s1.roundsInput, s2.roundsInput, s3.roundsInput) {
        case (false, false, false, false): runFour(p, n, s0, s1, s2, s3, Keep.self, Keep.self, Keep.self, Keep.self)
        case (false, false, false, true): runFour(p, n, s0, s1, s2, s3, Keep.self, Keep.self, Keep.self, Round.self)
        case (false, false, true, false): runFour(p, n, s0, s1, s2, s3, Keep.self, Keep.self, Round.self, Keep.self)
        case (false, false, true, true): runFour(p, n, s0, s1, s2, s3, Keep.self, Keep.self, Round.self, Round.self)
        case (false, true, false, false): runFour(p, n, s0, s1, s2, s3, Keep.self, Round.self, Keep.self, Keep.self)
        case (false, true, false, true): runFour(p, n, s0, s1, s2, s3, Keep.self, Round.self, Keep.self, Round.self)
        case (false, true, true, false): runFour(p, n, s0, s1, s2, s3, Keep.self, Round.self, Round.self, Keep.self)
        case (false, true, true, true): runFour(p, n, s0, s1, s2, s3, Keep.self, Round.self, Round.self, Round.self)
        case (true, false, false, false): runFour(p, n, s0, s1, s2, s3, Round.self, Keep.self, Keep.self, Keep.self)
        case (true, false, false, true): runFour(p, n, s0, s1, s2, s3, Round.self, Keep.self, Keep.self, Round.self)
        case (true, false, true, false): runFour(p, n, s0, s1, s2, s3, Round.self, Keep.self, Round.self, Keep.self)
        case (true, false, true, true): runFour(p, n, s0, s1, s2, s3, Round.self, Keep.self, Round.self, Round.self)
        case (true, true, false, false): runFour(p, n, s0, s1, s2, s3, Round.self, Round.self, Keep.self, Keep.self)
        case (true, true, false, true): runFour(p, n, s0, s1, s2, s3, Round.self, Round.self, Keep.self, Round.self)
        case (true, true, true, false): runFour(p, n, s0, s1, s2, s3, Round.self, Round.self, Round.self, Keep.self)
        case (true, true, true, true): runFour(p, n, s0, s1, s2, s3, Round.self, Round.self, Round.self, Round.self)
        }
    }

    /// Whether a loop rounds a section's input to float: a type, so that each choice is a loop
    /// compiled on its own.
    private protocol Rounding { static var on: Bool { get } }
    private enum Round: Rounding { static var on: Bool { true } }
    private enum Keep: Rounding { static var on: Bool { false } }

    @inline(__always)
    private static func runOne<L: BiquadLane, R: Rounding>(_ p: UnsafeMutablePointer<L>, _ frames: Int, _ s: Section, _: R.Type) {
        let b0 = L(broadcast: s.k[0]), b1 = L(broadcast: s.k[1]), b2 = L(broadcast: s.k[2])
        let a1 = L(broadcast: s.k[3]), a2 = L(broadcast: s.k[4])
        var z1 = L(state: s.z, stride: s.stride), z2 = L(state: s.z + 1, stride: s.stride)
        for f in 0..<frames {
            let x = R.on ? p[f].roundedToFloat : p[f]
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            p[f] = y
        }
        // A state this small no longer reaches a float output; flushed, it cannot decay into
        // subnormal doubles (100 times slower to compute with) after the input falls silent.
        z1.storeState(s.z, stride: s.stride)
        z2.storeState(s.z + 1, stride: s.stride)
    }

    @inline(__always)
    private static func runFour<L: BiquadLane, R0: Rounding, R1: Rounding, R2: Rounding, R3: Rounding>(
        _ p: UnsafeMutablePointer<L>, _ frames: Int, _ s0: Section, _ s1: Section, _ s2: Section, _ s3: Section,
        _: R0.Type, _: R1.Type, _: R2.Type, _: R3.Type
    ) {
        let b00 = L(broadcast: s0.k[0]), b10 = L(broadcast: s0.k[1]), b20 = L(broadcast: s0.k[2])
        let a10 = L(broadcast: s0.k[3]), a20 = L(broadcast: s0.k[4])
        let b01 = L(broadcast: s1.k[0]), b11 = L(broadcast: s1.k[1]), b21 = L(broadcast: s1.k[2])
        let a11 = L(broadcast: s1.k[3]), a21 = L(broadcast: s1.k[4])
        let b02 = L(broadcast: s2.k[0]), b12 = L(broadcast: s2.k[1]), b22 = L(broadcast: s2.k[2])
        let a12 = L(broadcast: s2.k[3]), a22 = L(broadcast: s2.k[4])
        let b03 = L(broadcast: s3.k[0]), b13 = L(broadcast: s3.k[1]), b23 = L(broadcast: s3.k[2])
        let a13 = L(broadcast: s3.k[3]), a23 = L(broadcast: s3.k[4])
        var z10 = L(state: s0.z, stride: s0.stride), z20 = L(state: s0.z + 1, stride: s0.stride)
        var z11 = L(state: s1.z, stride: s1.stride), z21 = L(state: s1.z + 1, stride: s1.stride)
        var z12 = L(state: s2.z, stride: s2.stride), z22 = L(state: s2.z + 1, stride: s2.stride)
        var z13 = L(state: s3.z, stride: s3.stride), z23 = L(state: s3.z + 1, stride: s3.stride)
        for f in 0..<frames {
            let x0 = R0.on ? p[f].roundedToFloat : p[f]
            let y0 = b00 * x0 + z10
            z10 = b10 * x0 - a10 * y0 + z20
            z20 = b20 * x0 - a20 * y0
            let x1 = R1.on ? y0.roundedToFloat : y0
            let y1 = b01 * x1 + z11
            z11 = b11 * x1 - a11 * y1 + z21
            z21 = b21 * x1 - a21 * y1
            let x2 = R2.on ? y1.roundedToFloat : y1
            let y2 = b02 * x2 + z12
            z12 = b12 * x2 - a12 * y2 + z22
            z22 = b22 * x2 - a22 * y2
            let x3 = R3.on ? y2.roundedToFloat : y2
            let y3 = b03 * x3 + z13
            z13 = b13 * x3 - a13 * y3 + z23
            z23 = b23 * x3 - a23 * y3
            p[f] = y3
        }
        z10.storeState(s0.z, stride: s0.stride); z20.storeState(s0.z + 1, stride: s0.stride)
        z11.storeState(s1.z, stride: s1.stride); z21.storeState(s1.z + 1, stride: s1.stride)
        z12.storeState(s2.z, stride: s2.stride); z22.storeState(s2.z + 1, stride: s2.stride)
        z13.storeState(s3.z, stride: s3.stride); z23.storeState(s3.z + 1, stride: s3.stride)
    }
}
