/// `aec`'s name for the fixed-frame service, `FixedFrames` in `Graph/` (gathering into whole
/// frames with a zero-padded last one, the latency trimmed and the length exact). It goes once
/// `aec` names `FixedFrames` itself.
typealias FrameBlocker = FixedFrames
