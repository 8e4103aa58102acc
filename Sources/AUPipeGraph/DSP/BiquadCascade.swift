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
    /// Whether channel c is filtered, for each c.
    package var selectedChannels: [Bool] { selected }
    /// The plane, for `processStereo`.
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
        process(input, into: output, frames: frames, then: [])
    }

    /// Runs this cascade and then `followers` in order as if each were a unit of its own in a
    /// chain, each one's output rounded to float before the next reads it: the samples are those
    /// of each cascade's own `process` called in turn, in one pass over the block instead of one
    /// per cascade, with sections of different cascades overlapping four at a time. The followers
    /// have this cascade's channels, selection and `maxFrames`, and an `inputGain` of 1; this
    /// cascade's plane holds the samples. (Arrays and index loops, not a generic collection: an
    /// unspecialized generic allocates per call in a debug build.)
    package func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int,
                         then followers: [BiquadCascade]) {
        let ch = channels
        let gain = inputGain
        if ch == 2 && selected[0] && selected[1] {
            return processStereo(input, into: output, frames: frames, then: followers)
        }
        for c in 0..<ch {
            guard selected[c] else {
                if UnsafePointer(output) != input { for f in 0..<frames { output[f &* ch &+ c] = input[f &* ch &+ c] } }
                continue
            }
            for f in 0..<frames { plane[f] = Double(input[f &* ch &+ c]) * gain }
            runSections(then: followers, plane, frames: frames, channel: c)
            // + 0 turns −0 into +0: a decaying state rounds to a zero whose sign would
            // otherwise depend on where blocks end (`flushBelow`).
            for f in 0..<frames { output[f &* ch &+ c] = Float(plane[f]) + 0 }
        }
    }

    /// Every section of this cascade and then of `followers` in order over `p`, four at a time,
    /// then one at a time; for `channel`, or for the stereo pair when `L` is `SIMD2<Double>`.
    @inline(__always)
    func runSections<L: BiquadLane>(then followers: [BiquadCascade], _ p: UnsafeMutablePointer<L>, frames: Int, channel: Int) {
        let stereo = L.self == SIMD2<Double>.self
        var a: BiquadSections.Section?, b: BiquadSections.Section?, c: BiquadSections.Section?
        var m = -1
        while m < followers.count {
            let cascade = m < 0 ? self : followers[m]
            for s in 0..<cascade.sections {
                let k = UnsafePointer(cascade.coefficients + s * Self.coefficientCount)
                let z = cascade.state + ((stereo ? 0 : channel * cascade.sections) + s) * 2
                let section = BiquadSections.Section(k: k, z: z, stride: cascade.sections * 2, roundsInput: m >= 0 && s == 0)
                if let a0 = a, let b0 = b, let c0 = c {
                    BiquadSections.runFour(p, frames: frames, a0, b0, c0, section)
                    (a, b, c) = (nil, nil, nil)
                } else if a == nil { a = section } else if b == nil { b = section } else { c = section }
            }
            m += 1
        }
        if let a { BiquadSections.runOne(p, frames: frames, a) }
        if let b { BiquadSections.runOne(p, frames: frames, b) }
        if let c { BiquadSections.runOne(p, frames: frames, c) }
    }

    /// A state value, or 0 when it is below `flushBelow`.
    @inline(__always)
    package static func flushed(_ v: Double) -> Double { abs(v) < flushBelow ? 0 : v }
}
