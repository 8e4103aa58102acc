/// What `EchoPostFilter.run` reads of one frame besides the linear canceller's output: the
/// canceller's own signals, the watch's verdicts (`EchoPathChange`) and the alignment's far end.
/// Made afresh each frame by its memberwise initializer (pointers and one object reference:
/// nothing allocates).
package struct EchoFrameContext {
    /// The canceller's microphone input (`frameFrames × mics`, 16-bit) and its reference at the
    /// bulk delay (`frameFrames × speakers`).
    package var rec: UnsafePointer<Int16>, play: UnsafePointer<Int16>
    /// The echo state speex's preprocessor is to read (`EchoPathChange.preprocessorEcho`).
    package var echo: EchoState
    /// Double talk (the held detector's, `EchoPathChange.nearTalk`) and a confirmed echo-path
    /// change (`EchoPathChange.justChanged`), as `ResidualEchoSuppressor.run` takes them.
    package var doubleTalk: Bool, pathChanged: Bool
    /// Whether the reference played in this frame (for the comfort noise).
    package var farEnd = false
    /// The far end before the delay line (`frameFrames × speakers`, full scale 1) and the bulk
    /// delay (samples; nil: not yet found), for the residual echo suppressor's far-end echo model.
    package var reference: UnsafePointer<Float>? = nil, delay: Int? = nil
    /// `echo`'s output of this frame when it is not the state in use (a replaced state trailing a
    /// take-over), for the suppressor's leak estimate as speex's preprocessor reads it.
    package var echoOutput: UnsafePointer<Int16>? = nil
    /// A shadow's output of this frame while one started at a fall runs (`ShadowEvidence`).
    package var shadowOutput: UnsafePointer<Int16>? = nil
}
