#if canImport(Glibc)
import Glibc
#endif

/// Echo scenes with clock drift for `aec drift=`, at 16 kHz mono, deterministic: the
/// microphone's clock runs `ppm` parts per million fast against the far end's.
///
/// A scene is 32 s long:
/// - the far end talks throughout (`AECSignals.speech`, active RMS −14 dBFS);
/// - the room: the first room of `AECScene` (decaying noise, RT60 150 ms, −6 dB) after a bulk
///   delay of 60 ms, no echo-path change;
/// - the echo reaches the microphone resampled by (1 + ppm·10⁻⁶): microphone frame n holds the
///   echo of the far end at n / (1 + ppm·10⁻⁶) (band-limited interpolation: a 32-tap windowed
///   sinc), so the echo comes progressively later for positive ppm (1 ms per second at
///   1000 ppm) and earlier for negative;
/// - the near end talks from 14 to 16 s (double talk), active RMS −20 dBFS;
/// - white noise at −70 dBFS RMS (the ERLE the noise allows is then about 50 dB).
struct DriftScene {
    static let rate = 16000
    static let seconds = 32.0
    static let count = Int(seconds * Double(rate))
    static let delayMS = 60
    static let doubleTalk = 14.0..<16.0
    /// Where the ERLE after convergence is measured: the far end alone, the last 10 s.
    static let converged = 22.0..<32.0

    let ppm: Double
    let mic: [Int16]
    let far: [Int16]
    let near: [Double]

    /// With a drift that moves linearly from `ppm` at the start to `endPPM` at the end (the
    /// same: a constant drift), and from `pathChange` (s) on, if given, the echo through
    /// `AECScene`'s second room (an echo-path change). `room`: another impulse response than
    /// `AECScene`'s first (diffuse: decaying noise without a direct path), e.g.
    /// `RoomScene.room(rt60:seed:)`, which has one.
    init(ppm: Double, endPPM: Double? = nil, pathChange: Double? = nil, room: [Double]? = nil) {
        self.ppm = endPPM ?? ppm
        let end = endPPM ?? ppm
        func factor(_ n: Int) -> Double { 1 + (ppm + (end - ppm) * Double(n) / Double(Self.count)) * 1e-6 }
        let delay = Double(Self.delayMS * Self.rate / 1000)
        var echo = DriftSignals.resampled(room.map { AECSignals.convolve(DriftSignals.far, $0) } ?? DriftSignals.echo, delay: delay, factor: factor)
        if let pathChange {
            let second = DriftSignals.resampled(DriftSignals.echo2, delay: delay, factor: factor)
            for n in Self.frame(pathChange)..<Self.count { echo[n] = second[n] }
        }
        let near = DriftSignals.near, noise = DriftSignals.noise
        mic = (0..<Self.count).map { AECSignals.int16(echo[$0] + near[$0] + noise[$0]) }
        far = DriftSignals.far16
        self.near = near
    }

    static func frame(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }
}

/// The drift scenes' building blocks, made once.
enum DriftSignals {
    static let far = AECSignals.speech(count: DriftScene.count, seed: 0xD21F7, activeDBFS: -14, formant1: 300...900, formant2: 900...2600,
                                       talking: 0.0..<DriftScene.seconds)
    static let far16 = far.map(AECSignals.int16)
    static let near = AECSignals.speech(count: DriftScene.count, seed: 0x4EA2D, activeDBFS: -20, formant1: 250...800, formant2: 1100...2900,
                                        talking: DriftScene.doubleTalk)
    static let noise: [Double] = {
        var random = SeededRandom(0xD0015E)
        let sigma = pow(10, -70.0 / 20)
        return (0..<DriftScene.count).map { _ in sigma * random.gaussian() }
    }()
    /// The far end through the room, on the far end's clock.
    static let echo = AECSignals.convolve(far, AECSignals.room1)
    /// The far end through `AECScene`'s second room (for an echo-path change).
    static let echo2 = AECSignals.convolve(far, AECSignals.room2)

    /// `x` on a clock `factor(n)` times faster at frame n, `delay` frames later: y[n] = x(p(n) −
    /// delay), p(n) = Σ_{k<n} 1 / factor(k) (n / factor for a constant one), by a windowed sinc of
    /// 16 taps each side (window (1 − (d/16.5)²)², cut-off at the Nyquist frequency; exact at
    /// integer positions up to rounding), zero outside `x`.
    static func resampled(_ x: [Double], delay: Double, factor: (Int) -> Double) -> [Double] {
        let half = 16, width = Double(half) + 0.5
        var y = [Double](repeating: 0, count: x.count)
        var clock = 0.0
        x.withUnsafeBufferPointer { xs in
            for n in 0..<y.count {
                let position = clock - delay
                clock += 1 / factor(n)
                let base = Int(position.rounded(.down))
                let frac = position - Double(base)
                if frac == 0 {
                    if base >= 0, base < xs.count { y[n] = xs[base] }
                    continue
                }
                // sin(π(frac − j)) = (−1)^j · sin(π·frac): one sine per sample.
                let s = sin(Double.pi * frac) / Double.pi
                var acc = 0.0
                for j in -half + 1...half {
                    let k = base + j
                    guard k >= 0, k < xs.count else { continue }
                    let d = frac - Double(j)
                    let w = 1 - (d / width) * (d / width)
                    acc += xs[k] * (j & 1 == 0 ? s : -s) / d * w * w
                }
                y[n] = acc
            }
        }
        return y
    }
}
