import AUPipeFormats
import AUPipeGraph

/// Parameters the speexdsp units (`aec`, `denoise`, `agc`) share, declared and checked once.
public enum VoiceParameters {
    /// The frame speexdsp works on: 2.5...100 ms (a bare number in ms), and at least
    /// `minimumFrames` frames; default 10 ms.
    public static let frame = Parameter("frame", .duration(frameRange, bareUnit: .milliseconds), default: .milliseconds(10),
                                        help: "speexdsp frame length")

    /// An attenuation in dB, −100...0: speex's noise and residual echo suppression.
    public static var suppressionDB: ParameterType<Double> { .number(-100...0, unit: "dB") }

    /// An AGC target level in speex's 16-bit sample units, 1...32768 (8000 is about −12 dBFS).
    public static var agcLevel: ParameterType<Double> { .number(1...32768, unit: "") }

    /// What speexdsp's preprocessor needs of the chain (`denoise`, `agc`): fixed frames of
    /// `frame=` (`minimumFrames` up to 100 ms at 768 kHz), one state per channel, and its one
    /// frame of delay trimmed.
    package static let preprocessorFrameNeeds = FrameNeeds(frames: .fixed(minimumFrames...Int(frameRange.upperBound * 768_000)),
                                                   perChannel: true, latency: true)

    /// `frame=`'s range in seconds.
    package static let frameRange: ClosedRange<Double> = 0.0025...0.1
    /// The fewest frames (samples per channel) a speexdsp frame may have, at any rate.
    package static let minimumFrames = 16

    /// `frame` in frames at `rate` Hz; a usage error (`unit` starts it) when that is outside
    /// 2.5...100 ms at that rate, or below `minimumFrames`.
    package static func frameFrames(_ frame: StreamDuration, rate: Int, unit: String) throws -> Int {
        let n = frame.frames(atRate: rate)
        // The range's ends in whole frames, rounded down as integer division would (2.5 ms at
        // 44100 Hz is 110 frames); the epsilon keeps 0.1 × 16000 from landing just below 1600.
        let low = max(minimumFrames, Int((frameRange.lowerBound * Double(rate) + 1e-9).rounded(.down)))
        let high = Int((frameRange.upperBound * Double(rate) + 1e-9).rounded(.down))
        guard (low...max(low, high)).contains(n), low <= high else {
            throw AUPipeError.usage("\(unit): frame=\(frame) is \(counted(n, "frame")); \(formatNumber(frameRange.lowerBound * 1000))...\(formatNumber(frameRange.upperBound * 1000)) ms (\(low)...\(high) frames at \(rate) Hz) allowed")
        }
        return n
    }
}
