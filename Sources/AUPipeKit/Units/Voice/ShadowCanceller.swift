#if canImport(Glibc)
import Glibc
#endif
import CSpeexDSP

/// `aec`'s answer to an echo-path change: a second speex echo state that, once the canceller's
/// cancellation has suddenly fallen (`DoubleTalkDetector`), starts afresh and runs beside the
/// canceller in use, on the same frames, until one of them has clearly won; for its first
/// `replaySeconds` it is retrained on all it has seen (`EchoHistory`) every `retrainSeconds`.
///
/// A sudden fall of the cancellation is either double talk (the near end talking: the
/// microphone is no longer explained by the far end, and the filter in use, adapted before,
/// is the better one) or a change of the echo path (someone moved, a door opened: the
/// microphone is still the far end through a room, and a filter that learns from the frames
/// after the change cancels far more than the old one, which speex re-adapts only slowly). The
/// shadow tells them apart by outcome: it takes over only when its own output has been
/// `winDB` quieter than the output in use over `window` seconds of frames with echo, after at
/// least `leastSeconds` beside it; a linear filter cannot cancel a near end, so in double talk
/// it never wins and is dropped after `mostSeconds`. The canceller in use at the fall is never
/// reset; a shadow that has taken over goes on being retrained until `replaySeconds` after it
/// started.
///
/// Only while a shadow runs is speex run twice per frame, and each retraining replays up to
/// `passes` × `replaySeconds` of frames (about 40 ms of CPU per fall at 16 kHz, release
/// build, default tail); otherwise it costs nothing, and it never changes a sample unless it takes over.
/// The state, its output buffer and everything else are allocated in `init`.
final class ShadowCanceller {
    /// A shadow is retrained on what it has seen every `retrainSeconds` up to `replaySeconds`
    /// after it started, `passes` times over.
    static let replaySeconds = 1.0, retrainSeconds = 0.2, passes = 3
    /// How much quieter (dB) the shadow's output must be to take over, over how long (s), and
    /// the least and most time (s) it runs beside the canceller.
    static let winDB = 6.0, window = 0.2, leastSeconds = 0.2, mostSeconds = 2.0
    /// The least time (s) between the end of one shadow and the start of the next.
    static let pauseSeconds = 0.5

    let frameFrames: Int, mics: Int
    /// The replay's length, and the least/most/pause times and the window, in DSP frames.
    let replayFrames: Int, retrainFrames: Int
    private let leastFrames: Int, mostFrames: Int, pauseFrames: Int
    private let smooth: Double
    private let winRatio = pow(10, ShadowCanceller.winDB / 10)
    /// The shadow's speex state, and its output of the latest frame.
    private(set) var state: OpaquePointer
    let output: UnsafeMutablePointer<Int16>
    /// Whether a shadow runs now, for how many frames it has, frames since the last one ended.
    private(set) var running = false
    private var ran = 0, idle = Int.max / 2
    /// The state being retrained (the shadow's, and after a take-over the same state, now in
    /// use, until `replayFrames` after the start), and the frames since the start.
    private var learner: OpaquePointer?
    private var learned = 0
    /// Smoothed output energies over frames with echo: the canceller in use, the shadow.
    private var inUse = 0.0, shadow = 0.0
    /// Shadows started and shadows that took over, over the stream.
    private(set) var started = 0, tookOver = 0
    /// Stream time (s) of the latest take-over.
    private(set) var lastTakeOver: Double?

    /// `state` is a speex echo state for these frames and channels, never used by anyone else.
    init(state: OpaquePointer, frameFrames: Int, mics: Int, rate: Int) {
        self.state = state
        self.frameFrames = frameFrames
        self.mics = mics
        let seconds = Double(frameFrames) / Double(rate)
        func frames(_ s: Double) -> Int { max(1, Int((s / seconds).rounded())) }
        replayFrames = frames(Self.replaySeconds)
        retrainFrames = frames(Self.retrainSeconds)
        leastFrames = frames(Self.leastSeconds)
        mostFrames = frames(Self.mostSeconds)
        pauseFrames = frames(Self.pauseSeconds)
        smooth = 1 - exp(-seconds / Self.window)
        output = .allocate(capacity: frameFrames * mics)
        output.initialize(repeating: 0, count: frameFrames * mics)
    }

    deinit { output.deallocate() }

    /// Whether a shadow may start now: none runs, and the last one ended `pauseSeconds` ago.
    var mayStart: Bool { !running && idle >= pauseFrames }

    /// Starts a shadow: the state is reset, to learn from this frame on.
    func start() {
        speex_echo_state_reset(state)
        running = true
        ran = 0
        learner = state
        learned = 0
        inUse = 0
        shadow = 0
        started += 1
    }

    /// Call at the start of each frame: every `retrainFrames` up to `replayFrames` after a
    /// shadow started, its state (the one in use, if it has taken over meanwhile) is reset and
    /// trained again, `passes` times over, on all it has seen so far (the history's last frames
    /// since the start, the reference at `delay`; output discarded into `scratch`, `play`
    /// takes the reference): a fresh filter learns the new echo path from a fraction of a
    /// second several times faster so than from one pass.
    func retrain(history: EchoHistory, delay: Int, play: UnsafeMutablePointer<Int16>, scratch: UnsafeMutablePointer<Int16>) {
        guard let learner, learned > 0, learned % retrainFrames == 0 else { return }
        speex_echo_state_reset(learner)
        for _ in 0..<Self.passes {
            for back in stride(from: min(learned, history.framesHeld), through: 1, by: -1) {
                history.reference(back: back, delay: delay, into: play)
                speex_echo_cancellation(learner, history.mic(back: back), play, scratch)
            }
        }
    }

    /// Stops the shadow without a take-over (the delay changed, or it lost).
    func stop() {
        running = false
        idle = 0
        learner = nil
    }

    /// One frame beside the canceller in use: the shadow cancels `rec` with `play` into
    /// `output`; `inUseOutput` is the canceller's output of the same frame, `echo` whether the
    /// frame has echo (the far end playing). Returns true when the shadow takes over: the caller
    /// then uses `output` and `takeOver(replacing:)`s its state. Not running: does nothing.
    func run(rec: UnsafePointer<Int16>, play: UnsafePointer<Int16>, inUseOutput: UnsafePointer<Int16>, echo: Bool) -> Bool {
        if learner != nil {
            learned += 1
            if learned > replayFrames { learner = nil }
        }
        guard running else {
            idle += 1
            return false
        }
        speex_echo_cancellation(state, rec, play, output)
        ran += 1
        if echo {
            let n = frameFrames * mics
            inUse += smooth * (ERLEMeter.energy(inUseOutput, count: n) - inUse)
            shadow += smooth * (ERLEMeter.energy(output, count: n) - shadow)
        }
        if ran >= leastFrames, shadow * winRatio < inUse { return true }
        if ran >= mostFrames { stop() }
        return false
    }

    /// The shadow has won at stream time `time` (s): its state is the one in use from now on;
    /// `old`, the state it replaces, becomes the next shadow's. Returns the shadow's state.
    func takeOver(replacing old: OpaquePointer, at time: Double) -> OpaquePointer {
        let won = state
        state = old
        tookOver += 1
        lastTakeOver = time
        running = false
        idle = 0
        return won
    }
}
