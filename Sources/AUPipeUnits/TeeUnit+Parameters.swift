import AUPipeFormats
import AUPipeGraph

/// `tee`'s parameters.
extension TeeUnit {
    public enum Keys {
        /// Where the copy goes: a regular file, a FIFO or `>(command)`; stdout (`-`) only when
        /// `-o FILE` is the main output.
        public static let path = OptionalParameter("path", .path, help: "where the copy goes: a file, a FIFO, >(command), or - (stdout) when -o FILE is the output; no default")
        /// The container; default: the path's extension, or WAV.
        public static let type = OptionalParameter("type", .choice(ContainerKind.self), help: "container of the copy; default: the path's extension, or wav")
        /// The copy's sample encoding; default: the stream's, as the container holds it.
        public static let format = OptionalParameter("format", .encoding, help: "sample format of the copy; default: the stream's, moved to what the container holds")
        /// FIFOs and pipes: wait for a slow reader instead of dropping frames, even in real time.
        public static let block = Parameter("block", .boolean, default: false, help: "FIFOs and pipes: wait for a slow reader instead of dropping late frames, even in a real-time run")
        /// FIFOs and pipes: the most audio queued for a slow reader, 10 ms ... 60 s.
        public static let queue = Parameter("queue", .duration(0.01...60, bareUnit: .milliseconds), default: .seconds(2),
                                            help: "FIFOs and pipes: the most audio held for a slow reader before frames are dropped")
        /// FIFOs and pipes: whether they are written in real time (`RealTimePolicy`); default
        /// `auto`: as the run (real time with `--capture` or `--live`).
        public static let live = RealTimePolicy.parameter("FIFOs and pipes never stall the stream (late frames dropped)")
    }
}
