import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `reverb`'s parameters (sox's, in its order) and the figures that follow from them.
extension ReverbUnit {
    public enum Keys {
        public static let reverberance = Parameter("reverberance", .number(0...100, unit: "%"), default: 50, help: "decay: 0 % short, 100 % long (RT60 in help)")
        public static let hfDamping = Parameter("hf-damping", .number(0...100, unit: "%"), default: 50, help: "how much faster high frequencies die away")
        public static let roomScale = Parameter("room-scale", .number(0...100, unit: "%"), default: 100, help: "size of the room: scales the comb delays")
        public static let stereoDepth = Parameter("stereo-depth", .number(0...100, unit: "%"), default: 100, help: "decorrelation of left and right wet channels")
        public static let preDelay = Parameter("pre-delay", .duration(0...0.5, bareUnit: .milliseconds), default: .milliseconds(0), help: "delay before the reverberation starts")
        public static let wetGain = Parameter("wet-gain", .number(-10...10, unit: "dB"), default: 0, help: "gain of the reverberation", live: true)
        public static let wetOnly = Parameter("wet-only", .boolean, default: false, help: "output the reverberation without the dry signal")
        public static let stereo = Parameter("stereo", .boolean, default: false, help: "mono in gives stereo out")
        public static let extend = Parameter("extend", .boolean, default: false, help: "keep the tail, until -120 dB (at most 60 s)")
    }

    /// sox's mapping of reverberance to the combs' feedback: 0 % gives 0.3, 100 % gives 0.98,
    /// exponentially in between (`feedback = 1 − exp((R − b) / (a·b))`).
    package static func feedback(reverberance: Double) -> Double {
        let minimum = 0.3, maximum = 0.98
        let a = -1 / log(1 - minimum)
        let b = 100 / (log(1 - maximum) * a + 1)
        return 1 - exp((reverberance - b) / (a * b))
    }

    /// sox's mapping of room scale to the combs' delay factor: 0 % gives 0.1, 100 % gives 1.
    package static func combScale(roomScale: Double) -> Double { roomScale / 100 * 0.9 + 0.1 }

    /// sox's mapping of HF damping to the pole of the combs' loop low-pass: 0 % gives 0.2, 100 % 0.5.
    package static func damping(hfDamping: Double) -> Double { hfDamping / 100 * 0.3 + 0.2 }

    /// Freeverb's fixed gain on the sum of its eight combs (sox's 0.015), applied with wet-gain.
    package static let wetScale = 0.015

    /// The reverberation time at low frequencies, in seconds, of the combs followed by the
    /// allpasses. A comb of M frames with loop gain g loses 60 dB in 3·M / (rate·log10(1/g)):
    /// with the mean comb length M̄ (1378 frames at 44.1 kHz × `combScale`), the bank's decay.
    /// The allpasses after it ring with loop gain 0.5 every A frames, the longest A being 556
    /// at 44.1 kHz (0.126 s for 60 dB); decay times of filters in series add, and the longest
    /// allpass is the one that counts (the Schroeder decays measured in ReverbUnitTests lie
    /// within 15 % of the sum, where the combs alone miss short settings by up to 50 %):
    /// RT60 = 3·M̄ / (44100·log10(1/g)) + 3·556 / (44100·log10 2). Neither term depends on the
    /// rate (the delays scale with it). High frequencies decay faster (hf-damping).
    public static func rt60(reverberance: Double, roomScale: Double) -> Double {
        let lengths = FreeverbBank.combLengths.map(Double.init)
        let mean = lengths.reduce(0, +) / Double(lengths.count) * combScale(roomScale: roomScale)
        let combs = 3 * mean / (FreeverbBank.referenceRate * log10(1 / feedback(reverberance: reverberance)))
        let allpass = 3 * Double(FreeverbBank.allpassLengths.max()!) / (FreeverbBank.referenceRate * log10(1 / Double(FreeverbBank.allpassGain)))
        return combs + allpass
    }
}
