#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// `aec`: speexdsp's acoustic echo canceller (MDF), VoiceProcessingIO in a pipe.
///
/// The stream is the microphone; the far end (what the loudspeaker played) comes from `ref=`
/// (any container, converted to mono at the stream's rate) or from input channel `ref-channel=`.
/// The reference is delayed by `delay=` (or by the bulk delay `delay=auto` finds), the canceller
/// adapts a `tail=`-long filter, and speex's preprocessor (attached to the echo state) removes
/// residual echo (`suppress=`), and optionally noise and level (`denoise=`, `agc=`); then
/// `ResidualEchoSuppressor` (`residual=`) takes out what the linear filter cannot model.
/// When `delay=auto` changes the delay, the canceller is warm-started: run again over the
/// recent past (`EchoHistory`) with the reference at the new delay.
/// Frames of `frame=` go through speex in 16-bit samples. The output has exactly the input's
/// frame count; a part-filled last frame is padded, processed and trimmed.
public final class EchoCancellerUnit: AudioUnit, LiveControllable, StatsReporting, SideInputReader, SideOutputWriter, ReferencePlayer {
    public static let descriptor = UnitDescriptor(
        name: "aec",
        summary: "cancel the loudspeaker's echo (speexdsp echo canceller + preprocessor)",
        details: """
            The stream is the microphone; ref= names the far end (what the loudspeaker played: a file, a FIFO or <(command), any container, mixed to mono and resampled to the stream's rate; with speakers=N, N channels for N loudspeakers, a mono far end copied to each, and speex models one echo path from each loudspeaker to each microphone, at N times the cost), or ref-channel=N takes it from input channel N (counted from 0), which is then dropped from the output. With --play DEVICE the far end of ref= is also played on a sound device as it is read, and the canceller gets it as the device plays it (full duplex). In a run that is not real time (files and pipes alone) a FIFO or pipe ref= is waited for, however late its writer starts, so the output is the same on every run; in a real-time run (--capture or --live, or live=on) it is read without blocking: what has not come within 5 ms of a frame is silence, and as many of its frames are dropped when they come, so it keeps its place; late frames are said on stderr at the end and counted in --stats (referenceLateFrames). live=off waits in any run.
            delay= delays the reference by a fixed time; delay=auto (the default) finds the bulk delay from the two signals (GCC-PHAT, re-estimated while running, with hysteresis; up to max-delay=), applies it less a 10 ms margin so that the echo's first taps stay inside the filter, and reports it in --stats; until it is found (after 1 s plus max-delay of both talking: 1.5 s by default), the reference is not delayed. A change of the delay (the first estimate too) warm-starts the canceller: it is reset and run again, its output discarded, over the last 1.5 s plus max-delay of the stream (2 s by default; all of it if shorter) with the reference at the new delay, so that it goes on as converged as if it had had that delay all along (when that is the whole stream so far, a fresh canceller takes over: exactly the one a fixed delay= would have given); the preprocessor is not run again. That replay costs, in that one frame, about 3.5 ms of CPU per second replayed at 16 kHz and 11 ms at 48 kHz with the default tail (release build, x86-64; more with a longer tail), and in a live pipe holds that frame back as long. A first estimate equal to the delay in use (0) changes nothing; changes smaller than 5 ms are ignored. tail= is the echo length the filter covers after that delay.
            With preprocess=1 (the default) speex's preprocessor, attached to the echo state, suppresses residual echo (suppress= while only the far end talks, suppress-active= while both do) and noise (denoise=; 0 removes none) and, when asked, sets the level (agc=), and runs voice activity detection (vad=) and dereverberation (dereverb=).
            With residual=1 (the default; with preprocess=1 and one microphone channel) a residual echo suppressor follows the preprocessor: what the linear filter leaves (its misadjustment, the room's tail beyond tail=, a saturating loudspeaker's distortion) is predicted per frequency bin from the filter's echo estimate (its power, the power held over a decaying tail, spread over ±500 Hz, and spread over the whole band for distortion), with weights learned only in frames where the far end talks alone (the microphone coherent with the echo estimate and no more than 3 dB above it, and no double talk); the bins' gains take that prediction out (Wiener-like, down to suppress=), but never below the noise floor (the noise bed stays) and, in frames where the near end may talk, gently (down to suppress-active=, and no more than the prediction where the near end is present in the bin): no broadband duck. For the gain, a frame counts as the far end's alone while the microphone's incoherence with the echo estimate stays within twice its running median over such frames (and within that of a coherence of 0.88): in babble the microphone is less coherent with the echo in most frames of echo alone, a near talker at the echo's level starts well above that median, and a quiet room is as before (bench/aec's babble at 15 dB SNR in three rooms: the worst 25.5 to 30.8 dB, the near end -1.6 dB or better in every scene; a near talker 10 dB under the echo, in noise, keeps -2.7 to -2.9 dB there: such a talker is not kept within 2 dB, with or without this). With nonlinear=1 (the default) a second, short canceller (100 ms, speexdsp) comes first, on the linear canceller's output: its reference is the far end's x·|x| made orthogonal to x, so that with the first it models a saturating loudspeaker (a memoryless nonlinearity, then the room; on bench/aec's far end, tanh(3x)/3 is explained to 12 dB by x alone and to 30 dB by x and x·|x|), and its estimate is taken out only while it is echo (the input correlated with it, over about 10 s): it runs in probes of 3 s of far end and pauses for 60 s after one in which its estimate was out in under a quarter of the frames (a loudspeaker that does not saturate), so it costs 0.6× the bare canceller's CPU where it runs and little elsewhere; --stats gives the share of frames it ran and was taken out. The suppressor adds one frame of latency (removed from the output's timing) and about 0.35× the bare canceller's CPU (its real signals through a half-size complex FFT). Its model runs on the canceller's output before the preprocessor, whose residual follows the echo estimate steadily (speex's own suppression switches from frame to frame: modelled after it, the same setting gained 1 dB less in rooms), and its gain applies to the preprocessor's output: applied before the preprocessor instead, it measured 1-4 dB more ERLE in rooms and 2 dB more with a saturating loudspeaker, but took 0.75-1 dB off the near end's SI-SDR in double talk (against 0.2-0.3 dB here), more than is allowed. Measured on the 29 scenes of bench/aec/ with targets (bench/aec/compare.py sweep, residual=0 against the default; in noise by phase inversion): rooms 31.0 to 44.7 dB of ERLE on average at delays up to 120 ms and 31.4 to 44.3 at 300-400 ms (worst room 26.2 to 38.4), a saturating loudspeaker 18.4 to 34.0 (the nonlinear canceller, when it came, took the worse of the two scenes from 23.0 to 31.5, every other scene as it was, and the near end in those two 0.35-0.5 dB better in SI-SDR), babble at 15 dB SNR 25.2 to 34.4 (three rooms), clock drift 31.4 to 39.8, echo-path changes 26.1 to 34.2 (five rooms), with the near end's worst gain in double talk -1.3 to -1.6 dB and its SI-SDR 8.8 to 8.4 dB on average; its noise floor is the least smoothed power of the canceller's output over windows of 2 s (1-3 dB more in rooms than twice the least over 1 s). residual=0 compares.
            The defaults of tail= (400ms), frame= (20ms), suppress= (-80), suppress-active= (-30) and denoise= (-30) were measured, not guessed: on the 23 echo scenes of bench/aec/ (speech at both ends, rooms of RT60 0.2-1 s at delays of 0-400 ms, noise and babble at 5-45 dB SNR, a saturating loudspeaker, an echo-path change, double talk; bench/aec/compare.py sweep, ERLE against the true echo) they give the best worst-case ERLE with the near end kept at -2 dB or better in double talk. The former defaults (200ms, 10ms, -40, -15, no noise suppression) gave 26.0 dB on average in rooms at delays up to 120 ms, 21.9 dB at 300-400 ms, 14.0 dB in the worst room and 16.2 dB with a saturating loudspeaker; these give 31.0, 31.3, 26.2 and 17.7 dB, with the near end at -1.3 dB or better. Why each: a 400 ms tail covers rooms up to RT60 1 s (26.2 dB in the worst room against 21.7 at 300 ms and 14.3 at 200 ms; 500 ms adapts more slowly and loses 1 dB on average); 20 ms frames cancel 0.9-4.7 dB more than 10 ms on average in every kind of scene, at 10 ms more latency; denoise=-30 adds 2.7 dB on average (8 in noise) for 0.4 dB less of the near end; suppress=-80 and suppress-active=-30 add 0.5 dB in the worst case (the saturating loudspeaker) at the same near-end level. bench/aec/run prints the whole comparison, with speexdsp and WebRTC's canceller on the same scenes.
            speexdsp works on whole frames of frame= in 16-bit samples (samples beyond full scale are clipped there, and counted): the output has exactly the input's length (a part-filled last frame is padded and trimmed), aligned sample for sample with the input, and in a live pipe it comes at most one frame late without the preprocessor, two with it and three with the residual echo suppressor (whose own delays, one frame each, are removed from the output's timing, not from the wait). With vad=1, --stats reports the share of frames speex judged to be voice (speex prints a warning of its own about its VAD). Several microphone channels get echo cancellation but no residual-echo suppression (speex attaches the preprocessor to a mono microphone only; residual= does nothing there either). --stats reports the ERLE (echo return loss enhancement: how much quieter the output is than the microphone while there is echo: the far end above -50 dBFS and the microphone above -60 dBFS; "no echo measured" when there was none), when the canceller converged (its filter, before the preprocessor, 10 dB below the microphone for 1 s), the delay used, the history the last warm start replayed and the share of frames in which the residual echo suppressor's echo model adapted (those it took for the far end alone), and those in which its nonlinear canceller ran and its estimate was taken out. A reference that ends before the stream gets a warning on stderr, with or without --stats.
            """ + driftDetails + pathChangeDetails,
        parameters: [Keys.ref, Keys.refChannel, Keys.speakers, Keys.delay, Keys.maxDelay, Keys.tail, Keys.frame, Keys.preprocess,
                     Keys.suppress, Keys.suppressActive, Keys.residual, Keys.nonlinear, Keys.denoise, Keys.agc, Keys.vad, Keys.dereverb, Keys.drift, Keys.plot, Keys.live],
        primary: Keys.ref.name,
        example: "arecord -t raw -f S16_LE -r 16000 -c 1 | aupipe --live --in-format s16le:16000:1 aec ref=played.wav delay=auto -t wav > clean.wav",
        exercise: UnitExercise(["ref=\(UnitExercise.sideInput)"]),
        make: { v in try EchoCancellerUnit(v) })

    private let refSpec: BusSpec?
    /// `live=`: whether a FIFO or pipe reference is read in real time (with the run's policy).
    private let liveSetting: LiveSetting
    private let refChannel: Int?
    /// Loudspeakers: channels of the far end speex models separately (1...8).
    private let speakers: Int
    private let delay: Automatic<StreamDuration>
    /// The fixed delay, or nil for `delay=auto`.
    private var delaySetting: StreamDuration? { delay.fixedValue }
    private let maxDelay: StreamDuration
    private let tail: StreamDuration
    private let frameLength: StreamDuration
    private let settings: PreprocessSettings?
    /// `drift=`, and what follows it: the reference's resampler (with `ref=` and drift ≠ off),
    /// the tracker (`drift=auto`), the double-talk detector that freezes it, and how long ago
    /// (stream frames) double talk was last seen.
    private let drift: ClockDriftSetting
    private var compensator: DriftCompensator?
    private var tracker: DriftTracker?
    /// A second tracker on short, low-band analyses (`coarseEstimator`): it finds a drift too
    /// fast for `tracker`'s analyses (whose peak it smears), and its estimate is used, from
    /// `bootstrapPPM` on, until `tracker` has one of its own.
    private var bootstrap: DriftTracker?
    private var coarseEstimator: DelayEstimator?
    private var bootstrapped = false
    /// The warp (factor − 1) of a retraining due when the compensation has just engaged, and
    /// the frames (DSP) that retraining replayed (0: none).
    private var driftRetrain: Double?
    /// The least drift (fraction) whose engagement retrains the canceller: 30 ppm moves the echo
    /// a frame in 2 s at 16 kHz; speex follows slower drifts on its own, and a filter that has
    /// converged over a long stream is better kept than retrained on 1.5 s.
    static let driftRetrainLeast = 30e-6
    private var driftRetrainedFrames = 0
    /// When (stream seconds) `drift=auto` started compensating (by either tracker).
    private var compensationStartedAt: Double?
    static let bootstrapPPM = 60.0
    /// The span (s) and measurements behind `bootstrap`'s first estimate: a drift of 250 ppm
    /// or more is plain within 1.5 s (6 frames at 16 kHz), and the sooner it is compensated,
    /// the less of the stream the canceller spends on an echo that moves.
    static let bootstrapSpan = 1.5, bootstrapCount = 8
    private var doubleTalk = DoubleTalkDetector(frameFrames: 160, rate: 16000)
    private var sinceDoubleTalk = Int.max / 2
    private var analysesSeen = 0, coarseAnalysesSeen = 0
    /// What the trackers' analyses stand for (`DriftLagTiming`), and the analyses counted in it.
    private var fineTiming = DriftLagTiming(smoothing: 0), coarseTiming = DriftLagTiming(smoothing: 0)
    /// `plot=`'s path, and the figures over time (plot and `--stats=json`).
    private let plotPath: String?
    private let plotFile: PlotFile?
    private var series = AECSeries(frameFrames: 160, rate: 16000, capacity: 2)

    /// speex's echo state in use; with `delay=auto` also a spare one, never used until a warm
    /// start replaces the state in use with it (see `warmStart`); every state made, destroyed
    /// in `deinit` (the replaced one stays idle until then: nothing is freed while running).
    private var state: OpaquePointer?
    private var freshState: OpaquePointer?
    private var states: [OpaquePointer] = []
    private var preprocessors: [Preprocessor] = []
    /// A second canceller, run only after a sudden fall of the cancellation, that takes over
    /// when it cancels clearly more (an echo-path change; see `ShadowCanceller`).
    private var shadow: ShadowCanceller?
    /// Whether the preprocessor is still attached to the state a shadow replaced.
    /// The echo state speex's preprocessor reads the residual echo from (`followPreprocessor`).
    private var preprocessorEcho: OpaquePointer?
    /// `residual=1` (with the preprocessor, one microphone): the residual echo suppressor.
    private let residualOn: Bool
    /// `nonlinear=1` (with the residual echo suppressor): its nonlinear canceller.
    private let nonlinearOn: Bool
    private var residual: ResidualEchoSuppressor?
    /// `nonlinear=1` (with the residual echo suppressor): it takes its estimate out of the
    /// canceller's output before the preprocessor (`NonlinearEchoCanceller`).
    private var nonlinear: NonlinearEchoCanceller?
    private var reader: SideInput?
    /// `--play`: the far end goes to a device as it is read, and comes back as played.
    private var played: PlayedReference?
    private var blocker: FrameBlocker?
    private var inChannels = 1, mics = 1, frameFrames = 160, rate = 16000
    private var micFloat, refFloat: UnsafeMutablePointer<Float>?
    private var rec16, play16, out16, channel16: UnsafeMutablePointer<Int16>?
    /// The reference's delay line and, with `delay=auto`, the last `warmStartSeconds` plus
    /// `max-delay=` of both inputs, for warm starts.
    private var history: EchoHistory?
    /// The delay in use, in frames.
    private(set) var delayFrames = 0
    private var meter = ERLEMeter(sampleRate: 16000)
    /// `delay=auto`: the bulk-delay estimator, the first microphone channel for it, and what it did.
    private var estimator: DelayEstimator?
    private var estimatorMic: UnsafeMutablePointer<Float>?
    /// The loudspeakers summed for the estimator (with speakers > 1).
    private var estimatorRef: UnsafeMutablePointer<Float>?
    /// `drift=auto` with a fixed delay: the tracker's estimator (with `delay=auto`, `estimator`).
    private var driftEstimator: DelayEstimator?
    /// `coarseEstimator`'s window (s) and band (Hz).
    static let coarseWindow = 0.25, coarseBandHz = 3000.0
    private var delayChanges = 0
    private var delayFoundAt: Double?
    /// The history the latest warm start replayed, in DSP frames (0: none yet).
    private var warmFrames = 0
    /// How much history a warm start replays at most, in seconds, beyond `max-delay=`: with it
    /// the history reaches back to the stream's start when the first estimate comes up to two
    /// analyses (0.5 s) after the earliest it can (1 s plus `max-delay=`).
    static let warmStartSeconds = 1.5
    /// That in DSP frames (the history may hold more, for a shadow's retraining).
    private var warmStartFrames = 0
    /// Where the reference ended, in stream frames, and the stream's own frames so far.
    private var referenceEndFrame: Int64?
    private var framesProcessed: Int64 = 0
    /// Stream frames that came in so far (the blocker counts them).
    private var framesIn: Int64 { blocker?.framesIn ?? 0 }
    private var clipped = 0
    private var warnedShortReference = false
    /// DSP frames run, and those speex's VAD called voice (with vad=1).
    private var framesRun = 0, voiceFrames = 0
    private var vad: Bool { settings?.vad ?? false }
    /// Set when the reference ended before the stream did.
    private var referenceEndedAt: Double? {
        referenceEndFrame.flatMap { $0 < framesIn ? Double($0) / Double(rate) : nil }
    }

    public var sideInputs: [(role: String, path: String)] { refSpec.map { [("aec's reference", $0.path)] } ?? [] }
    public var sideOutputs: [(role: String, path: String)] { plotPath.map { [("aec plot=", $0)] } ?? [] }

    init(_ v: ParameterValues) throws {
        refSpec = v[Keys.ref]
        refChannel = v[Keys.refChannel]
        liveSetting = v[Keys.live]
        guard (refSpec == nil) != (refChannel == nil) else {
            throw AUPipeError.usage("aec: give the far end as ref=PATH or as ref-channel=N (one of them)")
        }
        speakers = v[Keys.speakers]
        if refChannel != nil, speakers > 1 {
            throw AUPipeError.usage("aec: speakers=\(speakers) needs ref=PATH; ref-channel= gives one loudspeaker's channel")
        }
        delay = v[Keys.delay]
        maxDelay = v[Keys.maxDelay]
        tail = v[Keys.tail]
        frameLength = v[Keys.frame]
        if v[Keys.preprocess] {
            var p = PreprocessSettings()
            p.echoSuppress = v[Keys.suppress]
            p.echoSuppressActive = v[Keys.suppressActive]
            p.denoise = v[Keys.denoise]
            p.agcLevel = v[Keys.agc]
            p.vad = v[Keys.vad]
            p.dereverb = v[Keys.dereverb]
            settings = p
        } else {
            settings = nil
        }
        residualOn = settings != nil && v[Keys.residual]
        nonlinearOn = v[Keys.nonlinear]
        drift = v[Keys.drift]
        if refChannel != nil, case .ppm(let ppm) = drift {
            throw AUPipeError.usage("aec: drift=\(formatNumber(ppm)) needs ref=PATH: a reference from an input channel shares the microphone's clock (drift=off or auto, which then does nothing)")
        }
        plotPath = v[Keys.plot]
        plotFile = try plotPath.map { try PlotFile(path: $0, unit: "aec", example: "aec.svg") }
    }

    deinit {
        for st in states { speex_echo_state_destroy(st) }
        for p in [micFloat, refFloat, estimatorMic, estimatorRef] { p?.deallocate() }
        for p in [rec16, play16, out16, channel16] { p?.deallocate() }
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        let input = context.input
        rate = input.sampleRate
        inChannels = input.channels
        guard rate >= 8000 else { throw AUPipeError.usage("aec: the stream is \(rate) Hz; echo cancellation needs at least 8000 Hz (resample before aec)") }
        frameFrames = try VoiceParameters.frameFrames(frameLength, rate: rate, unit: "aec")
        let tailFrames = tail.frames(atRate: rate)
        guard (frameFrames...2 * rate).contains(tailFrames), maxDelay.frames(atRate: rate) <= 2 * rate else {
            throw AUPipeError.usage("aec: tail= must be a frame to 2 s and max-delay= at most 2 s (\(2 * rate) frames at \(rate) Hz)")
        }
        if let n = refChannel {
            guard inChannels >= 2, n < inChannels else {
                throw AUPipeError.usage("aec: ref-channel=\(n) needs an input with more than \(counted(n, "channel")) and one more for the microphone; the stream has \(counted(inChannels, "channel"))")
            }
            mics = inChannels - 1
        } else {
            mics = inChannels
            let path = refSpec!.path, speakers = speakers
            reader = try SideInput(spec: refSpec!, index: 1, label: "aec: ref", target: StreamFormat(encoding: .f32le, sampleRate: rate, channels: speakers),
                                   maxFrames: frameFrames, realTime: context.realTime.isRealTime(liveSetting), wait: .seconds(0.005)) { channels in
                // Only speakers > 1 can refuse: any count mixes down to one loudspeaker.
                "aec: ref \(path) has \(counted(channels, "channel")); speakers=\(speakers) needs a reference of 1 channel (played on every loudspeaker) or \(speakers), "
                    + "one per loudspeaker: convert it first, e.g. ref=<(aupipe -i \(path) convert map=\((0..<speakers).map(String.init).joined(separator: ",")))"
            }
        }
        let maxDelayFrames = maxDelay.frames(atRate: rate)
        if let d = delaySetting {
            delayFrames = d.frames(atRate: rate)
            guard delayFrames <= maxDelayFrames else {
                throw AUPipeError.usage("aec: delay=\(d) is longer than max-delay=\(maxDelay); raise max-delay")
            }
        }
        let st = try makeState(tailFrames: tailFrames)
        state = st
        if delaySetting == nil { freshState = try makeState(tailFrames: tailFrames) }
        if let settings {
            // Residual echo suppression needs the echo state, which speex attaches to a mono microphone.
            preprocessors = try (0..<mics).map { _ in
                try Preprocessor(frameFrames: frameFrames, sampleRate: rate, settings: settings, echo: mics == 1 ? st : nil)
            }
            if mics == 1 { preprocessorEcho = st }
        }
        if residualOn, mics == 1, let settings {
            residual = ResidualEchoSuppressor(frameFrames: frameFrames, rate: rate, suppressDB: settings.echoSuppress, activeDB: settings.echoSuppressActive)
            if nonlinearOn { nonlinear = try NonlinearEchoCanceller(frameFrames: frameFrames, rate: rate) }
        }
        // speex's preprocessor gives each frame out one frame later, the residual echo
        // suppressor one more: that latency is removed.
        blocker = FrameBlocker(frameFrames: frameFrames, channels: inChannels, outputChannels: mics,
                               latency: (preprocessors.isEmpty ? 0 : frameFrames) + (residual == nil ? 0 : frameFrames))
        micFloat = .allocate(capacity: frameFrames * mics)
        refFloat = .allocate(capacity: frameFrames * speakers)
        rec16 = .allocate(capacity: frameFrames * mics)
        play16 = .allocate(capacity: frameFrames * speakers)
        out16 = .allocate(capacity: frameFrames * mics)
        channel16 = .allocate(capacity: frameFrames)
        // The shadow's tail is at most `ShadowCanceller.shortTailSeconds`: it learns a new echo path fast.
        let shadowTail = min(tailFrames, max(frameFrames, Int((ShadowCanceller.shortTailSeconds * Double(rate)).rounded())))
        let pathChanges = ShadowCanceller(state: try makeState(tailFrames: shadowTail), learner: try makeState(tailFrames: shadowTail),
                                          frameFrames: frameFrames, mics: mics, rate: rate, handsBack: shadowTail < tailFrames)
        shadow = pathChanges
        // delay=auto warm-starts from the history; a shadow's retraining replays from it too.
        warmStartFrames = delaySetting == nil ? (Int((Self.warmStartSeconds * Double(rate)).rounded()) + maxDelayFrames) / frameFrames : 0
        let historyFrames = max(warmStartFrames, pathChanges.historyFrames)
        history = EchoHistory(frameFrames: frameFrames, mics: mics, speakers: speakers, maxDelay: maxDelayFrames, capacity: historyFrames)
        meter = ERLEMeter(sampleRate: rate)
        doubleTalk = DoubleTalkDetector(frameFrames: frameFrames, rate: rate)
        series = AECSeries(frameFrames: frameFrames, rate: rate)
        // Drift: only a reference of its own (ref=) can have a clock of its own.
        if refSpec != nil, drift != .off {
            let c = try DriftCompensator(channels: speakers, rate: rate, frameFrames: frameFrames)
            if case .ppm(let ppm) = drift { try c.engage(factor: 1 + ppm * 1e-6) }
            compensator = c
        }
        if refSpec != nil, drift == .auto {
            let coarse = DelayEstimator(sampleRate: rate, maxDelay: maxDelayFrames, windowSeconds: Self.coarseWindow, highestHz: Self.coarseBandHz)
            coarse.smoothing = 0
            coarseEstimator = coarse
            // With a fixed delay, the echo's lag is at most that delay and the tail.
            if let d = delaySetting {
                driftEstimator = DelayEstimator(sampleRate: rate, maxDelay: min(maxDelayFrames, d.frames(atRate: rate) + tailFrames))
            }
            tracker = DriftTracker(sampleRate: rate, limitPPM: ClockDriftSetting.limitPPM, lockStrength: coarse.threshold,
                                   windowSeconds: DelayEstimator.defaultWindowSeconds)
            coarseTiming = DriftLagTiming(smoothing: coarse.smoothing)
            bootstrap = DriftTracker(sampleRate: rate, limitPPM: ClockDriftSetting.limitPPM, lockStrength: coarse.threshold,
                                     windowSeconds: Self.coarseWindow, firstSpan: Self.bootstrapSpan, firstCount: Self.bootstrapCount)
        }
        if delaySetting == nil || tracker != nil {
            estimatorMic = .allocate(capacity: frameFrames)
            if speakers > 1 { estimatorRef = .allocate(capacity: frameFrames) }
        }
        if delaySetting == nil {
            estimator = DelayEstimator(sampleRate: rate, maxDelay: maxDelayFrames)
            // The first estimate may come from candidates up to 5 ms apart (a change must reach
            // 5 ms to be applied anyway): a room's strongest paths can take turns a few ms
            // apart, which within 1 ms would hold the first estimate back by analyses.
            estimator?.firstEstimateTolerance = rate / 200
        }
        if tracker != nil, let f = driftEstimator ?? estimator { fineTiming = DriftLagTiming(smoothing: f.smoothing) }
        var out = input
        out.channels = mics
        return out
    }

    /// A new speex echo state for this stream's frames, microphones and rate, `tailFrames` long.
    private func makeState(tailFrames: Int) throws -> OpaquePointer {
        guard let st = speex_echo_state_init_mc(Int32(frameFrames), Int32(tailFrames), Int32(mics), Int32(speakers)) else {
            throw AUPipeError(.software, "aec: speexdsp could not set up its echo canceller (\(frameFrames)-frame frames, \(tailFrames)-frame tail)")
        }
        states.append(st)
        var r = Int32(rate)
        speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &r)
        return st
    }

    public func maxOutputFrames(forInput inputFrames: Int) -> Int { blocker?.maxOutput(forInput: inputFrames) ?? inputFrames }

    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        let written = try blocker!.push(input, frames: frames, into: output) { try runFrame(into: blocker!.frameOut) }
        if !warnedShortReference, let end = referenceEndedAt, let reader, reader.framesDelivered > 0, !StopSignal.received {
            // The stream has gone on past the reference's end: say so once. (A reference with
            // no audio at all was announced by its reader; after a stop signal nothing goes on.)
            warnedShortReference = true
            warn("aupipe: aec: warning: the reference \(refSpec?.path ?? "") ended at \(String(format3: end)) s, before the stream; silence from there on")
        }
        return written
    }

    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        let written = try blocker!.finish(into: output) { try runFrame(into: blocker!.frameOut) }
        reader?.reportLate()
        series.finish()
        try plotFile?.write(plotSVG)
        return (written, true)
    }

    /// One frame: split microphone and reference, delay the reference, cancel, post-process.
    private func runFrame(into output: UnsafeMutablePointer<Float>) throws {
        guard var st = state, let blocker, let micFloat, let refFloat, let rec16, let play16, let out16, let history else { return }
        let frame = blocker.frame
        if let n = refChannel {
            for f in 0..<frameFrames {
                var m = 0
                for c in 0..<inChannels {
                    let x = frame[f * inChannels + c]
                    if c == n { refFloat[f] = x } else { micFloat[f * mics + m] = x; m += 1 }
                }
            }
        } else {
            micFloat.update(from: frame, count: frameFrames * mics)
            if let compensator {
                // Through the drift compensation: the end is placed where the canceller takes it.
                let ahead = Int64(compensator.engaged ? compensator.latency : 0)
                try compensator.take(into: refFloat) { buffer, frames in
                    let (_, endedAt) = try reader!.read(into: buffer, frames: frames)
                    try played?.play(buffer, frames: frames)
                    if let end = endedAt, referenceEndFrame == nil { referenceEndFrame = max(0, framesProcessed + Int64(end) - ahead) }
                }
            } else {
                let (_, endedAt) = try reader!.read(into: refFloat, frames: frameFrames)
                try played?.play(refFloat, frames: frameFrames)
                if let end = endedAt, referenceEndFrame == nil { referenceEndFrame = framesProcessed + Int64(end) }
            }
        }
        history.pushReference(refFloat)
        if let estimatorMic {
            // The estimators see the undelayed reference and the first microphone channel.
            for f in 0..<frameFrames { estimatorMic[f] = micFloat[f * mics] }
            var ref = UnsafePointer(refFloat)
            if let estimatorRef {
                // Several loudspeakers: their sum, for the bulk delay common to all of them.
                for f in 0..<frameFrames {
                    var x: Float = 0
                    for c in 0..<speakers { x += refFloat[f * speakers + c] }
                    estimatorRef[f] = x
                }
                ref = UnsafePointer(estimatorRef)
            }
            estimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames)
            driftEstimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames)
            // The coarse tracker is needed only until the fine one has a drift.
            if tracker?.drift == nil { coarseEstimator?.push(mic: estimatorMic, ref: ref, frames: frameFrames) }
            try track()
        }
        if let estimator {
            // Applied 10 ms early, so the echo's first taps are inside the filter; moves of less
            // than 5 ms are not worth re-adapting for.
            if delaySetting == nil, let e = estimator.estimate.map({ max(0, $0 - rate / 100) }),
               delayFoundAt == nil || abs(e - delayFrames) >= rate / 200 {
                if delayFoundAt == nil { delayFoundAt = Double(framesProcessed + Int64(frameFrames)) / Double(rate) }
                else { delayChanges += 1 }
                // A first estimate equal to the delay in use (0) leaves the canceller as it is.
                if e != delayFrames {
                    delayFrames = e
                    // A shadow running goes on: it is retrained at the new delay (a path change
                    // can move the delay estimate too).
                    (st, warmFrames) = warmStart(st, history: history, play: play16, scratch: out16)
                }
            }
        }
        // Drift compensation has just engaged: the canceller learnt a moving echo until now; it
        // starts again from the past warped to the alignment it holds from now on.
        if let warp = driftRetrain {
            driftRetrain = nil
            history.warpPast(by: warp)
            (st, driftRetrainedFrames) = warmStart(st, history: history, play: play16, scratch: out16, most: .max)
        }
        // A sudden fall of the cancellation (double talk or an echo-path change): a shadow
        // canceller, trained on the recent past, runs beside this one from now on.
        if let shadow {
            if doubleTalk.active, shadow.mayStart { shadow.start() }
            if let retrained = shadow.retrain(history: history, delay: delayFrames, play: play16, scratch: out16, inUse: st) {
                // The shadow took over and has been retrained since: the retrained state is in use.
                st = retrained
                state = st
            }
        }
        // The delay line: this frame's reference, `delayFrames` earlier.
        history.reference(back: 0, delay: delayFrames, into: play16)
        clipped += Speex16.fromFloat(micFloat, into: rec16, count: frameFrames * mics)
        speex_echo_cancellation(st, rec16, play16, out16)
        let refLevel = ERLEMeter.energy(play16, count: frameFrames * speakers) / Double(frameFrames * speakers)
        let verdict = shadow?.run(rec: rec16, play: play16, inUseOutput: out16, echo: refLevel > ERLEMeter.activeThreshold) ?? .none
        if let shadow, verdict == .takeOver {
            // The shadow cancels clearly more: an echo-path change. It is the canceller from now on.
            out16.update(from: shadow.output, count: frameFrames * mics)
            // The preprocessor stays with the replaced state while it runs on (`takeOver`).
            st = shadow.takeOver(replacing: st, at: Double(framesProcessed) / Double(rate), trail: preprocessorEcho != nil)
            state = st
            doubleTalk.pathChanged()
        } else if let shadow, verdict == .handBack {
            // The replaced full-tail canceller, still attached to the preprocessor, cancels as
            // much as the short shadow: it is the canceller again.
            out16.update(from: shadow.output, count: frameFrames * mics)
            st = shadow.handBack(inUse: st)
            state = st
        }
        history.record(mic: rec16)
        // The filter's own output, before the preprocessor: convergence is the filter's doing.
        let filtered = ERLEMeter.energy(out16, count: frameFrames * mics)
        if !preprocessors.isEmpty {
            if mics == 1 {
                // `filtered` (the meter, the double-talk detector) is the linear filter's output;
                // the nonlinear canceller's comes after it, and the preprocessor gets that.
                followPreprocessor(inUse: st)
                nonlinear?.run(cancelled: out16, reference: play16, speakers: speakers)
                residual?.capture(mic: rec16, cancelled: out16)
                if preprocessors[0].run(out16) { voiceFrames += 1 }
                residual?.run(out16, doubleTalk: doubleTalk.active, pathChanged: justChangedPath)
            } else if let ch = channel16 {
                for c in 0..<mics {
                    for f in 0..<frameFrames { ch[f] = out16[f * mics + c] }
                    preprocessors[c].run(ch)
                    for f in 0..<frameFrames { out16[f * mics + c] = ch[f] }
                }
            }
        }
        meter.add(mic: rec16, out: out16, filtered: filtered, ref: play16, n: frameFrames * mics, refCount: frameFrames * speakers, frames: frameFrames)
        let micEnergy = ERLEMeter.energy(rec16, count: frameFrames * mics), n = Double(frameFrames * mics)
        let talking = doubleTalk.add(mic: micEnergy / n, filtered: filtered / n, reference: refLevel)
        sinceDoubleTalk = talking ? 0 : sinceDoubleTalk + frameFrames
        let echo = refLevel > ERLEMeter.activeThreshold && micEnergy / n > ERLEMeter.micFloor
        series.add(echo: echo ? (micEnergy, ERLEMeter.energy(out16, count: frameFrames * mics)) : nil,
                   delayMS: delayInUseMS, driftPPM: driftPPM, doubleTalk: talking)
        Speex16.toFloat(out16, into: output, count: frameFrames * mics)
        framesProcessed += Int64(frameFrames)
        framesRun += 1
    }

    /// The filter adapted to the old alignment is wrong for the new one: the canceller starts
    /// afresh and is run again over the history (oldest frame first, the frames and microphone
    /// samples it saw, the reference at the new `delayFrames`), its output discarded into
    /// `scratch` (`frameFrames × mics`; `play`, `frameFrames`, takes the reference), so that
    /// it is now as converged as if it had had this delay all along, or over the history's
    /// length. Returns the state to go on with (`current`, or the spare that replaced it) and the
    /// DSP frames replayed (for `--stats`: the delay's warm start and the drift retraining each
    /// keep their own figure).
    ///
    /// When the history holds the whole stream so far (a first estimate within the history's
    /// length), the spare state made in `prepare`, never used, replaces `current` (the
    /// preprocessor is moved over to it): the canceller is then exactly the one a fixed
    /// `delay=` would have given. Otherwise `current` is reset: speex's reset leaves the
    /// filter's per-block step sizes and the echo estimate its preprocessor reads as they were
    /// until the filter counts as adapted again (a fresh state, replayed from the middle of the
    /// stream, can converge before speex counts it as adapted, and its preprocessor then sees no
    /// residual echo to suppress until the echo path changes).
    ///
    /// `most`: the DSP frames replayed at most (default a warm start's `warmStartFrames`; `.max`:
    /// all the history holds, as the retraining at the start of drift compensation replays, its
    /// past warped by `EchoHistory.warpPast`).
    private func warmStart(_ current: OpaquePointer, history: EchoHistory, play: UnsafeMutablePointer<Int16>,
                           scratch: UnsafeMutablePointer<Int16>, most: Int? = nil) -> (state: OpaquePointer, replayed: Int) {
        let st: OpaquePointer
        let replayed = min(history.framesHeld, most ?? warmStartFrames)
        if let fresh = freshState, replayed == framesRun {
            freshState = nil
            st = fresh
        } else {
            speex_echo_state_reset(current)
            st = current
        }
        state = st
        for back in stride(from: replayed, through: 1, by: -1) {
            history.reference(back: back, delay: delayFrames, into: play)
            speex_echo_cancellation(st, history.mic(back: back), play, scratch)
        }
        return (st, replayed)
    }

    /// Whether a shadow took over (a confirmed echo-path change) within `pathChangeSeconds`
    /// and the replaced canceller still runs beside it: the residual echo suppressor then takes
    /// the frames as echo unless the double-talk detector says otherwise.
    /// Attaches speex's preprocessor (one microphone) to the state it should read: the replaced
    /// full-tail state while it trails a take-over (`ShadowCanceller.takeOver`: speex estimates
    /// no residual echo for a state it does not yet count as adapted), else `st`, the one in use.
    private func followPreprocessor(inUse st: OpaquePointer) {
        guard let attached = preprocessorEcho else { return }
        let target = shadow.map { $0.trailing > 0 ? $0.state : st } ?? st
        if target != attached {
            for p in preprocessors { p.attach(echo: target) }
            preprocessorEcho = target
        }
    }

    private var justChangedPath: Bool {
        guard let shadow, shadow.trailing > 0, let at = shadow.lastTakeOver else { return false }
        return Double(framesProcessed) / Double(rate) - at < Self.pathChangeSeconds
    }
    static let pathChangeSeconds = 1.0

    /// `drift=auto`: the analyses just made, for the trackers (`tracker` on the fine one,
    /// `bootstrap` on the coarse one), and the compensation follows: `tracker`'s factor once it
    /// has a drift, until then `bootstrap`'s drift once that is beyond `bootstrapPPM`.
    private func track() throws {
        guard let compensator, let fine = tracker, let coarse = bootstrap, let c = coarseEstimator,
              let f = driftEstimator ?? estimator else { return }
        if f.estimatesMade + f.windowsSkipped != analysesSeen {
            analysesSeen = f.estimatesMade + f.windowsSkipped
            feed(fine, from: f, timing: &fineTiming, compensator: compensator)
            // Its own estimator (a fixed delay) analyses once a second once a drift is known:
            // a quarter of the cost, and drift changes slowly.
            if fine.drift != nil, f === driftEstimator { f.hopsPerAnalysis = 4 }
        }
        if fine.drift == nil, c.estimatesMade + c.windowsSkipped != coarseAnalysesSeen {
            coarseAnalysesSeen = c.estimatesMade + c.windowsSkipped
            feed(coarse, from: c, timing: &coarseTiming, compensator: compensator)
        }
        var factor: Double?
        if let d = fine.drift {
            // Once compensating (the coarse tracker's start), the fine drift takes over when its
            // own measurements follow one path; otherwise the compensation stays as it is.
            factor = fine.engaged ? fine.factor : (compensator.engaged && fine.followsOnePath ? 1 + d : nil)
        } else if let d = coarse.drift, abs(d) * 1e6 >= Self.bootstrapPPM, coarse.followsOnePath {
            factor = 1 + d
            bootstrapped = true
        }
        if let factor, factor != compensator.factor || !compensator.engaged {
            // The compensation's start: the canceller, adapted so far to an echo that moved, is
            // retrained on the past as the compensation would have made it (`driftRetrain`).
            if !compensator.engaged {
                compensationStartedAt = Double(framesProcessed + Int64(frameFrames)) / Double(rate)
                if abs(factor - 1) >= Self.driftRetrainLeast { driftRetrain = factor - 1 }
            }
            try compensator.engage(factor: factor)
        }
    }

    /// One analysis of `estimator` for `tracker` (`timing`: the blend of windows its lag stands
    /// for, `DriftLagTiming`); frozen while double talk is recent enough to be in it.
    private func feed(_ tracker: DriftTracker, from estimator: DelayEstimator, timing: inout DriftLagTiming, compensator: DriftCompensator) {
        timing.follow(estimator, compensator: compensator)
        let trusted = sinceDoubleTalk >= estimator.windowFrames + estimator.hopFrames
        tracker.analysis(time: timing.time, offset: timing.offset, compensating: compensator.engaged ? compensator.factor - 1 : 0, trusted: trusted,
                         strongest: estimator.strongestPeak, near: { estimator.peak(near: $0, radius: $1) })
    }

    /// The delay the reference has in the canceller, ms: `delay=` (or auto's) and what the drift
    /// compensation has added.
    private var delayInUseMS: Double { (Double(delayFrames) + (compensator?.offset ?? 0)) * 1000 / Double(rate) }

    /// The drift in ppm: `drift=PPM`'s, auto's estimate, or nil (none yet, or off).
    var driftPPM: Double? {
        switch drift {
        case .ppm(let ppm): return refSpec != nil ? ppm : nil
        case .auto: return tracker?.driftPPM ?? (bootstrapped ? bootstrap?.driftPPM : nil)
        case .off: return nil
        }
    }

    public var clippedSamples: Int { clipped }

    /// Whether the far end comes from `ref=` (which `--play` can play), not from an input channel.
    var readsReference: Bool { refSpec != nil }

    /// `--play`: from now on every frame of the far end is played on `device` as it is read,
    /// and the canceller gets it as played (see `PlayedReference`). Call after `prepare`.
    /// - Returns: the format the device must be opened in (s16le at the stream's rate, one
    ///   channel per loudspeaker)
    ///   through `attach`, and the most frames one call plays.
    var playbackFormat: (format: StreamFormat, maxFrames: Int) {
        (StreamFormat(encoding: .s16le, sampleRate: rate, channels: speakers), frameFrames)
    }

    func attach(_ playback: PlayedReference) { played = playback }

    public var statsNote: String? {
        var parts: [String] = []
        if let erle = meter.erle {
            parts.append("ERLE \(formatFixed(erle)) dB (median \(formatFixed(meter.medianERLE ?? erle)) dB)" + (meter.convergedAt.map { " after convergence at \(String(format3: $0)) s" }
                ?? " (not converged: the filter never cancelled \(formatNumber(ERLEMeter.convergedDB)) dB for 1 s)"))
        } else if meter.referencePlayed {
            parts.append("ERLE: no echo measured (less than 0.5 s with the far end playing and the microphone above \(formatNumber(ERLEMeter.micFloorDBFS)) dBFS)")
        } else {
            parts.append("ERLE: no echo measured (the far end never played)")
        }
        let ms = formatFixed(Double(delayFrames) * 1000 / Double(rate))
        if delaySetting == nil, let estimator {
            if let found = delayFoundAt {
                let warm = warmFrames > 0 ? ", canceller warm-started from \(String(format3: Double(warmFrames * frameFrames) / Double(rate))) s of history" : ""
                parts.append("delay \(ms) ms (auto: found at \(String(format3: found)) s, changed \(counted(delayChanges, "time")) since\(warm), correlation peak \(formatFixed(estimator.confidence))× its noise floor)")
            } else {
                parts.append("delay not found (auto: no confident estimate in \(counted(estimator.estimatesMade, "window")); the reference may not match the echo, or be silent): 0 ms used")
            }
        } else {
            parts.append("delay \(ms) ms")
        }
        if let shadow, shadow.started > 0 {
            let back = shadow.handedBack > 0 ? ", the full-tail canceller back in place \(counted(shadow.handedBack, "time"))" : ""
            let took = shadow.lastTakeOver.map { ", taking over \(counted(shadow.tookOver, "time")) (an echo-path change; the last at \(String(format3: $0)) s)\(back)" } ?? ", never taking over"
            parts.append("a shadow canceller ran after \(counted(shadow.started, "sudden fall")) of the cancellation\(took)")
        }
        if let drift = driftNote { parts.append(drift) }
        if played != nil { parts.append("the far end as played on --play's device") }
        if let end = referenceEndedAt { parts.append("the reference ended at \(String(format3: end)) s; silence after it") }
        if let late = reader?.underrunFrames, late > 0 { parts.append("\(counted(Int(late), "reference frame")) came late (silence)") }
        if vad, framesRun > 0 { parts.append("voice in \(voiceFrames * 100 / framesRun)% of frames (speex VAD)") }
        if let residual, residual.framesRun > 0 {
            parts.append("residual echo suppressor: its echo model adapted in \(residual.framesAdapted * 100 / residual.framesRun)% of frames")
            if let nl = nonlinear, nl.framesSeen > 0 {
                parts.append("its nonlinear canceller ran in \(nl.framesRun * 100 / nl.framesSeen)% of frames and took its estimate out in \(nl.framesOpen * 100 / nl.framesSeen)%")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// ERLE and its median (dB), convergence (s), each null when not measured or reached, the
    /// delay in use (ms), the drift (ppm, 0.1; null with `drift=off` or before an estimate), and
    /// the reference's frames that came late in real time (silence).
    public var statsFigures: [StatsFigure] {
        [StatsFigure("erleDB", meter.erle), StatsFigure("erleMedianDB", meter.medianERLE),
         StatsFigure("convergedAtSeconds", meter.convergedAt), StatsFigure("delayMS", Double(delayFrames) * 1000 / Double(rate)),
         StatsFigure("driftPPM", driftPPM.map { ($0 * 10).rounded() / 10 }), StatsFigure("referenceLateFrames", Double(reader?.underrunFrames ?? 0))]
    }

    /// The figures over stream time (`AECSeries`) for `--stats=json`.
    public var statsSeries: [StatsSeries] { series.statsSeries }

    /// `plot=`'s document.
    private var plotSVG: String {
        let erle = meter.erle.map { "ERLE \(formatFixed($0)) dB" } ?? "no echo measured"
        return series.svg(title: "aupipe aec: \(erle), delay \(formatFixed(Double(delayFrames) * 1000 / Double(rate))) ms, drift \(driftPPM.map { formatFixed($0) + " ppm" } ?? "n/a")")
    }

    /// The drift's part of the `--stats` note, nil when `drift=off` or the far end is an input channel.
    private var driftNote: String? {
        guard refSpec != nil else { return nil }
        switch drift {
        case .off: return nil
        case .ppm(let ppm): return "drift \(formatFixed(ppm)) ppm (given), reference resampled by \(formatFixed(ppm)) ppm"
        case .auto:
            guard let t = tracker, let compensator else { return nil }
            let resampled = compensator.engaged ? "reference resampled by \(formatFixed((compensator.factor - 1) * 1e6)) ppm at the end" : "reference used as read"
            if let ppm = t.driftPPM, let found = t.foundAt {
                let since = compensationStartedAt.map { "compensated from \(String(format3: $0)) s" + (driftRetrainedFrames > 0 ? " (the canceller retrained on \(String(format3: Double(driftRetrainedFrames * frameFrames) / Double(rate))) s of the past, warped)" : "") } ?? (t.heldBackByPath ? "not compensated: its measurements do not follow one path (a room without a direct path?)" : "not compensated yet (under two frames of drift over \(Int(DriftTracker.leastSpan)) s)")
                return "drift \(formatFixed(ppm)) ppm (auto: found at \(String(format3: found)) s from \(counted(t.measurements, "measurement")) of the echo's lag, \(since), \(resampled))"
            }
            if bootstrapped, let ppm = bootstrap?.driftPPM {
                return "drift \(formatFixed(ppm)) ppm (auto, coarse: the fine lag never settled; \(resampled))"
            }
            return "drift not found (auto: \(counted(t.measurements, "measurement")) of the echo's lag, too few or too short a span; \(resampled))"
        }
    }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case "erle": return meter.erle.map(formatFixed) ?? "n/a"
        case Keys.drift.name: return driftPPM.map { formatFixed($0) + "ppm" } ?? "n/a"
        case Keys.delay.name: return formatFixed(Double(delayFrames) * 1000 / Double(rate)) + "ms"
        default: return nil
        }
    }
}

