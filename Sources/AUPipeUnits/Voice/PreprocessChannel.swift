import AUPipeFormats
import AUPipeGraph

/// One channel of `denoise` or `agc`: speexdsp's preprocessor on frames of 16-bit samples,
/// for `PerChannel`.
///
/// Each frame is rounded to 16 bits on the way in (nearest, ties to even; samples beyond full
/// scale are clipped and counted) and scaled back by 1/32768 on the way out.
package final class PreprocessChannel: ChannelProcessor {
    private let preprocessor: Preprocessor
    /// Frames per speex frame (16 or more).
    package let frameFrames: Int
    private let frame16: UnsafeMutablePointer<Int16>
    /// Samples clipped on the way into 16 bits so far.
    package private(set) var clipped = 0

    package init(frameFrames: Int, sampleRate: Int, settings: PreprocessSettings) throws {
        preprocessor = try Preprocessor(frameFrames: frameFrames, sampleRate: sampleRate, settings: settings, echo: nil)
        self.frameFrames = frameFrames
        frame16 = .allocate(capacity: frameFrames)
    }

    deinit { frame16.deallocate() }

    /// Processes one frame (`frames` is `frameFrames`) in place.
    package func process(_ samples: UnsafeMutablePointer<Float>, frames: Int) {
        clipped += Speex16.fromFloat(samples, into: frame16, count: frames)
        preprocessor.run(frame16)
        Speex16.toFloat(frame16, into: samples, count: frames)
    }
}
