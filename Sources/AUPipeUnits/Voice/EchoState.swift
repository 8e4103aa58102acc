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
    /// Loudspeakers (interleaved reference channels).
    package let speakers: Int
    /// From 24 kHz on, the microphone's correction for speex's DC notch (`DCNotchCorrection`)
    /// and its frame; nil below, where the samples go to speex as they are.
    private var notchCorrection: DCNotchCorrection?
    private let corrected: UnsafeMutablePointer<Int16>?
    /// A warm start whose replay is left to the frames that follow (`deferReplay`), nil when
    /// the state is current.
    package private(set) var backlog: EchoBacklog?
    /// The backlog's reference and output, one frame each.
    private let backlogPlay, backlogOut: UnsafeMutablePointer<Int16>

    /// A state for `mics` microphones and `speakers` loudspeakers (1...8 each) at `rate` Hz;
    /// throws (70) when speexdsp cannot set one up.
    package init(frameFrames: Int, tailFrames: Int, mics: Int = 1, speakers: Int = 1, rate: Int) throws {
        guard let st = speex_echo_state_init_mc(Int32(frameFrames), Int32(tailFrames), Int32(mics), Int32(speakers)) else {
            throw AUPipeError(.software, "aec: speexdsp could not set up its echo canceller (\(frameFrames)-frame frames, \(tailFrames)-frame tail)")
        }
        pointer = st
        self.frameFrames = frameFrames
        self.tailFrames = tailFrames
        self.speakers = speakers
        var r = Int32(rate)
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        backlogPlay = .allocate(capacity: frameFrames * speakers)
        backlogOut = .allocate(capacity: frameFrames * mics)
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
        backlogPlay.deallocate()
        backlogOut.deallocate()
    }

    /// The state is to be run over the `frames` frames of `history` before the current one
    /// (`frames` ≤ its `framesHeld`), the reference at `delay`, and then over the frames that
    /// come, before it is current again: a warm start's replay (`LinearEchoCanceller`) that
    /// nobody reads yet, done a few frames at a time (`catchUp`) instead of all at once. The
    /// caller runs no frame on it (`cancel`) until `catchUp` says it is current.
    package func deferReplay(_ frames: Int, history: EchoHistory, delay: Int) {
        let now = history.currentFrame
        backlog = EchoBacklog(history: history, delay: delay, next: now - frames, liveFrom: now)
    }

    /// Runs the backlog's next frames, oldest first, at most `most` of them (the history's
    /// microphone and reference, at the backlog's delay; the output is discarded), and calls
    /// `live` with the output and the reference of each that the stream had when it came
    /// (from the deferral's frame on), so the caller can take them in order, late. Returns true
    /// when the state is current (no backlog, or none left before the current frame, which the
    /// caller then runs as usual); at least one frame is run per call, so that none falls out
    /// of the history.
    package func catchUp(most: Int, live: (UnsafePointer<Int16>, UnsafePointer<Int16>) -> Void = { _, _ in }) -> Bool {
        guard var b = backlog else { return true }
        let now = b.history.currentFrame
        var run = 0
        while b.next < now, run < max(1, most) {
            let back = now - b.next
            b.history.reference(back: back, delay: b.delay, into: backlogPlay)
            cancel(b.history.mic(back: back), backlogPlay, into: backlogOut)
            if b.next >= b.liveFrom { live(backlogOut, backlogPlay) }
            b.next += 1
            run += 1
        }
        backlog = b.next < now ? b : nil
        return backlog == nil
    }

    /// speex's reset: the filter starts afresh (its per-block step sizes and the echo estimate a
    /// preprocessor reads stay as they were until the filter counts as adapted again); a replay
    /// still owed (`deferReplay`) is dropped.
    package func reset() {
        speex_echo_state_reset(pointer)
        backlog = nil
    }

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

/// What an `EchoState` still has to be run over (`EchoState.deferReplay`): the history's frames
/// from `next` (a DSP frame number, `EchoHistory.currentFrame`'s count) up to the current one,
/// the reference at `delay`; those from `liveFrom` on are frames the stream had while it waited.
package struct EchoBacklog {
    package let history: EchoHistory
    package let delay: Int
    package var next: Int
    package let liveFrom: Int
}

