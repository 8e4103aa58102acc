import AUPipeFormats
import AUPipeGraph

/// `aec`'s parameters, read and checked once, when the chain is built: what the unit and its
/// parts are made from. What depends on the stream (its rate and channels) is checked in
/// `layout(for:)`, at `prepare`.
package struct EchoCancellerConfiguration {
    /// `ref=`: the far end read from a side input; nil with `ref-channel=`.
    package let reference: BusSpec?
    /// `ref-channel=`: the input channel (from 0) that carries the far end; nil with `ref=`.
    package let referenceChannel: Int?
    /// `live=`: whether a FIFO or pipe reference is read in real time (with the run's policy).
    package let live: LiveSetting
    /// Loudspeakers: channels of the far end speex models separately (1...8).
    package let speakers: Int
    /// `delay=`: a fixed delay of the reference, or auto.
    package let delay: Automatic<StreamDuration>
    /// `max-delay=`, `tail=` and `frame=`.
    package let maxDelay: StreamDuration, tail: StreamDuration, frameLength: StreamDuration
    /// speex's preprocessor (`preprocess=1`), or nil.
    package let preprocess: PreprocessSettings?
    /// `preprocess=1`: its residual echo and noise suppression in the residual echo suppressor
    /// where it can (`EchoPostFilter`'s `inside`); `speex`: speex's preprocessor.
    package let preprocessInside: Bool
    /// `residual=1` (only with the preprocessor) and `nonlinear=1`.
    package let residual: Bool, nonlinear: Bool
    /// `comfort=on` (only with the preprocessor and one microphone).
    package let comfort: Bool
    /// `drift=`.
    package let drift: ClockDriftSetting
    /// `bands=`: whether a stream from 24 kHz is split (`EchoBandSplit`).
    package let bands: EchoCancellerUnit.BandSplitting
    /// `plot=`'s file, checked.
    package let plotFile: PlotFile?

    /// The fixed delay, or nil for `delay=auto`.
    package var fixedDelay: StreamDuration? { delay.fixedValue }

    package init(_ v: ParameterValues) throws {
        reference = v[EchoCancellerUnit.Keys.ref]
        referenceChannel = v[EchoCancellerUnit.Keys.refChannel]
        live = v[EchoCancellerUnit.Keys.live]
        guard (reference == nil) != (referenceChannel == nil) else {
            throw AUPipeError.usage("aec: give the far end as ref=PATH or as ref-channel=N (one of them)")
        }
        speakers = v[EchoCancellerUnit.Keys.speakers]
        if referenceChannel != nil, speakers > 1 {
            throw AUPipeError.usage("aec: speakers=\(speakers) needs ref=PATH; ref-channel= gives one loudspeaker's channel")
        }
        delay = v[EchoCancellerUnit.Keys.delay]
        maxDelay = v[EchoCancellerUnit.Keys.maxDelay]
        tail = v[EchoCancellerUnit.Keys.tail]
        frameLength = v[EchoCancellerUnit.Keys.frame]
        let mode = v[EchoCancellerUnit.Keys.preprocess]
        if mode != .off {
            var p = PreprocessSettings()
            p.echoSuppress = v[EchoCancellerUnit.Keys.suppress]
            p.echoSuppressActive = v[EchoCancellerUnit.Keys.suppressActive]
            p.denoise = v[EchoCancellerUnit.Keys.denoise]
            p.agcLevel = v[EchoCancellerUnit.Keys.agc]
            p.vad = v[EchoCancellerUnit.Keys.vad]
            p.dereverb = v[EchoCancellerUnit.Keys.dereverb]
            preprocess = p
        } else {
            preprocess = nil
        }
        preprocessInside = mode == .on
        residual = preprocess != nil && v[EchoCancellerUnit.Keys.residual]
        nonlinear = v[EchoCancellerUnit.Keys.nonlinear]
        comfort = preprocess != nil && v[EchoCancellerUnit.Keys.comfort]
        drift = v[EchoCancellerUnit.Keys.drift]
        bands = v[EchoCancellerUnit.Keys.bands]
        if referenceChannel != nil, case .ppm(let ppm) = drift {
            throw AUPipeError.usage("aec: drift=\(formatNumber(ppm)) needs ref=PATH: a reference from an input channel shares the microphone's clock (drift=off or auto, which then does nothing)")
        }
        plotFile = try v[EchoCancellerUnit.Keys.plot].map { try PlotFile(path: $0, unit: "aec", example: "aec.svg") }
    }

    /// The frames and channels `input` gives the parameters; throws (64) for a stream aec
    /// cannot run on or values out of range at its rate. (`delay=` against `max-delay=` is
    /// checked by `fixedDelayFrames`, after the reference has been opened.)
    package func layout(for input: StreamFormat) throws -> EchoLayout {
        let rate = input.sampleRate, inChannels = input.channels
        guard rate >= 8000 else { throw AUPipeError.usage("aec: the stream is \(rate) Hz; echo cancellation needs at least 8000 Hz (resample before aec)") }
        let frameFrames = try VoiceParameters.frameFrames(frameLength, rate: rate, unit: "aec")
        let tailFrames = tail.frames(atRate: rate)
        guard (frameFrames...2 * rate).contains(tailFrames), maxDelay.frames(atRate: rate) <= 2 * rate else {
            throw AUPipeError.usage("aec: tail= must be a frame to 2 s and max-delay= at most 2 s (\(2 * rate) frames at \(rate) Hz)")
        }
        var mics = inChannels
        if let n = referenceChannel {
            guard inChannels >= 2, n < inChannels else {
                throw AUPipeError.usage("aec: ref-channel=\(n) needs an input with more than \(counted(n, "channel")) and one more for the microphone; the stream has \(counted(inChannels, "channel"))")
            }
            mics = inChannels - 1
        }
        return EchoLayout(rate: rate, inChannels: inChannels, mics: mics, speakers: speakers, frameFrames: frameFrames,
                          tailFrames: tailFrames, maxDelayFrames: maxDelay.frames(atRate: rate))
    }

    /// `delay=` in frames at `rate` (nil for auto); throws (64) when it is beyond `max-delay=`.
    package func fixedDelayFrames(rate: Int) throws -> Int? {
        guard let d = fixedDelay else { return nil }
        let frames = d.frames(atRate: rate)
        guard frames <= maxDelay.frames(atRate: rate) else {
            throw AUPipeError.usage("aec: delay=\(d) is longer than max-delay=\(maxDelay); raise max-delay")
        }
        return frames
    }
}

/// `aec`'s frames and channels for one stream, in frames at its rate.
package struct EchoLayout {
    /// The stream's rate (Hz, 8000 or more) and channels in.
    package let rate: Int, inChannels: Int
    /// Microphone channels (the input's, less `ref-channel=`'s) and loudspeakers (1...8).
    package let mics: Int, speakers: Int
    /// speex's frame, the filter's tail and `max-delay=` (at most 2 s each).
    package let frameFrames: Int, tailFrames: Int, maxDelayFrames: Int
}
