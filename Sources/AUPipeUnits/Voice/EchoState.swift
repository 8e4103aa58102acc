import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// One speexdsp echo canceller state (MDF): an adaptive filter of `tailFrames` taps from each
/// loudspeaker to each microphone, run on frames of `frameFrames` 16-bit samples per channel.
///
/// The object owns its speex state: it is created in `init` and destroyed in `deinit`, never
/// elsewhere. Whoever uses a state holds the object (the canceller in use, a shadow and its
/// learner, speex's preprocessor reading its residual echo), so a state replaced while running
/// lives until its last holder lets it go; nobody keeps or frees a raw pointer to it.
package final class EchoState {
    /// speex's state, for the calls that take it as an argument (the preprocessor's
    /// `SPEEX_PREPROCESS_SET_ECHO_STATE`); alive as long as this object.
    package let pointer: OpaquePointer
    /// The frame (samples per channel) and the filter's length, in frames at the stream's rate.
    package let frameFrames: Int, tailFrames: Int
    /// From 24 kHz on, the microphone's correction for speex's DC notch (`DCNotchCorrection`)
    /// and its frame; nil below, where the samples go to speex as they are.
    private var notchCorrection: DCNotchCorrection?
    private let corrected: UnsafeMutablePointer<Int16>?

    /// A state for `mics` microphones and `speakers` loudspeakers (1...8 each) at `rate` Hz;
    /// throws (70) when speexdsp cannot set one up.
    package init(frameFrames: Int, tailFrames: Int, mics: Int = 1, speakers: Int = 1, rate: Int) throws {
        guard let st = speex_echo_state_init_mc(Int32(frameFrames), Int32(tailFrames), Int32(mics), Int32(speakers)) else {
            throw AUPipeError(.software, "aec: speexdsp could not set up its echo canceller (\(frameFrames)-frame frames, \(tailFrames)-frame tail)")
        }
        pointer = st
        self.frameFrames = frameFrames
        self.tailFrames = tailFrames
        var r = Int32(rate)
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        notchCorrection = DCNotchCorrection(rate: rate, channels: mics)
        if notchCorrection != nil {
            corrected = .allocate(capacity: frameFrames * mics)
            corrected?.initialize(repeating: 0, count: frameFrames * mics)
        } else {
            corrected = nil
        }
    }

    deinit {
        speex_echo_state_destroy(pointer)
        corrected?.deallocate()
    }

    /// speex's reset: the filter starts afresh (its per-block step sizes and the echo estimate a
    /// preprocessor reads stay as they were until the filter counts as adapted again).
    package func reset() { speex_echo_state_reset(pointer) }

    /// Cancels one frame: `rec` (microphones, interleaved) less the echo of `play`
    /// (loudspeakers, interleaved) into `out`; the filter adapts on the way.
    /// From 24 kHz on, `rec` goes through `DCNotchCorrection` first.
    package func cancel(_ rec: UnsafePointer<Int16>, _ play: UnsafePointer<Int16>, into out: UnsafeMutablePointer<Int16>) {
        if let corrected, notchCorrection != nil {
            notchCorrection!.apply(rec, into: corrected, frames: frameFrames)
            speex_echo_cancellation(pointer, corrected, play, out)
        } else {
            speex_echo_cancellation(pointer, rec, play, out)
        }
    }
}
