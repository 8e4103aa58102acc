import AUPipeFormats
import AUPipeGraph

/// `aec`'s post-filter, after the linear canceller: the nonlinear canceller
/// (`NonlinearEchoCanceller`, `nonlinear=1`), speex's preprocessor (residual echo, noise, level,
/// voice activity) attached to the echo state in use, and the residual echo suppressor
/// (`ResidualEchoSuppressor`, `residual=1`), then the comfort noise (`ComfortNoise`,
/// `comfort=on`) for what they took of the background. With `preprocess=1` (the default), up to
/// 16 kHz, one microphone, `residual=1` and no `agc=`, `vad=` or `dereverb=`, speex's preprocessor does
/// not run: its residual echo and noise suppression are done in the suppressor's STFT
/// (`SuppressorPreprocess`), one frame of latency instead of two; `preprocess=speex` runs it
/// always. The residual echo suppressor, the comfort noise and the attachment to the echo state
/// need one microphone channel; several get the preprocessor alone, one per channel.
/// Everything is allocated in `init`.
package final class EchoPostFilter {
    private let preprocessors: [Preprocessor]
    package let residual: ResidualEchoSuppressor?
    package let nonlinear: NonlinearEchoCanceller?
    package let comfort: ComfortNoise?
    /// Whether the loudspeaker distorts, measured on the linear canceller's output (`DistortionSign`; with the residual echo suppressor).
    package private(set) var sign: DistortionSign?
    private let frameFrames: Int, mics: Int, speakers: Int
    /// One channel's frame, for the preprocessors of several microphones.
    private let channel16: UnsafeMutablePointer<Int16>
    /// Frames speex's VAD called voice (with `vad=1`, one microphone).
    package private(set) var voiceFrames = 0

    /// For `layout`'s stream: the preprocessor with `settings` (nil: none), attached to `echo`
    /// with one microphone; with `residual` (and one microphone) the residual echo suppressor,
    /// with `nonlinear` its nonlinear canceller; with `comfort` (and one microphone) the comfort noise.
    /// `inside`: with one microphone, the residual echo suppressor and a preprocessor that only
    /// suppresses residual echo and noise (`settings.suppressesOnly`), its work is done in the
    /// suppressor's STFT (`SuppressorPreprocess`) and speex's preprocessor does not run.
    package init(layout: EchoLayout, settings: PreprocessSettings?, residual residualOn: Bool, nonlinear nonlinearOn: Bool, comfort comfortOn: Bool = false,
                 inside insideAsked: Bool = false, echo: EchoState) throws {
        frameFrames = layout.frameFrames
        mics = layout.mics
        speakers = layout.speakers
        let rate = layout.rate, mics = layout.mics, frameFrames = layout.frameFrames
        let inside = insideAsked && residualOn && mics == 1 && (settings?.suppressesOnly ?? false)
        suppressorPreprocesses = inside
        if let settings, !inside {
            // Residual echo suppression needs the echo state, which speex attaches to a mono microphone.
            preprocessors = try (0..<mics).map { _ in
                try Preprocessor(frameFrames: frameFrames, sampleRate: rate, settings: settings, echo: mics == 1 ? echo : nil)
            }
        } else {
            preprocessors = []
        }
        if residualOn, mics == 1, let settings {
            residual = ResidualEchoSuppressor(frameFrames: frameFrames, rate: rate, suppressDB: settings.echoSuppress, activeDB: settings.echoSuppressActive,
                                              maxDelayFrames: layout.maxDelayFrames, keepsNearEnd: settings.agcLevel == nil,
                                              preprocess: inside ? settings : nil)
            nonlinear = nonlinearOn ? try NonlinearEchoCanceller(frameFrames: frameFrames, rate: rate) : nil
            sign = DistortionSign(frameSeconds: Double(frameFrames) / Double(rate))
        } else {
            residual = nil
            nonlinear = nil
        }
        if comfortOn, mics == 1, let settings {
            // The far end's silence before the output is background again: the echo's tail, and
            // the frames the output comes late (the suppressor's low-delay windows: none, to the nearest frame).
            let late = (preprocessors.isEmpty ? 0 : 1) + ((residual?.latencySamples ?? 0) * 2 >= frameFrames ? 1 : 0)
            comfort = ComfortNoise(frameFrames: frameFrames, rate: rate, hangoverFrames: (layout.tailFrames + frameFrames - 1) / frameFrames + late,
                                   denoiseDB: settings.denoise ?? 0, lateFrames: late)
        } else {
            comfort = nil
        }
        channel16 = .allocate(capacity: frameFrames)
    }

    deinit { channel16.deallocate() }

    /// Whether the post-filter follows the echo state through a take-over (one microphone,
    /// `preprocess=1`): speex's preprocessor reads it, and the residual echo suppressor's
    /// path-change handling needs the replaced state to run on beside the new one either way.
    package var readsEcho: Bool { mics == 1 && (!preprocessors.isEmpty || suppressorPreprocesses) }
    /// Whether speex's preprocessor's residual echo and noise suppression run inside the residual
    /// echo suppressor (`SuppressorPreprocess`) instead of speex's preprocessor.
    package let suppressorPreprocesses: Bool

    /// The frames the output comes late, for the frame blocker to remove: speex's preprocessor
    /// gives each frame out one frame later, the residual echo suppressor one more (one in all
    /// when the suppressor does the preprocessor's work; with its low-delay windows, for frames
    /// under 20 ms, only their overlap: `ResidualEchoSuppressor.latencySamples`).
    package var latencyFrames: Int { (preprocessors.isEmpty ? 0 : frameFrames) + (residual?.latencySamples ?? 0) }

    /// One frame in place: `out`, the linear canceller's output (`frameFrames × mics`); `frame`,
    /// what else the post-filter reads of it (`EchoFrameContext`).
    package func run(_ out: UnsafeMutablePointer<Int16>, frame: EchoFrameContext) {
        guard !preprocessors.isEmpty || suppressorPreprocesses else { return }
        if mics == 1 {
            // The nonlinear canceller's output comes after the linear filter's, and the
            // preprocessor gets that.
            let doubleTalk = frame.doubleTalk, pathChanged = frame.pathChanged
            if !preprocessors.isEmpty, let attached = preprocessors[0].echo, attached !== frame.echo { preprocessors[0].attach(echo: frame.echo) }
            if pathChanged { sign?.restart() }
            sign?.update(mic: frame.rec, cancelled: out, count: frameFrames, alone: !doubleTalk && !(residual?.nearHeardRecently ?? true))
            nonlinear?.run(cancelled: out, reference: frame.play, speakers: speakers, doubleTalk: doubleTalk, nearHeard: residual?.nearHeardRecently ?? false)
            residual?.distorted.modelled = nonlinear?.modelling ?? false
            residual?.distorted.distorts = sign?.on ?? false
            residual?.capture(mic: frame.rec, cancelled: out, shadow: frame.shadowOutput)
            comfort?.capture(cancelled: out)
            if !preprocessors.isEmpty, preprocessors[0].run(out) { voiceFrames += 1 }
            residual?.run(out, doubleTalk: doubleTalk, pathChanged: pathChanged, reference: frame.reference, speakers: speakers, delay: frame.delay,
                          echoOutput: frame.echoOutput)
            comfort?.run(out, farEnd: frame.farEnd)
        } else {
            for c in 0..<mics {
                for f in 0..<frameFrames { channel16[f] = out[f * mics + c] }
                preprocessors[c].run(channel16)
                for f in 0..<frameFrames { out[f * mics + c] = channel16[f] }
            }
        }
    }
}
