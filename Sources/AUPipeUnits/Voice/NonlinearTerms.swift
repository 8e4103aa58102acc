/// The nonlinear echo canceller's references (`NonlinearEchoCanceller`): power-series terms of
/// the far end x (its loudspeakers summed, full scale 1), z₁ = x·|x| and z₂ = x³, each made
/// orthogonal to x and z₂ to z₁ too (Gram–Schmidt on inner products smoothed over the last few
/// seconds: `smoothing` per frame), then scaled to x's own level (the same smoothed powers), so
/// that they use speex's 16 bits whatever the far end's level and neither term starts the
/// filter far below the other. Allocated in `init` (and freed with the object); `make` allocates
/// nothing.
final class NonlinearTerms {
    /// How many terms (speex's loudspeakers), and the smoothing (per frame) of the inner products.
    static let count = 2, smoothing: Float = 0.995
    let frameFrames: Int
    /// The latest frame's x, z₁ and z₂.
    private let x, z1, z2: UnsafeMutablePointer<Float>
    /// Smoothed ⟨x, x⟩, ⟨z₁, x⟩, ⟨z₁', z₁'⟩, ⟨z₂, x⟩, ⟨z₂, z₁'⟩, ⟨z₂', z₂'⟩ (' once orthogonal to x;
    /// z₂' then also to z₁').
    private let sums: UnsafeMutablePointer<Float>

    init(frameFrames: Int) {
        self.frameFrames = frameFrames
        x = .allocate(capacity: frameFrames); x.initialize(repeating: 0, count: frameFrames)
        z1 = .allocate(capacity: frameFrames); z1.initialize(repeating: 0, count: frameFrames)
        z2 = .allocate(capacity: frameFrames); z2.initialize(repeating: 0, count: frameFrames)
        sums = .allocate(capacity: 6); sums.initialize(repeating: 0, count: 6)
    }

    deinit { x.deallocate(); z1.deallocate(); z2.deallocate(); sums.deallocate() }

    private func smooth(_ k: Int, _ v: Float) { sums[k] = Self.smoothing * sums[k] + (1 - Self.smoothing) * v }

    /// The terms of `reference` (N frames of `speakers` interleaved 16-bit channels) into `out`
    /// (N × `count`, interleaved); returns the frame's ‖x‖².
    func make(reference: UnsafePointer<Int16>, speakers: Int, into out: UnsafeMutablePointer<Int16>) -> Float {
        var xx: Float = 0, z1x: Float = 0, z2x: Float = 0
        for i in 0..<frameFrames {
            var xs: Float = 0, zs: Float = 0
            for c in 0..<speakers {
                let v = Float(reference[i * speakers + c]) / 32768
                xs += v
                zs += v * abs(v)
            }
            x[i] = xs; z1[i] = zs; z2[i] = xs * xs * xs
            xx += xs * xs; z1x += zs * xs; z2x += z2[i] * xs
        }
        smooth(0, xx); smooth(1, z1x); smooth(3, z2x)
        let k1 = sums[0] > 0 ? sums[1] / sums[0] : 0, k2 = sums[0] > 0 ? sums[3] / sums[0] : 0
        var z11: Float = 0, z21: Float = 0
        for i in 0..<frameFrames {
            z1[i] -= k1 * x[i]
            z2[i] -= k2 * x[i]
            z11 += z1[i] * z1[i]; z21 += (z2[i] + k2 * x[i]) * z1[i]
        }
        smooth(2, z11); smooth(4, z21)
        let k21 = sums[2] > 0 ? sums[4] / sums[2] : 0
        var z22: Float = 0
        for i in 0..<frameFrames {
            z2[i] -= k21 * z1[i]
            z22 += z2[i] * z2[i]
        }
        smooth(5, z22)
        let s1 = sums[2] > 0 ? (sums[0] / sums[2]).squareRoot() * 32768 : 0
        let s2 = sums[5] > 0 ? (sums[0] / sums[5]).squareRoot() * 32768 : 0
        for i in 0..<frameFrames {
            out[2 * i] = Int16(max(-32768, min(32767, (z1[i] * s1).rounded())))
            out[2 * i + 1] = Int16(max(-32768, min(32767, (z2[i] * s2).rounded())))
        }
        return xx
    }
}
