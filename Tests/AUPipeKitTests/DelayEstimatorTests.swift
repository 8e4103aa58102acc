import Testing
import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

/// Deterministic echo scenes at 16 kHz: speech-like signals, a room, delays, noise.
enum EchoScene {
    static let rate = 16000

    /// SplitMix64 with Box–Muller normals.
    struct Random {
        var state: UInt64
        init(_ seed: UInt64) { state = seed }
        mutating func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) + 0.5) * 0x1p-53
        }
        mutating func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
        }
        mutating func gaussian() -> Double {
            (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
        }
    }

    static func frames(_ ms: Double, rate: Int = rate) -> Int { Int((ms * Double(rate) / 1000).rounded()) }

    /// Speech-like: syllables of 100–300 ms (raised-cosine edges of 20 ms, levels 0.4–1) with
    /// pauses of 50–300 ms; each syllable a mix of a pulse train (pitch 90–220 Hz) and noise,
    /// low-passed (one pole, at 0.7 for 16 kHz: about −15 dB at 8 kHz). `level` is roughly the
    /// loudest syllable's RMS.
    static func speech(seconds: Double, seed: UInt64, level: Float = 0.1, rate: Int = rate) -> [Float] {
        let count = Int(seconds * Double(rate))
        let frames = { (ms: Double) in Self.frames(ms, rate: rate) }
        let pole = pow(0.7, 16000 / Double(rate))
        var out = [Float](repeating: 0, count: count)
        var random = Random(seed)
        var n = frames(random.uniform(0...200))
        var lowpass = 0.0
        while n < count {
            let length = frames(random.uniform(100...300))
            let gain = random.uniform(0.4...1)
            let period = Double(rate) / random.uniform(90...220)
            let edge = frames(20)
            var phase = random.uniform(0...period)
            for i in 0..<length where n + i < count {
                phase += 1
                var pulse = 0.0
                if phase >= period { phase -= period; pulse = period.squareRoot() }
                let x = 0.7 * pulse + 0.7 * random.gaussian()
                lowpass = pole * lowpass + x
                let ramp = min(1.0, Double(min(i, length - 1 - i)) / Double(edge))
                let envelope = 0.5 - 0.5 * cos(Double.pi * ramp)
                out[n + i] = Float(lowpass * 0.3 * gain * envelope) * level
            }
            n += length + frames(random.uniform(50...300))
        }
        return out
    }

    /// A room: a direct path of 1 at lag 0, then a noise tail whose amplitude falls by e every
    /// 50 ms (RT60 ≈ 345 ms) with as much energy as the direct path; 250 ms long.
    static func room(seed: UInt64, rate: Int = rate) -> [Float] {
        var random = Random(seed)
        let length = frames(250, rate: rate), tau = Double(frames(50, rate: rate))
        var h = [Float](repeating: 0, count: length)
        h[0] = 1
        let g = (2 / tau).squareRoot()
        for i in 1..<length { h[i] = Float(g * random.gaussian() * exp(-Double(i) / tau)) }
        return h
    }

    /// `x` convolved with `h`, `x.count` samples (overlap-add FFT convolution).
    static func convolve(_ x: [Float], _ h: [Float]) -> [Float] {
        var size = 1
        while size < 2 * h.count { size *= 2 }
        let block = size - h.count + 1
        let fft = FFT(size: size)
        var hr = [Float](repeating: 0, count: size), hi = [Float](repeating: 0, count: size)
        for i in 0..<h.count { hr[i] = h[i] }
        fft.forward(real: &hr, imag: &hi)
        var out = [Float](repeating: 0, count: x.count + size)
        var re = [Float](repeating: 0, count: size), im = [Float](repeating: 0, count: size)
        var start = 0
        while start < x.count {
            for i in 0..<size { re[i] = start + i < x.count && i < block ? x[start + i] : 0; im[i] = 0 }
            fft.forward(real: &re, imag: &im)
            for k in 0..<size {
                let a = re[k], b = im[k]
                re[k] = a * hr[k] - b * hi[k]
                im[k] = a * hi[k] + b * hr[k]
            }
            fft.inverse(real: &re, imag: &im)
            for i in 0..<size { out[start + i] += re[i] }
            start += block
        }
        return Array(out[0..<x.count])
    }

    /// `x` delayed by `d` frames (zeros first), same length.
    static func delayed(_ x: [Float], by d: Int) -> [Float] {
        [Float](repeating: 0, count: min(d, x.count)) + x.prefix(max(0, x.count - d))
    }

    static func rms(_ x: [Float]) -> Float {
        Float((x.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot())
    }

    static func noise(count: Int, rms: Float, seed: UInt64) -> [Float] {
        var random = Random(seed)
        return (0..<count).map { _ in Float(random.gaussian()) * rms }
    }

    /// The echo of `far` through `room`, `delay` frames late, at half amplitude.
    static func echo(_ far: [Float], delay: Int, room: [Float]) -> [Float] {
        delayed(convolve(far, room), by: delay).map { $0 * 0.5 }
    }

    /// `signal` plus white noise 30 dB below `reference`'s RMS.
    static func withNoise(_ signal: [Float], below reference: [Float], seed: UInt64) -> [Float] {
        let n = noise(count: signal.count, rms: rms(reference) * 0.0316, seed: seed)
        return zip(signal, n).map { $0 + $1 }
    }

    static func sum(_ a: [Float], _ b: [Float]) -> [Float] { zip(a, b).map { $0 + $1 } }

    /// The estimator's state after each analysis.
    struct Step { var frame: Int; var estimate: Int?; var candidate: Int?; var confidence: Double; var ratio: Double }

    /// Pushes both streams in blocks of `block` frames; the state after every analysis.
    static func run(_ estimator: DelayEstimator, mic: [Float], ref: [Float], block: Int = 160) -> [Step] {
        var steps: [Step] = []
        var made = estimator.estimatesMade
        var start = 0
        mic.withUnsafeBufferPointer { m in
            ref.withUnsafeBufferPointer { r in
                while start < mic.count {
                    let count = min(block, mic.count - start)
                    estimator.push(mic: m.baseAddress! + start, ref: r.baseAddress! + start, frames: count)
                    start += count
                    if estimator.estimatesMade != made {
                        made = estimator.estimatesMade
                        steps.append(Step(frame: estimator.framesPushed, estimate: estimator.estimate, candidate: estimator.candidate,
                                          confidence: estimator.confidence, ratio: estimator.peakToFloor))
                    }
                }
            }
        }
        return steps
    }

    static func describe(_ steps: [Step], rate: Int = rate) -> String {
        steps.map { s in
            "\(s.frame * 1000 / rate)ms:\(s.estimate.map { "\($0)" } ?? "-")/\(s.candidate.map { "\($0)" } ?? "-") r=\(Int(s.ratio)) c=\(Int(s.confidence))"
        }.joined(separator: " ")
    }
}

@Suite struct FFTTests {
    /// The DFT by its definition, in Double.
    static func naive(_ re: [Float], _ im: [Float], inverse: Bool) -> (re: [Double], im: [Double]) {
        let n = re.count
        let cosines = (0..<n).map { cos(2 * Double.pi * Double($0) / Double(n)) }
        let sines = (0..<n).map { (inverse ? 1 : -1) * sin(2 * Double.pi * Double($0) / Double(n)) }
        var outRe = [Double](repeating: 0, count: n), outIm = [Double](repeating: 0, count: n)
        cosines.withUnsafeBufferPointer { c in
            sines.withUnsafeBufferPointer { s in
                re.withUnsafeBufferPointer { xr in
                    im.withUnsafeBufferPointer { xi in
                        for k in 0..<n {
                            var sr = 0.0, si = 0.0, index = 0
                            for j in 0..<n {
                                let a = Double(xr[j]), b = Double(xi[j])
                                sr += a * c[index] - b * s[index]
                                si += a * s[index] + b * c[index]
                                index += k
                                if index >= n { index -= n }
                            }
                            outRe[k] = inverse ? sr / Double(n) : sr
                            outIm[k] = inverse ? si / Double(n) : si
                        }
                    }
                }
            }
        }
        return (outRe, outIm)
    }

    /// Largest difference over the RMS magnitude of the exact result.
    static func relativeError(_ re: [Float], _ im: [Float], _ exact: (re: [Double], im: [Double])) -> Double {
        var worst = 0.0, power = 0.0
        for k in 0..<re.count {
            let dr = Double(re[k]) - exact.re[k], di = Double(im[k]) - exact.im[k]
            worst = max(worst, (dr * dr + di * di).squareRoot())
            power += exact.re[k] * exact.re[k] + exact.im[k] * exact.im[k]
        }
        return worst / (power / Double(re.count)).squareRoot()
    }

    @Test(arguments: [8, 16, 64, 256, 1024, 4096])
    func matchesANaiveDFT(size: Int) {
        var random = EchoScene.Random(UInt64(size))
        let xr = (0..<size).map { _ in Float(random.uniform(-1...1)) }
        let xi = (0..<size).map { _ in Float(random.uniform(-1...1)) }
        let fft = FFT(size: size)
        var re = xr, im = xi
        fft.forward(real: &re, imag: &im)
        let forwardError = Self.relativeError(re, im, Self.naive(xr, xi, inverse: false))
        #expect(forwardError < 1e-3, "forward, size \(size): \(forwardError)")
        re = xr; im = xi
        fft.inverse(real: &re, imag: &im)
        let inverseError = Self.relativeError(re, im, Self.naive(xr, xi, inverse: true))
        #expect(inverseError < 1e-3, "inverse, size \(size): \(inverseError)")
    }

    @Test(arguments: [1, 2, 4, 512, 16384, 65536])
    func roundTrip(size: Int) {
        var random = EchoScene.Random(7)
        let xr = (0..<size).map { _ in Float(random.uniform(-1...1)) }
        let xi = (0..<size).map { _ in Float(random.uniform(-1...1)) }
        let fft = FFT(size: size)
        var re = xr, im = xi
        fft.forward(real: &re, imag: &im)
        fft.inverse(real: &re, imag: &im)
        let worst = zip(re + im, xr + xi).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5, "size \(size): \(worst)")
    }

    /// The sign convention: a tone at +3 cycles lands in bin 3 with height N (forward unscaled).
    @Test func toneLandsInItsBin() {
        let n = 32
        var re = (0..<n).map { Float(cos(2 * Double.pi * 3 * Double($0) / Double(n))) }
        var im = (0..<n).map { Float(sin(2 * Double.pi * 3 * Double($0) / Double(n))) }
        FFT(size: n).forward(real: &re, imag: &im)
        #expect(abs(re[3] - Float(n)) < 1e-4)
        let others = (0..<n).filter { $0 != 3 }.map { abs(re[$0]) + abs(im[$0]) }.max()!
        #expect(others < 1e-4)
    }
}

@Suite struct DelayEstimatorTests {
    static let rate = EchoScene.rate
    static let maxDelay = EchoScene.frames(500)
    /// ±2 ms.
    static let tolerance = EchoScene.frames(2)

    static func near(_ value: Int?, _ target: Int) -> Bool {
        guard let value else { return false }
        return abs(value - target) <= tolerance
    }

    @Test(arguments: [0.0, 40, 120, 300, 450])
    func findsTheDelayWithin3Seconds(ms: Double) {
        let delay = EchoScene.frames(ms)
        let far = EchoScene.speech(seconds: 3, seed: 11)
        let echo = EchoScene.echo(far, delay: delay, room: EchoScene.room(seed: 5))
        let mic = EchoScene.withNoise(echo, below: echo, seed: 99)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        #expect(Self.near(estimator.estimate, delay), "D = \(ms) ms (\(delay) frames): \(trace)")
        // Never a wrong value on the way.
        #expect(steps.allSatisfy { $0.estimate == nil || Self.near($0.estimate, delay) }, "\(trace)")
        #expect(estimator.confidence >= estimator.threshold, "\(trace)")
        // The documented latency: the first analysis, then requiredWins − 1 hops.
        let first = steps.first { $0.estimate != nil }?.frame ?? .max
        #expect(first <= estimator.firstAnalysisFrames + 2 * estimator.hopFrames + 160, "\(trace)")
    }

    /// Far end only for 2.5 s, then 1 s of near-end speech at the echo's level, then far end only.
    @Test func doubleTalkDoesNotMoveTheEstimate() {
        let delay = EchoScene.frames(120)
        let far = EchoScene.speech(seconds: 6, seed: 21)
        let echo = EchoScene.echo(far, delay: delay, room: EchoScene.room(seed: 6))
        let talk = EchoScene.frames(2500)..<EchoScene.frames(3500)
        var near = [Float](repeating: 0, count: far.count)
        let speech = EchoScene.speech(seconds: 1, seed: 77)
        let scale = EchoScene.rms(Array(echo[talk])) / EchoScene.rms(speech)
        for (i, v) in speech.enumerated() { near[talk.lowerBound + i] = v * scale }
        let mic = EchoScene.withNoise(EchoScene.sum(echo, near), below: echo, seed: 98)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        let before = steps.last { $0.frame <= talk.lowerBound }?.estimate
        #expect(Self.near(before, delay), "\(trace)")
        #expect(steps.filter { $0.frame > talk.lowerBound }.allSatisfy { $0.estimate == before }, "\(trace)")
        // The double talk does weaken the windows it falls in (the scene tests something).
        let alone = steps.filter { $0.frame <= talk.lowerBound }.map(\.ratio).sorted()
        let during = steps.filter { $0.frame > talk.lowerBound + EchoScene.frames(500) && $0.frame <= talk.upperBound + EchoScene.frames(500) }
        #expect(!during.isEmpty && during.map(\.ratio).min()! < 0.75 * alone[alone.count / 2], "\(trace)")
    }

    /// The delay jumps from 120 to 300 ms at 4 s (another room too): followed within 3 s, and no
    /// other value is ever reported.
    @Test func followsAnEchoPathChange() {
        let first = EchoScene.frames(120), second = EchoScene.frames(300), change = EchoScene.frames(4000)
        let far = EchoScene.speech(seconds: 8, seed: 31)
        let echo1 = EchoScene.echo(far, delay: first, room: EchoScene.room(seed: 7))
        let echo2 = EchoScene.echo(far, delay: second, room: EchoScene.room(seed: 8))
        let echo = Array(echo1[..<change] + echo2[change...])
        let mic = EchoScene.withNoise(echo, below: echo, seed: 97)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        #expect(Self.near(steps.last { $0.frame <= change }?.estimate, first), "\(trace)")
        let switched = steps.first { $0.frame > change && Self.near($0.estimate, second) }?.frame
        #expect(switched != nil && switched! - change <= EchoScene.frames(3000), "\(trace)")
        #expect(Self.near(estimator.estimate, second), "\(trace)")
        #expect(steps.allSatisfy { $0.estimate == nil || Self.near($0.estimate, first) || Self.near($0.estimate, second) }, "\(trace)")
    }

    /// 300 ms of echo at another delay in a 120 ms scene: with hysteresis the estimate stays;
    /// reporting every window's winner (requiredWins 1) would have jumped.
    @Test func anOutlierDoesNotMoveTheEstimate() {
        let delay = EchoScene.frames(120), other = EchoScene.frames(300)
        let burst = EchoScene.frames(3000)..<EchoScene.frames(3300)
        let far = EchoScene.speech(seconds: 6, seed: 41)
        let room = EchoScene.room(seed: 9)
        var echo = EchoScene.echo(far, delay: delay, room: room)
        let outlier = EchoScene.echo(far, delay: other, room: room)
        for i in burst { echo[i] = outlier[i] }
        let mic = EchoScene.withNoise(echo, below: echo, seed: 96)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        #expect(Self.near(estimator.estimate, delay), "\(trace)")
        #expect(steps.allSatisfy { $0.estimate == nil || Self.near($0.estimate, delay) }, "\(trace)")
        #expect(steps.contains { Self.near($0.candidate, other) }, "the outlier never won a window: \(trace)")
        let eager = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        eager.requiredWins = 1
        let eagerSteps = EchoScene.run(eager, mic: mic, ref: far)
        #expect(eagerSteps.contains { Self.near($0.estimate, other) }, "\(EchoScene.describe(eagerSteps))")
    }

    /// A silent reference: nothing to estimate from, so no estimate (and no window counted).
    @Test func silentReferenceGivesNoEstimate() {
        let near = EchoScene.speech(seconds: 3, seed: 51)
        let mic = EchoScene.withNoise(near, below: near, seed: 95)
        let ref = [Float](repeating: 0, count: mic.count)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: ref)
        #expect(estimator.estimate == nil)
        #expect(estimator.estimatesMade == 0 && estimator.windowsSkipped == steps.count + estimator.windowsSkipped && estimator.windowsSkipped > 0)
        #expect(estimator.confidence == 0)
    }

    /// A reference that is not in the microphone at all: windows are analysed but none wins.
    @Test func unrelatedReferenceGivesNoEstimate() {
        let far = EchoScene.speech(seconds: 10, seed: 61)
        let near = EchoScene.speech(seconds: 10, seed: 62)
        let mic = EchoScene.withNoise(EchoScene.convolve(near, EchoScene.room(seed: 10)), below: near, seed: 94)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay)
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        #expect(estimator.estimatesMade > 30)
        #expect(steps.allSatisfy { $0.estimate == nil }, "\(trace)")
        #expect(steps.allSatisfy { $0.ratio < estimator.threshold }, "\(trace)")
    }

    /// Analyses fall at fixed frame counts: the block size changes nothing.
    @Test func blockSizeDoesNotMatter() {
        let far = EchoScene.speech(seconds: 2.5, seed: 71)
        let echo = EchoScene.echo(far, delay: EchoScene.frames(300), room: EchoScene.room(seed: 11))
        let mic = EchoScene.withNoise(echo, below: echo, seed: 93)
        func trace(_ block: Int) -> [String] {
            EchoScene.run(DelayEstimator(sampleRate: Self.rate, maxDelay: Self.maxDelay), mic: mic, ref: far, block: block)
                .map { "\($0.estimate ?? -1) \($0.candidate ?? -1) \($0.ratio) \($0.confidence)" }
        }
        let reference = trace(160)
        #expect(reference.count >= 5)
        #expect(trace(1) == reference)
        #expect(trace(4099) == reference)
    }

    /// Above 16 kHz the analysis runs decimated (by 3 here): still within a frame or two.
    @Test(arguments: [(48000, 300.0), (44100, 123.4)])
    func findsTheDelayAtOtherRates(rate: Int, ms: Double) {
        let delay = EchoScene.frames(ms, rate: rate)
        let far = EchoScene.speech(seconds: 2.5, seed: 12, rate: rate)
        let echo = EchoScene.echo(far, delay: delay, room: EchoScene.room(seed: 13, rate: rate))
        let mic = EchoScene.withNoise(echo, below: echo, seed: 92)
        let estimator = DelayEstimator(sampleRate: rate, maxDelay: EchoScene.frames(500, rate: rate))
        #expect(estimator.decimation == 3)
        let steps = EchoScene.run(estimator, mic: mic, ref: far, block: rate / 100)
        let trace = EchoScene.describe(steps, rate: rate)
        #expect(estimator.estimate.map { abs($0 - delay) <= 3 } == true, "want \(delay): \(trace)")
        #expect(steps.allSatisfy { $0.estimate.map { abs($0 - delay) <= rate / 500 } ?? true }, "\(trace)")
    }

    /// max-delay 2 s (the echo canceller's largest) and a 1.8 s echo: found 3 s in.
    @Test func longMaximumDelay() {
        let delay = EchoScene.frames(1800)
        let far = EchoScene.speech(seconds: 3.3, seed: 14)
        let echo = EchoScene.echo(far, delay: delay, room: EchoScene.room(seed: 15))
        let mic = EchoScene.withNoise(echo, below: echo, seed: 91)
        let estimator = DelayEstimator(sampleRate: Self.rate, maxDelay: EchoScene.frames(2000))
        let steps = EchoScene.run(estimator, mic: mic, ref: far)
        let trace = EchoScene.describe(steps)
        #expect(estimator.firstAnalysisFrames == EchoScene.frames(2500))
        #expect(Self.near(estimator.estimate, delay), "\(trace)")
        #expect(steps.allSatisfy { $0.estimate == nil || Self.near($0.estimate, delay) }, "\(trace)")
    }

    @Test func hysteresisNeedsConsecutiveWins() {
        var h = DelayHysteresis(tolerance: 16, requiredWins: 3)
        for c in [1920, nil, 1920, 1925] as [Int?] { h.update(candidate: c) }
        #expect(h.estimate == nil)                       // a nil broke the first run
        h.update(candidate: 1918)
        #expect(h.estimate == 1918)                      // three in a row within ±16
        for c in [4800, 4800, 1920, 4800, 4800, nil, 4800] as [Int?] { h.update(candidate: c) }
        #expect(h.estimate == 1918)                      // never three in a row
        h.update(candidate: 1930)                        // within tolerance: confirms, no jitter
        #expect(h.estimate == 1918)
        for _ in 0..<3 { h.update(candidate: 4800) }
        #expect(h.estimate == 4800 && h.changes == 2)
    }

    /// `firstTolerance` widens only the run that makes the first estimate: a room whose two
    /// strongest paths, 42 frames apart, take turns is found at once, and after that ±16 holds.
    @Test func firstToleranceAppliesToTheFirstEstimateOnly() {
        var strict = DelayHysteresis(tolerance: 16, requiredWins: 3)
        for c in [703, 661, 661] as [Int?] { strict.update(candidate: c) }
        #expect(strict.estimate == nil)                  // 703 → 661 broke the run
        var h = DelayHysteresis(tolerance: 16, requiredWins: 3)
        h.firstTolerance = 80
        for c in [703, 661, 661] as [Int?] { h.update(candidate: c) }
        #expect(h.estimate == 661)                       // the run's last candidate
        for c in [703, 703, 661] as [Int?] { h.update(candidate: c) }
        #expect(h.estimate == 661)                       // 661 confirmed it: the run ended
        for c in [703, 703, 701] as [Int?] { h.update(candidate: c) }
        #expect(h.estimate == 701 && h.changes == 2)     // 42 frames away: a challenger that won
    }
}
