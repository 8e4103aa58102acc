import AUPipeFormats
import AUPipeGraph

/// `aec`: speexdsp's acoustic echo canceller (MDF), VoiceProcessingIO in a pipe.
///
/// The stream is the microphone; the far end (what the loudspeaker played) comes from `ref=`
/// (any container, converted to mono at the stream's rate) or from input channel `ref-channel=`.
/// The unit composes named parts, each frame in this order:
/// - configuration (`EchoCancellerConfiguration`): the parameters, checked once;
/// - alignment (`EchoAlignment`): the reference delayed by `delay=` (or by the bulk delay
///   `delay=auto` finds), and resampled for the clocks' drift (`drift=`);
/// - the linear canceller (`LinearEchoCanceller`): speex's echo state in use (`EchoState`)
///   adapting a `tail=`-long filter, warm-started over the recent past (`EchoHistory`) when the
///   alignment changes;
/// - path change (`EchoPathChange`): double talk, and a shadow canceller that takes over after
///   an echo-path change;
/// - the post-filter (`EchoPostFilter`): the nonlinear canceller, speex's preprocessor
///   (residual echo `suppress=`, and optionally noise and level, `denoise=`, `agc=`) attached
///   to the echo state, and the residual echo suppressor (`residual=`);
/// - the report (`EchoCancellerUnit+Report.swift`): the `--stats` note and figures, the series
///   and `plot=`'s document, handed out from what the parts measured (`ERLEMeter`, `AECSeries`):
///   the chain pulls them (`StatsReporting`, `PlotReporting`); the unit writes nothing itself.
///
/// Frames of `frame=` go through speex in 16-bit samples. The output has exactly the input's
/// frame count; a part-filled last frame is padded, processed and trimmed (`FixedFrames`).
public final class EchoCancellerUnit: AudioUnit, LiveControllable, StatsReporting, PlotReporting, SideInputReader, SideOutputWriter, ReferencePlayer {
    /// The parameters, checked when the chain is built.
    package let configuration: EchoCancellerConfiguration
    /// The stream's frames and channels, set by `prepare` (before it, a 16 kHz mono stream's,
    /// so that the report reads 0 ms and no frames).
    package private(set) var layout = EchoLayout(rate: 16000, inChannels: 1, mics: 1, speakers: 1, frameFrames: 160, tailFrames: 6400, maxDelayFrames: 8000)
    /// The parts, made in `prepare`.
    package private(set) var alignment: EchoAlignment?
    package private(set) var linear: LinearEchoCanceller?
    package private(set) var pathChange: EchoPathChange?
    package private(set) var postFilter: EchoPostFilter?
    /// `ref=`'s reader (nil with `ref-channel=`).
    package private(set) var reader: (any SideInputStream)?
    /// `--play`: the far end goes to a device as it is read, and comes back as played.
    package private(set) var played: (any ReferencePlayback)?
    private var blocker: FixedFrames?
    /// The band split (`bands=auto` from 24 kHz), nil when the canceller runs on the whole
    /// band; `layout` is then the low band's.
    package private(set) var bandSplit: EchoBandSplit?
    /// The stream's rate (`layout.rate` but for a band split).
    package private(set) var streamRate = 16000
    /// One frame: the microphones and the reference in float, then in 16-bit samples, and the
    /// canceller's output.
    private var micFloat, refFloat: UnsafeMutablePointer<Float>?
    private var rec16, play16, out16: UnsafeMutablePointer<Int16>?
    /// The ERLE and convergence (`--stats`), and the figures over time (plot and `--stats=json`).
    package private(set) var meter = ERLEMeter(sampleRate: 16000)
    package private(set) var series = AECSeries(frameFrames: 160, rate: 16000, capacity: 2)
    /// Where the reference ended, in stream frames, and the stream's own frames so far.
    private var referenceEndFrame: Int64?
    package private(set) var framesProcessed: Int64 = 0
    /// Frames that came in so far (the blocker counts them), at `layout.rate`.
    private var framesIn: Int64 { (blocker?.framesIn ?? 0) / Int64(bandSplit?.factor ?? 1) }
    private var clipped = 0
    /// Drift compensation has engaged in this frame and the canceller is to be retrained on the
    /// past warped by this (factor − 1) once the frame is cancelled (`LinearEchoCanceller.driftEngaged`'s
    /// `split`: a replay of the whole history in one frame took 43 % of a 20 ms frame's real time).
    private var retrainDue: Double?
    private var warnedShortReference = false
    /// The longest frame's processing, in thread CPU time (`--stats`).
    package private(set) var worstFrame = WorstFrame()

    /// Set when the reference ended before the stream did.
    package var referenceEndedAt: Double? {
        referenceEndFrame.flatMap { $0 < framesIn ? Double($0) / Double(layout.rate) : nil }
    }

    public var sideInputs: [(role: String, path: String)] { configuration.reference.map { [("aec's reference", $0.path)] } ?? [] }
    public var sideOutputs: [(role: String, path: String)] { configuration.plotFile.map { [("aec plot=", $0.path)] } ?? [] }

    package init(_ v: ParameterValues) throws {
        configuration = try EchoCancellerConfiguration(v)
    }

    deinit {
        for p in [micFloat, refFloat] { p?.deallocate() }
        for p in [rec16, play16, out16] { p?.deallocate() }
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        let streamLayout = try configuration.layout(for: input)
        let split = configuration.bandSplit(for: streamLayout)
        let layout = split?.core ?? streamLayout
        self.layout = layout
        streamRate = input.sampleRate
        let rate = layout.rate, frameFrames = layout.frameFrames, speakers = layout.speakers
        if let spec = configuration.reference {
            let path = spec.path
            reader = try UnitStreams.opener.sideInput(SideInputRequest(spec: spec, index: 1, label: "aec: ref", target: StreamFormat(encoding: .f32le, sampleRate: input.sampleRate, channels: speakers),
                                   maxFrames: streamLayout.frameFrames, realTime: context.realTime.isRealTime(configuration.live), wait: .seconds(0.005)) { channels in
                // Only speakers > 1 can refuse: any count mixes down to one loudspeaker.
                "aec: ref \(path) has \(counted(channels, "channel")); speakers=\(speakers) needs a reference of 1 channel (played on every loudspeaker) or \(speakers), "
                    + "one per loudspeaker: convert it first, e.g. ref=<(aupipe -i \(path) convert map=\((0..<speakers).map(String.init).joined(separator: ",")))"
            })
        }
        let fixedDelay = try configuration.fixedDelayFrames(rate: input.sampleRate).map { d in split.map { Int((Double(d) / Double($0.factor)).rounded()) } ?? d }
        let pathChange = try EchoPathChange(layout: layout)
        let linear = try LinearEchoCanceller(layout: layout, automatic: fixedDelay == nil, historyFrames: pathChange.shadow.historyFrames)
        let postFilter = try EchoPostFilter(layout: layout, settings: configuration.preprocess, residual: configuration.residual,
                                            nonlinear: configuration.nonlinear, comfort: configuration.comfort,
                                            inside: configuration.preprocessInside, echo: linear.state)
        (self.pathChange, self.linear, self.postFilter) = (pathChange, linear, postFilter)
        bandSplit = split.map {
            let mics = configuration.referenceChannel.map { n in (0..<layout.inChannels).filter { $0 != n } } ?? Array(0..<layout.mics)
            return EchoBandSplit(factor: $0.factor, frameFrames: streamLayout.frameFrames, channels: layout.inChannels, micChannels: mics,
                                 speakers: configuration.reference == nil ? 0 : speakers, coreLatency: postFilter.latencyFrames,
                                 frameSeconds: Double(frameFrames) / Double(rate), comfort: configuration.comfort)
        }
        blocker = Self.descriptor.frameNeeds.fixedFrames(streamLayout.frameFrames, channels: layout.inChannels, outputChannels: layout.mics,
                                                         latency: bandSplit?.latencyFrames ?? postFilter.latencyFrames)
        micFloat = .allocate(capacity: frameFrames * layout.mics)
        refFloat = .allocate(capacity: frameFrames * speakers)
        rec16 = .allocate(capacity: frameFrames * layout.mics)
        play16 = .allocate(capacity: frameFrames * speakers)
        out16 = .allocate(capacity: frameFrames * layout.mics)
        meter = ERLEMeter(sampleRate: rate)
        series = AECSeries(frameFrames: frameFrames, rate: rate)
        // Drift: only a reference of its own (ref=) can have a clock of its own.
        alignment = try EchoAlignment(layout: layout, fixedDelay: fixedDelay, drift: configuration.drift, ownClock: configuration.reference != nil)
        var out = input
        out.channels = layout.mics
        return out
    }

    /// speexdsp's output is 16-bit integers (`Speex16`), whatever the input's precision.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { min(input, Speex16.precision) }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { blocker?.maxOutput(forInput: inputFrames) ?? inputFrames }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let written = try blocker!.push(input, frames: frames, into: output) { try worstFrame.time { try runFrame(into: blocker!.frameOut) } }
        if !warnedShortReference, let warning = shortReferenceWarning {
            warnedShortReference = true
            warn(warning)
        }
        return written
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        let written = try blocker!.finish(into: output) { try worstFrame.time { try runFrame(into: blocker!.frameOut) } }
        reader?.reportLate()
        series.finish()
        return (written, true)
    }

    /// One frame: split microphone and reference, align the reference, cancel, watch the echo
    /// path, post-filter, measure.
    private func runFrame(into output: UnsafeMutablePointer<Float>) throws {
        guard let blocker, let alignment, let linear, let pathChange, let postFilter,
              let micFloat, let refFloat, let rec16, let play16, let out16 else { return }
        let frameFrames = layout.frameFrames, mics = layout.mics, speakers = layout.speakers, rate = layout.rate
        bandSplit?.analyse(blocker.frame)
        let frame = UnsafePointer(bandSplit?.low ?? blocker.frame)
        if let n = configuration.referenceChannel {
            for f in 0..<frameFrames {
                var m = 0
                for c in 0..<layout.inChannels {
                    let x = frame[f * layout.inChannels + c]
                    if c == n { refFloat[f] = x } else { micFloat[f * mics + m] = x; m += 1 }
                }
            }
        } else {
            micFloat.update(from: frame, count: frameFrames * mics)
            try readReference(into: refFloat, compensator: alignment.compensator)
        }
        let history = linear.history
        history.pushReference(refFloat)
        try alignment.analyse(mic: micFloat, mics: mics, ref: refFloat, framesProcessed: framesProcessed, sinceDoubleTalk: pathChange.sinceDoubleTalk)
        let delayWasFound = alignment.delayFoundAt != nil
        if alignment.delayMoved(framesProcessed: framesProcessed, sinceDoubleTalk: pathChange.sinceDoubleTalk) {
            // A shadow running goes on: it is retrained at the new delay (a path change can move
            // the delay estimate too).
            pathChange.alignmentMoving(linear, time: Double(framesProcessed) / Double(layout.rate))
            // The call's first delay, or a replay too long for one frame: a fast start follows
            // (`delayFound`) when the shadow is idle, and the replay waits (with a short shadow
            // only: one of the full tail is no cheaper, and catches up at once).
            let deferred = (!delayWasFound || !linear.replayFits(drift: false) && pathChange.shadow.handsBack) && pathChange.shadow.idle
            // Too long for one frame while a shadow runs: the replay waits too, the shadow's
            // output standing in.
            let beside = delayWasFound && !linear.replayFits(drift: false) && pathChange.shadow.running
            linear.delayMoved(to: alignment.delayFrames, play: play16, scratch: out16, deferred: deferred, beside: beside)
            if delayWasFound, deferred { pathChange.delayFound(linear, time: Double(framesProcessed) / Double(rate), trail: postFilter.readsEcho) }
        }
        // The first delay found: the call's first echo, cancelled at once by a fast start.
        if !delayWasFound, alignment.delayFoundAt != nil { pathChange.delayFound(linear, time: Double(framesProcessed) / Double(layout.rate), trail: postFilter.readsEcho) }
        // Drift compensation has just engaged: the canceller learnt a moving echo until now; it
        // starts again from the past warped to the alignment it holds from now on.
        if let warp = alignment.takeRetrain() {
            pathChange.alignmentMoving(linear, time: Double(framesProcessed) / Double(layout.rate))
            if !linear.replayFits(drift: true) && pathChange.shadow.handsBack && pathChange.shadow.idle {
                linear.driftEngaged(warp: warp, delay: alignment.delayFrames, play: play16, scratch: out16, deferred: true)
                pathChange.delayFound(linear, time: Double(framesProcessed) / Double(rate), trail: postFilter.readsEcho)
            } else {
                retrainDue = warp
            }
        }
        pathChange.beforeCancel(linear, delay: alignment.delayFrames, play: play16, scratch: out16)
        // The delay line: this frame's reference, `delayFrames` earlier.
        history.reference(back: 0, delay: alignment.delayFrames, into: play16)
        clipped += Speex16.fromFloat(micFloat, into: rec16, count: frameFrames * mics)
        let cancelled = linear.cancel(rec16, play16, into: out16)
        let refLevel = ERLEMeter.energy(play16, count: frameFrames * speakers) / Double(frameFrames * speakers)
        let now = Double(framesProcessed) / Double(rate)
        pathChange.afterCancel(linear, rec: rec16, play: play16, out: out16, echo: refLevel > ERLEMeter.activeThreshold, time: now,
                               trail: postFilter.readsEcho, cancelled: cancelled)
        history.record(mic: rec16)
        // The filter's own output, before the post-filter: convergence is the filter's doing
        // (the meter, the double-talk detector).
        let filtered = ERLEMeter.energy(out16, count: frameFrames * mics)
        let echoRead = pathChange.preprocessorEcho(inUse: linear.state)
        postFilter.run(out16, frame: EchoFrameContext(
            rec: rec16, play: play16, echo: echoRead,
            doubleTalk: pathChange.nearTalk.active, pathChanged: pathChange.justChanged(now: now), farEnd: refLevel > ERLEMeter.activeThreshold,
            reference: refFloat, delay: alignment.automatic && alignment.delayFoundAt == nil ? nil : alignment.delayFrames,
            echoOutput: echoRead === linear.state ? nil : UnsafePointer(pathChange.shadow.output),
            shadowOutput: pathChange.shadowBeside))
        meter.add(mic: rec16, out: out16, filtered: filtered, ref: play16, n: frameFrames * mics, refCount: frameFrames * speakers, frames: frameFrames)
        let micEnergy = ERLEMeter.energy(rec16, count: frameFrames * mics), n = Double(frameFrames * mics)
        let talking = pathChange.add(mic: micEnergy / n, filtered: filtered / n, reference: refLevel)
        let echo = refLevel > ERLEMeter.activeThreshold && micEnergy / n > ERLEMeter.micFloor
        series.add(echo: echo ? (micEnergy, ERLEMeter.energy(out16, count: frameFrames * mics)) : nil,
                   delayMS: alignment.delayInUseMS, driftPPM: alignment.driftPPM, doubleTalk: talking)
        Speex16.toFloat(out16, into: bandSplit?.lowOut ?? output, count: frameFrames * mics)
        bandSplit?.synthesise(into: output)
        // The retraining due since this frame's analyses, once the state in use has cancelled
        // the frame: half of its replay now, the rest at the next frame's cancel.
        if let warp = retrainDue {
            retrainDue = nil
            linear.driftEngaged(warp: warp, delay: alignment.delayFrames, play: play16, scratch: out16, split: true)
        }
        framesProcessed += Int64(frameFrames)
    }

    /// One frame of `ref=` into `refFloat`, through the drift compensation when there is one
    /// (the end is then placed where the canceller takes it), played on `--play`'s device.
    private func readReference(into refFloat: UnsafeMutablePointer<Float>, compensator: DriftCompensator?) throws {
        guard let reader else { return }
        if let compensator {
            let ahead = Int64(compensator.engaged ? compensator.latency : 0)
            try compensator.take(into: refFloat) { buffer, frames in
                let endedAt = try read(reader, into: buffer, frames: frames)
                if let end = endedAt, referenceEndFrame == nil { referenceEndFrame = max(0, framesProcessed + Int64(end) - ahead) }
            }
        } else {
            let endedAt = try read(reader, into: refFloat, frames: layout.frameFrames)
            if let end = endedAt, referenceEndFrame == nil { referenceEndFrame = framesProcessed + Int64(end) }
        }
    }

    /// `frames` frames of the far end at `layout.rate` from `reader`, played on `--play`'s
    /// device: read at the stream's rate and decimated with a band split. Returns where the
    /// reference ended within them, if it did.
    private func read(_ reader: any SideInputStream, into buffer: UnsafeMutablePointer<Float>, frames: Int) throws -> Int? {
        guard let bandSplit else {
            let (_, endedAt) = try reader.read(into: buffer, frames: frames)
            try played?.play(buffer, frames: frames)
            return endedAt
        }
        let factor = bandSplit.factor
        return try bandSplit.decimateReference(into: buffer) { wide, wideFrames in
            let (_, endedAt) = try reader.read(into: wide, frames: wideFrames)
            try played?.play(wide, frames: wideFrames)
            return endedAt.map { $0 / factor }
        }
    }

    public var clippedSamples: Int { clipped }

    /// Whether the far end comes from `ref=` (which `--play` can play), not from an input channel.
    package var readsReference: Bool { configuration.reference != nil }

    /// `--play`: from now on every frame of the far end is played on `device` as it is read,
    /// and the canceller gets it as played (see `PlayedReference`). Call after `prepare`.
    /// - Returns: the format the device must be opened in (s16le at the stream's rate, one
    ///   channel per loudspeaker)
    ///   through `attach`, and the most frames one call plays.
    package var playbackFormat: (format: StreamFormat, maxFrames: Int) {
        (StreamFormat(encoding: .s16le, sampleRate: streamRate, channels: configuration.speakers), layout.frameFrames * (bandSplit?.factor ?? 1))
    }

    package func attach(_ playback: any ReferencePlayback) { played = playback }
}
