extension EchoCancellerUnit {
    /// What `aupipe help aec` says before the parameters: one screen. The rules behind it (the
    /// delay search and its warm start, drift, path changes, the residual suppressor, what
    /// --stats reports) are in the unit's manual section (`manual`).
    static let helpDetails = """
        The stream is the microphone (the near end); ref= names the far end, what the loudspeaker
        played (a file, a FIFO or <(command), any container, mixed to mono, or N channels with
        speakers=N, and resampled to the stream's rate), or ref-channel=N takes it from input channel
        N, which is then dropped. The output is the microphone without the echo, exactly as long as
        the input. delay=auto finds and follows the bulk delay, drift=auto a clock difference between
        microphone and far end; speex's preprocessor (preprocess=) and a residual and nonlinear echo
        suppressor (residual=, nonlinear=) take out what the linear filter leaves. With --play the
        far end is also played on a sound device; in a real-time run a late ref= is silence.
        --stats reports ERLE, delay, drift and double talk; plot= draws them.
        """
}
