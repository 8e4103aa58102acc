import AUPipeFormats
import AUPipeGraph
import CSpeexDSP

/// The settings of speexdsp's preprocessor (noise suppression, automatic gain, voice activity,
/// dereverberation, and residual-echo suppression when an echo canceller is attached).
public struct PreprocessSettings: Equatable, Sendable {
    /// Noise suppression in dB (negative; speex's default is -15), or nil for none.
    public var denoise: Double?
    /// AGC target level (speex's units: 1...32768, a signal level in 16-bit samples), or nil.
    public var agcLevel: Double?
    public var vad = false
    public var dereverb = false
    /// Residual echo suppression in dB while only the far end talks, and while both do.
    public var echoSuppress: Double = -40
    public var echoSuppressActive: Double = -15

    public init() {}

    /// True when the preprocessor has anything to do without an echo canceller.
    package var isActive: Bool { denoise != nil || agcLevel != nil || vad || dereverb }
    /// True when, beside an echo canceller, the preprocessor only suppresses residual echo and
    /// noise (no AGC, VAD or dereverberation): what the residual echo suppressor can do in its
    /// own STFT (`SuppressorPreprocess`).
    package var suppressesOnly: Bool { agcLevel == nil && !vad && !dereverb }
}

/// One channel's speex preprocessor state, with `settings` applied; 16-bit frames, in place.
package final class Preprocessor {
    private let state: OpaquePointer
    /// The echo state speex reads the residual echo from (nil: none attached). Held here, so
    /// that the state speex reads lives as long as it is attached.
    package private(set) var echo: EchoState?

    package init(frameFrames: Int, sampleRate: Int, settings: PreprocessSettings, echo: EchoState?) throws {
        guard let st = speex_preprocess_state_init(Int32(frameFrames), Int32(sampleRate)) else {
            throw AUPipeError(.software, "speexdsp could not set up its preprocessor for \(frameFrames)-frame frames at \(sampleRate) Hz")
        }
        state = st
        func set(_ request: Int32, _ value: Int32) { var v = value; speex_preprocess_ctl(st, request, &v) }
        func setFloat(_ request: Int32, _ value: Float) { var v = value; speex_preprocess_ctl(st, request, &v) }
        // speex applies its spectral gain, which also carries residual-echo suppression, only
        // with denoise on: with an echo canceller it is on, with a 0 dB noise floor unless asked.
        set(SPEEX_PREPROCESS_SET_DENOISE, settings.denoise == nil && echo == nil ? 0 : 1)
        if settings.denoise != nil || echo != nil {
            set(SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32((settings.denoise ?? 0).rounded()))
        }
        set(SPEEX_PREPROCESS_SET_AGC, settings.agcLevel == nil ? 0 : 1)
        if let level = settings.agcLevel { setFloat(SPEEX_PREPROCESS_SET_AGC_LEVEL, Float(level)) }
        if settings.vad { set(SPEEX_PREPROCESS_SET_VAD, 1) } // speex warns on every SET_VAD call
        set(SPEEX_PREPROCESS_SET_DEREVERB, settings.dereverb ? 1 : 0)
        if let echo {
            // SET_ECHO_STATE takes the echo state itself as its argument, not a pointer to it.
            speex_preprocess_ctl(st, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(echo.pointer))
            self.echo = echo
            set(SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, Int32(settings.echoSuppress.rounded()))
            set(SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, Int32(settings.echoSuppressActive.rounded()))
        }
    }

    deinit { speex_preprocess_state_destroy(state) }

    /// Attaches the preprocessor to another echo state (its residual echo from now on).
    package func attach(echo: EchoState) {
        speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(echo.pointer))
        self.echo = echo
    }

    /// Processes one frame in place; returns speex's voice-activity decision (true with VAD off).
    @discardableResult
    package func run(_ frame: UnsafeMutablePointer<Int16>) -> Bool { speex_preprocess_run(state, frame) != 0 }
}
