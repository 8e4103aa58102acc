import AUPipeFormats

/// Second-order sections in series, run on some channels of an interleaved stream, in
/// transposed direct form II with coefficients and state in double precision (a 20 Hz
/// high-pass at 192 kHz has poles 0.0007 from the unit circle: single precision would not
/// hold its response). Each channel has its own state; channels not selected pass unchanged.
///
/// Coefficients can be replaced between two calls (`setSection`): the state is kept, so a
/// change made in small steps (`FilterGlide`) does not click. Everything is allocated in
/// `init`; nothing per block.
public final class BiquadCascade {
    public let sections: Int
    public let channels: Int
    /// The most frames one `process` call is given.
    public let maxFrames: Int
    /// Per section: b0, b1, b2, a1, a2.
    private let coefficients: UnsafeMutablePointer<Double>
    /// Per channel, per section: z1, z2.
    private let state: UnsafeMutablePointer<Double>
    /// One channel's samples in double precision, while they go through the sections.
    private let plane: UnsafeMutablePointer<Double>
    /// Whether channel c is filtered.
    private let selected: [Bool]
    /// The buffers, for `processStereo`.
    package var coefficientStorage: UnsafeMutablePointer<Double> { coefficients }
    package var stateStorage: UnsafeMutablePointer<Double> { state }
    package var planeStorage: UnsafeMutablePointer<Double> { plane }
    /// A factor applied before the first section (an equaliser's preamp), 1 for none.
    public var inputGain: Double = 1

    package static let coefficientCount = 5
    /// The state's magnitude below which it is set to 0 at the end of a block: 1e-200, far
    /// below the smallest float (1.4e-45) an output sample can hold, far above the subnormal
    /// doubles (< 2.2e-308): it changes no float written but the sign of a zero, which
    /// `process` makes positive.
    package static let flushBelow = 1e-200

    /// `sections` (≥ 0) identity sections on `channels` channels, those in `only` (all when nil).
    public init(sections: Int, channels: Int, maxFrames: Int, only: Set<Int>? = nil) {
        precondition(sections >= 0 && channels >= 1 && maxFrames >= 1)
        self.sections = sections
        self.channels = channels
        self.maxFrames = maxFrames
        coefficients = .allocate(capacity: max(1, sections * Self.coefficientCount))
        state = .allocate(capacity: max(1, sections * channels * 2))
        state.initialize(repeating: 0, count: max(1, sections * channels * 2))
        plane = .allocate(capacity: 2 * maxFrames)  // room for a stereo pair per frame (`processStereo`)
        plane.initialize(repeating: 0, count: 2 * maxFrames)
        selected = (0..<channels).map { only?.contains($0) ?? true }
        for s in 0..<sections { setSection(s, .identity) }
    }

    deinit {
        coefficients.deallocate()
        state.deallocate()
        plane.deallocate()
    }

    /// Replaces section `index`'s coefficients, keeping its state.
    public func setSection(_ index: Int, _ c: BiquadCoefficients) {
        let p = coefficients + index * Self.coefficientCount
        (p[0], p[1], p[2], p[3], p[4]) = (c.b0, c.b1, c.b2, c.a1, c.a2)
    }

    /// Filters `frames` (≤ maxFrames) interleaved frames of `input` into `output` (which may be
    /// `input`).
    public func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int) {
        let ch = channels
        let gain = inputGain
        if ch == 2 && selected[0] && selected[1] { return processStereo(input, into: output, frames: frames) }
        for c in 0..<ch {
            guard selected[c] else {
                if UnsafePointer(output) != input { for f in 0..<frames { output[f &* ch &+ c] = input[f &* ch &+ c] } }
                continue
            }
            for f in 0..<frames { plane[f] = Double(input[f &* ch &+ c]) * gain }
            var s = 0
            while s + 4 <= sections { runFour(from: s, channel: c, frames: frames); s += 4 }
            while s < sections { run(section: s, channel: c, frames: frames); s += 1 }
            // + 0 turns −0 into +0: a decaying state rounds to a zero whose sign would
            // otherwise depend on where blocks end (`flushBelow`).
            for f in 0..<frames { output[f &* ch &+ c] = Float(plane[f]) + 0 }
        }
    }

    /// Four sections in series over `plane`, sample by sample with their state in registers:
    /// each section's recursion is a chain of dependent multiply-adds, and four chains in one
    /// loop overlap in the processor (section 2 of one sample with section 1 of the next), where
    /// four passes would wait on each chain in turn. The same operations in the same order as `run`.
    @inline(__always)
    private func runFour(from s: Int, channel c: Int, frames: Int) {
        let k = coefficients + s * Self.coefficientCount, p = plane
        let b00 = k[0], b10 = k[1], b20 = k[2], a10 = k[3], a20 = k[4]
        let b01 = k[5], b11 = k[6], b21 = k[7], a11 = k[8], a21 = k[9]
        let b02 = k[10], b12 = k[11], b22 = k[12], a12 = k[13], a22 = k[14]
        let b03 = k[15], b13 = k[16], b23 = k[17], a13 = k[18], a23 = k[19]
        let z = state + (c * sections + s) * 2
        var z10 = z[0], z20 = z[1], z11 = z[2], z21 = z[3], z12 = z[4], z22 = z[5], z13 = z[6], z23 = z[7]
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
        (z[0], z[1], z[2], z[3]) = (Self.flushed(z10), Self.flushed(z20), Self.flushed(z11), Self.flushed(z21))
        (z[4], z[5], z[6], z[7]) = (Self.flushed(z12), Self.flushed(z22), Self.flushed(z13), Self.flushed(z23))
    }

    /// A state value, or 0 when it is below `flushBelow`.
    @inline(__always)
    package static func flushed(_ v: Double) -> Double { abs(v) < flushBelow ? 0 : v }

    /// One section over `plane`, in transposed direct form II.
    @inline(__always)
    private func run(section s: Int, channel c: Int, frames: Int) {
        let k = coefficients + s * Self.coefficientCount, plane = self.plane
        let b0 = k[0], b1 = k[1], b2 = k[2], a1 = k[3], a2 = k[4]
        let z = state + (c * sections + s) * 2
        var z1 = z[0], z2 = z[1]
        for f in 0..<frames {
            let x = plane[f]
            let y = b0 * x + z1
            z1 = b1 * x - a1 * y + z2
            z2 = b2 * x - a2 * y
            plane[f] = y
        }
        // A state this small no longer reaches a float output; flushed, it cannot decay into
        // subnormal doubles (100 times slower to compute with) after the input falls silent.
        z[0] = Self.flushed(z1)
        z[1] = Self.flushed(z2)
    }
}
