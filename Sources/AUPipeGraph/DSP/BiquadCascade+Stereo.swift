import AUPipeFormats

/// Both channels of a stereo stream at once: each frame's pair in one `SIMD2<Double>`, so that
/// one vector instruction does the same operation for both channels. Lane by lane the
/// operations are those of one channel, in the same order (`BiquadSections` is one loop for
/// both): the samples are the same as channel by channel, in about half the time.
extension BiquadCascade {
    /// `process(_:into:frames:then:)` for a stereo stream with both channels selected.
    func processStereo(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int,
                       then followers: [BiquadCascade]) {
        let pairs = UnsafeMutableRawPointer(planeStorage).bindMemory(to: SIMD2<Double>.self, capacity: maxFrames)
        let gain = SIMD2<Double>(repeating: inputGain)
        for f in 0..<frames { pairs[f] = SIMD2(Double(input[2 &* f]), Double(input[2 &* f &+ 1])) * gain }
        runSections(then: followers, pairs, frames: frames, channel: 0)
        for f in 0..<frames {
            let y = pairs[f]
            output[2 &* f] = Float(y.x) + 0
            output[2 &* f &+ 1] = Float(y.y) + 0
        }
    }
}
