import Testing
@testable import AUPipeUnits

/// `FarEndLagCoherence`'s share for a microphone unrelated to the far end (issue 26): each lag's
/// coherence estimate reads a bias from the few frames it has smoothed, larger at the lags that
/// have held the far end fewer frames; taken off per lag, an unrelated microphone reads near 0
/// from the far end's first frames on, where one bias for every lag let the newest lags through.
@Suite struct FarEndLagCoherenceTests {
    /// A deterministic white spectrum: uniform in (−1, 1) from a 32-bit LCG.
    struct Noise {
        var state: UInt32
        mutating func next() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 23) - 1
        }
    }

    /// The mean share of frames 2…15 after the far end starts, over `trials` runs, for a
    /// microphone of white noise unrelated to the far end's white noise.
    static func unrelatedShare(trials: Int) -> Float {
        let bins = 65, size = 128, lags = 20, a: Float = 0.85
        var noise = Noise(state: 7)
        var sum: Float = 0, count = 0
        let xr = UnsafeMutablePointer<Float>.allocate(capacity: bins), xi = UnsafeMutablePointer<Float>.allocate(capacity: bins)
        let dr = UnsafeMutablePointer<Float>.allocate(capacity: size), di = UnsafeMutablePointer<Float>.allocate(capacity: size)
        let sdd = UnsafeMutablePointer<Float>.allocate(capacity: bins)
        defer { xr.deallocate(); xi.deallocate(); dr.deallocate(); di.deallocate(); sdd.deallocate() }
        for _ in 0..<trials {
            let lagged = FarEndLagCoherence(bins: bins, lags: lags, smoothing: a)
            sdd.initialize(repeating: 0, count: bins)
            for frame in 0..<16 {
                for k in 0..<bins { xr[k] = noise.next(); xi[k] = noise.next() }
                lagged.push(re: xr, im: xi)
                // D as the first half of a two-real-spectra transform whose other half is 0:
                // bin k and its mirror hold D(k) so that `TwoRealSpectra.split` gives D back.
                dr.initialize(repeating: 0, count: size); di.initialize(repeating: 0, count: size)
                for k in 0..<bins {
                    let (re, im) = (noise.next(), k == 0 || k == bins - 1 ? 0 : noise.next())
                    dr[k] = re; di[k] = im
                    if k > 0 && k < bins - 1 { dr[size - k] = re; di[size - k] = -im }
                    sdd[k] = a * sdd[k] + (1 - a) * (re * re + im * im)
                }
                let share = lagged.update(sdd: sdd, re: dr, im: di, size: size)
                if frame >= 2 { sum += share; count += 1 }
            }
        }
        return sum / Float(count)
    }

    @Test func anUnrelatedMicrophoneReadsNearZeroFromTheFirstFrames() {
        let share = Self.unrelatedShare(trials: 20)
        print("FarEndLagCoherenceTests: unrelated share \(share)")
        #expect(share < 0.05)
    }
}
