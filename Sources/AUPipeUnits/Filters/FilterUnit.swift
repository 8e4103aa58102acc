import AUPipeFormats
import AUPipeGraph


/// The filter units (`highpass`, `lowpass`, `bandpass`, `notch`, `allpass`, `equalizer`,
/// `lowshelf`, `highshelf`, `biquad`) and `eq`: bands of second-order sections in series,
/// run by a `BiquadCascade` in double precision on every channel, or on those of `channels=`.
///
/// Frequencies, gains and Q are live: a change glides over 20 ms (`FilterGlide`), the
/// coefficients designed again every 32 frames, the state kept. Exact length, zero latency.
public final class FilterUnit: AudioUnit, LiveControllable {
    /// The unit's name, for messages and for the live parameter names (`eq`'s are `bandN.freq`).
    package let name: String
    /// The bands as given (an `eq` file's first, then the command line's), each designed at prepare.
    package var bands: [FilterBand]
    /// Whether live parameters are named per band (`eq`) or plainly (`freq`, a filter unit).
    package let perBand: Bool
    /// Gain before the first section, dB (`eq`'s `preamp=`, plus its file's `Preamp:`).
    package private(set) var preampDB: Double
    /// `eq`'s `file=`: read at prepare.
    package let file: String?
    /// Channels filtered (`channels=`), all when nil.
    package let only: [Int]?
    /// Bands at or above `dropRatio` × the rate are dropped (`eq`), refused (a filter unit).
    package static let dropRatio = 0.45

    package var glides: [FilterGlide] = []
    /// Each band's first section in the cascade; nil for a band dropped at prepare.
    package var firstSection: [Int?] = []
    package var cascade: BiquadCascade?
    package var rate = 48000.0
    private var channels = 1
    package var glideFrames = 1
    package var gliding = 0
    /// Frames left until the next step of the glides is designed.
    package var stepLeft = 0
    /// The filter units after this one in the chain that it runs (`FusingUnit`), and their
    /// cascades, run after its own.
    package var takenIn: [FilterUnit] = []
    package var followers: [BiquadCascade] = []

    package init(name: String, bands: [FilterBand], perBand: Bool = false, preamp: Double = 0, file: String? = nil, only: [Int]? = nil) {
        self.name = name
        self.bands = bands
        self.perBand = perBand
        preampDB = preamp
        self.file = file
        self.only = only
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        rate = Double(context.input.sampleRate)
        if let only, let bad = only.first(where: { $0 >= channels }) {
            throw AUPipeError.usage("\(name): channels= names channel \(bad), but the stream has \(channels) (0...\(channels - 1)); list channels from 0")
        }
        if let file {
            let parsed = try EqualizerAPOFile.read(path: file, unit: name)
            bands = parsed.bands + bands
            preampDB += parsed.preamp
        }
        if bands.isEmpty { throw AUPipeError.usage("\(name): no band to apply; give bands (eq peak,1k,gain=-3) or file=PATH") }
        try placeBands()
        glides = bands.map(FilterGlide.init)
        glideFrames = max(1, Int((FilterGlide.seconds * rate).rounded()))
        let total = firstSection.enumerated().reduce(0) { $0 + ($1.element == nil ? 0 : bands[$1.offset].sectionCount) }
        let cascade = BiquadCascade(sections: total, channels: channels, maxFrames: context.maxFrames, only: only.map(Set.init))
        cascade.inputGain = Decibels.amplitude(preampDB)
        for (i, band) in bands.enumerated() { if let first = firstSection[i] { band.design(into: cascade, from: first, rate: rate) } }
        self.cascade = cascade
        takenIn = []
        followers = []
        return context.input
    }

    /// Gives every band its place in the cascade, dropping (`eq`) or refusing (a filter unit)
    /// those too close to half the rate to be designed.
    private func placeBands() throws {
        let limit = Self.dropRatio * rate
        var next = 0
        var dropped: [Int] = []
        firstSection = []
        for (i, band) in bands.enumerated() {
            if band.kind != .biquad && band.frequency >= (perBand ? limit : rate / 2) {
                guard perBand else {
                    throw AUPipeError.usage("\(name): freq=\(formatNumber(band.frequency)) Hz is at or above half the stream's rate (\(formatNumber(rate)) Hz); give a frequency below \(formatNumber(rate / 2)) Hz")
                }
                dropped.append(i + 1)
                firstSection.append(nil)
                continue
            }
            firstSection.append(next)
            next += band.sectionCount
        }
        if !dropped.isEmpty {
            let list = dropped.map { "band\($0) (\(formatNumber(bands[$0 - 1].frequency)) Hz)" }.joined(separator: ", ")
            warn("aupipe: \(name): warning: dropped \(list): at or above \(formatNumber(Self.dropRatio)) × the rate of \(formatNumber(rate)) Hz")
        }
    }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        guard let cascade else { return 0 }
        let ch = channels
        var f = 0
        while f < frames {
            // A glide's steps are counted in stream frames, across blocks: the same designs at
            // the same frames whatever the block size, and whether or not the unit is taken in.
            // (Index loops: a loop through the generic collection protocols allocated per call
            // in a debug build, which AllocationTests runs.)
            var n = min(frames - f, nextStep())
            for i in 0..<takenIn.count { n = min(n, takenIn[i].nextStep()) }
            advanceSteps(n)
            for i in 0..<takenIn.count { takenIn[i].advanceSteps(n) }
            cascade.process(input + f * ch, into: output + f * ch, frames: n, then: followers)
            f += n
        }
        return frames
    }

    /// Designs the glides' next step when one is due; returns the frames until the step after
    /// it (`Int.max` when no glide is under way).
    package func nextStep() -> Int {
        guard gliding > 0 || stepLeft > 0, let cascade else { return .max }
        if stepLeft == 0 { stepLeft = stepGlides(cascade) }
        return stepLeft
    }

    /// Moves the glides on by `frames` (at most what `nextStep` returned).
    package func advanceSteps(_ frames: Int) {
        if stepLeft > 0 { stepLeft -= frames }
    }

    /// Designs the next step of every gliding band; returns the frames until the next step.
    private func stepGlides(_ cascade: BiquadCascade) -> Int {
        var frames = FilterGlide.stepFrames
        for i in glides.indices where glides[i].isGliding {
            let (band, n) = glides[i].next()
            if let first = firstSection[i] { band.design(into: cascade, from: first, rate: rate) }
            frames = min(frames, n)
            if !glides[i].isGliding { gliding -= 1 }
        }
        return frames
    }
}
