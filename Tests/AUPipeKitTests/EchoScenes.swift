#if canImport(Glibc)
import Glibc
#endif

/// Synthetic echo scenes for the `aec` acceptance tests, at 16 kHz mono, all deterministic.
///
/// A scene is 9 s long:
/// - the far end (what the loudspeaker plays) talks throughout: speech-like syllables, active RMS
///   −14 dBFS;
/// - the room: an exponentially decaying noise impulse response (RT60 150 ms, truncated at
///   150 ms, unit energy, echo path gain −6 dB) after a bulk delay of `delayMS`; from the
///   midpoint (4.5 s) on, a different response of the same kind (an echo-path change);
/// - the near end talks only from 6.0 to 7.5 s (double talk), active RMS −20 dBFS, about the
///   level of the echo;
/// - white noise at −55 dBFS RMS throughout.
///
/// The microphone is room(far end) + near end + noise, rounded to 16 bits; the far end too, so
/// that the 16-bit samples speex sees are exactly the test's own.
struct AECScene {
    static let rate = 16000
    static let seconds = 9.0
    static let count = Int(seconds * Double(rate))
    static let pathChange = 4.5
    static let doubleTalk = 6.0..<7.5
    /// Where only the far end talks and the canceller has had as long to converge as it is given
    /// at the start (2 s) since it last had to: before the echo-path change (2–4.5 s), and
    /// after the change (from 6.5 s) once the double talk is over (7.5–9 s). The ERLE targets
    /// apply to these stretches together.
    static let converged: [(name: String, range: Range<Double>)] = [("2-4.5 s", 2.0..<4.5), ("7.5-9 s", 7.5..<9.0)]
    /// The far end alone while the canceller is still following the echo-path change, 1 s
    /// after it: reported, not held to the targets.
    static let reconverging: (name: String, range: Range<Double>) = ("5.5-6 s", 5.5..<6.0)

    let delayMS: Int
    /// The microphone and the far end, 16-bit.
    let mic: [Int16]
    let far: [Int16]
    /// The components of the microphone before rounding (linear, 1.0 = full scale).
    let echo: [Double]
    let near: [Double]

    /// The scene with the far end reaching the room `delayMS` after it was played.
    init(delayMS: Int) {
        self.delayMS = delayMS
        let d = delayMS * Self.rate / 1000
        let mid = Int(Self.pathChange * Double(Self.rate))
        let e1 = AECSignals.echo1, e2 = AECSignals.echo2
        var echo = [Double](repeating: 0, count: Self.count)
        for n in d..<Self.count { echo[n] = n < mid ? e1[n - d] : e2[n - d] }
        let near = AECSignals.near, noise = AECSignals.noise
        var mic = [Int16](repeating: 0, count: Self.count)
        for n in 0..<Self.count { mic[n] = AECSignals.int16(echo[n] + near[n] + noise[n]) }
        self.mic = mic
        self.echo = echo
        self.near = near
        far = AECSignals.far16
    }

    /// Frames from `seconds` (rounded down to a frame).
    static func frame(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }
}

/// The scene's building blocks, made once.
enum AECSignals {
    static let rate = AECScene.rate

    static let far = speech(count: AECScene.count, seed: 0xFA2_E4D, activeDBFS: -14, formant1: 300...900, formant2: 900...2600, talking: 0.0..<AECScene.seconds)
    static let far16 = far.map(int16)
    static let near = speech(count: AECScene.count, seed: 0x4EA2_E4D, activeDBFS: -20, formant1: 250...800, formant2: 1100...2900, talking: AECScene.doubleTalk)
    static let noise: [Double] = {
        var random = SeededRandom(0x0015E)
        let sigma = pow(10, -55.0 / 20)
        return (0..<AECScene.count).map { _ in sigma * random.gaussian() }
    }()
    /// The two rooms' responses (before and after the echo-path change), and the far end through each.
    static let room1 = room(seed: 0x2001)
    static let room2 = room(seed: 0x2002)
    static let echo1 = convolve(far, room1)
    static let echo2 = convolve(far, room2)

    /// Rounds to a 16-bit sample (nearest, clipped).
    static func int16(_ x: Double) -> Int16 { Int16(max(-32768, min(32767, (x * 32768).rounded()))) }

    /// Speech-like: noise through two formant resonances (and a weaker fixed third one), cut
    /// into syllables of 100–300 ms (raised-cosine edges of 20 ms, each at a level of 0.5–1,
    /// formants drawn anew per syllable) separated by pauses of 50–200 ms, now and then
    /// 300–600 ms; only inside `talking` (seconds). Scaled so the RMS over the syllables is
    /// `activeDBFS`. At `rate` Hz (the scenes' 16 kHz unless given).
    static func speech(count: Int, seed: UInt64, activeDBFS: Double, formant1: ClosedRange<Double>, formant2: ClosedRange<Double>,
                       talking: Range<Double>, rate: Int = AECSignals.rate) -> [Double] {
        var random = SeededRandom(seed)
        var envelope = [Double](repeating: 0, count: count)
        var f1 = [Double](repeating: 500, count: count), f2 = [Double](repeating: 1500, count: count)
        var t = talking.lowerBound
        let edge = 0.02
        while t < talking.upperBound {
            let length = random.uniform(0.1...0.3)
            let level = random.uniform(0.5...1)
            let (a, b) = (random.uniform(formant1), random.uniform(formant2))
            let start = Int(t * Double(rate)), end = min(count, Int(min(t + length, talking.upperBound) * Double(rate)))
            if start < end {
                for n in start..<end {
                    let s = Double(n - start) / Double(rate), r = Double(end - n) / Double(rate)
                    let ramp = min(1, min(s, r) / edge)
                    envelope[n] = level * 0.5 * (1 - cos(Double.pi * ramp))
                    f1[n] = a
                    f2[n] = b
                }
            }
            t += length + (random.uniform() < 0.15 ? random.uniform(0.3...0.6) : random.uniform(0.05...0.2))
        }
        var r1 = Resonator(), r2 = Resonator(), r3 = Resonator()
        r3.tune(2800, q: 6, rate: rate)
        var out = [Double](repeating: 0, count: count)
        var lastF1 = -1.0
        for n in 0..<count {
            let x = random.gaussian()
            if f1[n] != lastF1 {
                r1.tune(f1[n], q: 5, rate: rate)
                r2.tune(f2[n], q: 7, rate: rate)
                lastF1 = f1[n]
            }
            out[n] = (r1.run(x) + 0.6 * r2.run(x) + 0.25 * r3.run(x)) * envelope[n]
        }
        var active = 0.0, n = 0
        for i in 0..<count where envelope[i] > 0 { active += out[i] * out[i]; n += 1 }
        let gain = pow(10, activeDBFS / 20) / (active / Double(max(1, n))).squareRoot()
        return out.map { max(-0.98, min(0.98, $0 * gain)) }
    }

    /// A room: Gaussian noise under an exponential decay of 60 dB in 150 ms, 150 ms long,
    /// scaled to unit energy and then to the echo path gain of −6 dB.
    static func room(seed: UInt64) -> [Double] {
        var random = SeededRandom(seed)
        let length = 150 * rate / 1000
        let decay = log(1000.0) / (0.150 * Double(rate)) // amplitude: −60 dB at 150 ms
        var h = (0..<length).map { k in random.gaussian() * exp(-decay * Double(k)) }
        let energy = h.reduce(0) { $0 + $1 * $1 }
        let gain = pow(10, -6.0 / 20) / energy.squareRoot()
        for k in h.indices { h[k] *= gain }
        return h
    }

    /// The linear convolution of `x` and `h`, as long as `x`: one FFT of each, multiplied, one inverse.
    static func convolve(_ x: [Double], _ h: [Double]) -> [Double] {
        var n = 1
        while n < x.count + h.count { n <<= 1 }
        var xr = x + [Double](repeating: 0, count: n - x.count), xi = [Double](repeating: 0, count: n)
        var hr = h + [Double](repeating: 0, count: n - h.count), hi = [Double](repeating: 0, count: n)
        fft(&xr, &xi, inverse: false)
        fft(&hr, &hi, inverse: false)
        for k in 0..<n {
            let (a, b, c, d) = (xr[k], xi[k], hr[k], hi[k])
            xr[k] = a * c - b * d
            xi[k] = a * d + b * c
        }
        fft(&xr, &xi, inverse: true)
        return Array(xr[0..<x.count]).map { $0 / Double(n) }
    }

    /// In-place iterative radix-2 complex FFT (unscaled both ways); `re.count` a power of two.
    static func fft(_ re: inout [Double], _ im: inout [Double], inverse: Bool) {
        let n = re.count
        re.withUnsafeMutableBufferPointer { rb in
            im.withUnsafeMutableBufferPointer { ib in
                let r = rb.baseAddress!, i = ib.baseAddress!
                var j = 0
                for k in 1..<n {
                    var bit = n >> 1
                    while j & bit != 0 { j ^= bit; bit >>= 1 }
                    j |= bit
                    if k < j { swap(&r[k], &r[j]); swap(&i[k], &i[j]) }
                }
                var size = 2
                let sign = inverse ? 1.0 : -1.0
                while size <= n {
                    let half = size / 2
                    let step = sign * 2 * Double.pi / Double(size)
                    var k = 0
                    while k < half {
                        let wr = cos(step * Double(k)), wi = sin(step * Double(k))
                        var s = k
                        while s < n {
                            let t = s + half
                            let tr = r[t] * wr - i[t] * wi, ti = r[t] * wi + i[t] * wr
                            r[t] = r[s] - tr
                            i[t] = i[s] - ti
                            r[s] += tr
                            i[s] += ti
                            s += size
                        }
                        k += 1
                    }
                    size <<= 1
                }
            }
        }
    }
}

/// A two-pole band-pass resonance (RBJ band-pass, 0 dB peak), retunable without losing its state.
struct Resonator {
    var b0 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    mutating func tune(_ frequency: Double, q: Double, rate: Int) {
        let w = 2 * Double.pi * frequency / Double(rate)
        let alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        b0 = alpha / a0
        b2 = -alpha / a0
        a1 = -2 * cos(w) / a0
        a2 = (1 - alpha) / a0
    }

    mutating func run(_ x: Double) -> Double {
        let y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x
        y2 = y1; y1 = y
        return y
    }
}

/// SplitMix64, with uniform and Box–Muller normal draws.
struct SeededRandom {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) * 0x1p-53 }
    mutating func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * uniform() }
    mutating func gaussian() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform()) }
}

/// The benchmark's scene kinds in small (bench/aec/scenes.py has the 42 s ones): a room of a
/// given RT60, a bulk delay, optionally a saturating loudspeaker, and white noise, pink noise or
/// babble. 8 s at 16 kHz mono, deterministic:
/// - the far end talks throughout (`AECSignals.speech`, active RMS −14 dBFS); with `drive`, the
///   loudspeaker plays tanh(drive·x)/drive of it (saturating above about −10 dBFS for drive 3);
/// - the room: a direct path and, 2.5 ms later, Gaussian noise decaying 60 dB in `rt60`
///   (truncated there), as much energy as the direct path, scaled to an echo path gain of −6 dB;
/// - the near end talks from 5.0 to 6.5 s (double talk), active RMS −20 dBFS;
/// - noise: white at a level in dBFS, or pink noise or babble (six talkers of
///   `AECSignals.speech`, summed) at an SNR in dB below the near end's active level.
struct RoomScene {
    enum Noise: CustomStringConvertible {
        case white(dBFS: Double), pink(snrDB: Double), babble(snrDB: Double)
        var description: String {
            switch self {
            case let .white(l): return "white noise \(Int(l)) dBFS"
            case let .pink(s): return "pink noise at \(Int(s)) dB SNR"
            case let .babble(s): return "babble at \(Int(s)) dB SNR"
            }
        }
    }

    static let rate = 16000
    static let seconds = 8.0
    static let count = Int(seconds * Double(rate))
    static let doubleTalk = 5.0..<6.5
    /// Far end alone, the canceller given 3 s to converge: the ERLE is measured here.
    static let converged: [Range<Double>] = [3.0..<5.0, 6.5..<8.0]
    static let nearDBFS = -20.0

    let rt60: Double, delayMS: Int, drive: Double?, noiseKind: Noise
    /// With `drive`: tanh, or bench/aec's small loudspeaker (`RoomScene.smallLoudspeaker`), or a hard clip at 1/drive.
    let smallSpeaker: Bool, clip: Bool
    /// When the echo path changes (s; nil: never): from then on the far end reaches the
    /// microphone through another room of the same RT60 (`room(rt60:seed:)`, another seed).
    let pathChange: Double?
    let mic: [Int16], far: [Int16]
    let echo: [Double], near: [Double], noise: [Double]

    var name: String { "RT60 \(rt60) s, \(delayMS) ms" + (drive.map { ", loudspeaker \(smallSpeaker ? "small" : clip ? "clip" : "tanh") drive \($0)" } ?? "") + ", \(noiseKind)" }

    /// `nearTalking`: when the near end talks (s; nil: `doubleTalk`).
    init(rt60: Double, delayMS: Int, drive: Double? = nil, smallSpeaker: Bool = false, clip: Bool = false, noise noiseKind: Noise = .white(dBFS: -55),
         pathChange: Double? = nil, nearTalking: Range<Double>? = nil) {
        self.rt60 = rt60
        self.smallSpeaker = smallSpeaker
        self.clip = clip
        self.pathChange = pathChange
        self.delayMS = delayMS
        self.drive = drive
        self.noiseKind = noiseKind
        let n = Self.count
        let far = AECSignals.speech(count: n, seed: 0xFA2_0001, activeDBFS: -14, formant1: 300...900, formant2: 900...2600, talking: 0.0..<Self.seconds)
        self.far = far.map(AECSignals.int16)
        var played = self.far.map { Double($0) / 32768 }
        if let drive {
            played = smallSpeaker ? Self.smallLoudspeaker(played, drive: drive)
                : clip ? played.map { min(max(drive * $0, -1), 1) / drive } : played.map { tanh(drive * $0) / drive }
        }
        let h = Self.room(rt60: rt60, seed: 0x3000 + UInt64(rt60 * 10))
        let d = delayMS * Self.rate / 1000
        var wet = AECSignals.convolve(played, h)
        if let pathChange {
            // What the far end plays from the change on is heard through the second room; what
            // the first room still rings with fades out as it would.
            let cut = Self.frame(pathChange)
            let silence = [Double](repeating: 0, count: n)
            let before = AECSignals.convolve(Array(played[0..<cut]) + silence[cut...], h)
            let after = AECSignals.convolve(Array(silence[0..<cut]) + played[cut...], Self.room(rt60: rt60, seed: 0x3800 + UInt64(rt60 * 10)))
            wet = (0..<n).map { before[$0] + after[$0] }
        }
        var echo = [Double](repeating: 0, count: n)
        for i in d..<n { echo[i] = wet[i - d] }
        near = AECSignals.speech(count: n, seed: 0x4EA2_0001, activeDBFS: Self.nearDBFS, formant1: 250...800, formant2: 1100...2900, talking: nearTalking ?? Self.doubleTalk)
        var random = SeededRandom(0x0015E + UInt64(delayMS))
        let nearLevel = pow(10, Self.nearDBFS / 20)
        switch noiseKind {
        case let .white(l):
            noise = (0..<n).map { _ in pow(10, l / 20) * random.gaussian() }
        case let .pink(snr):
            noise = Self.pink(count: n, random: &random).map { $0 * nearLevel * pow(10, -snr / 20) }
        case let .babble(snr):
            var sum = [Double](repeating: 0, count: n)
            for talker in 0..<6 {
                let s = AECSignals.speech(count: n, seed: 0xBAB_B1E0 + UInt64(talker), activeDBFS: -20, formant1: 250...900, formant2: 900...2900, talking: 0.0..<Self.seconds)
                for i in 0..<n { sum[i] += s[i] }
            }
            let rms = (sum.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
            noise = sum.map { $0 / rms * nearLevel * pow(10, -snr / 20) }
        }
        self.echo = echo
        let (nearEnd, noiseEnd) = (near, noise)
        mic = (0..<n).map { AECSignals.int16(echo[$0] + nearEnd[$0] + noiseEnd[$0]) }
    }

    /// The microphone as it would be with the noise's sign `noiseSign` (+1: `mic`; −1: echo +
    /// near − noise, for phase inversion) and the echo in it or not (a silent far end).
    func mic(noiseSign: Double, echo withEcho: Bool = true) -> [Int16] {
        (0..<Self.count).map { AECSignals.int16((withEcho ? echo[$0] : 0) + near[$0] + noiseSign * noise[$0]) }
    }

    /// A direct path, then Gaussian noise decaying 60 dB in `rt60` s from 2.5 ms on, as much
    /// energy as the direct path; all scaled to −6 dB.
    static func room(rt60: Double, seed: UInt64) -> [Double] {
        var random = SeededRandom(seed)
        let length = Int(rt60 * Double(rate)), start = rate / 400
        let decay = log(1000.0) / Double(length)
        var tail = (0..<length).map { k in k < start ? 0 : random.gaussian() * exp(-decay * Double(k)) }
        let e = tail.reduce(0) { $0 + $1 * $1 }
        for k in tail.indices { tail[k] /= e.squareRoot() }
        tail[0] = 1
        let gain = pow(10, -6.0 / 20) / 2.0.squareRoot()
        return tail.map { $0 * gain }
    }

    /// Pink noise of unit RMS: white Gaussian noise shaped to 1/f power above 20 Hz by FFT.
    static func pink(count: Int, random: inout SeededRandom) -> [Double] {
        var size = 1
        while size < count { size <<= 1 }
        var re = (0..<size).map { _ in random.gaussian() }, im = [Double](repeating: 0, count: size)
        AECSignals.fft(&re, &im, inverse: false)
        for k in 0..<size {
            let f = Double(min(k, size - k)) * Double(rate) / Double(size)
            let g = 1 / max(f, 20).squareRoot()
            re[k] *= g
            im[k] *= g
        }
        AECSignals.fft(&re, &im, inverse: true)
        let x = Array(re[0..<count])
        let rms = (x.reduce(0) { $0 + $1 * $1 } / Double(count)).squareRoot()
        return x.map { $0 / rms }
    }

    static func frame(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }
}
