import AUPipeFormats
import AUPipeGraph

/// `mix`'s parameters; a bus's own options are `BusSpec.Options`.
extension MixUnit {
    /// Which input decides the mix's length (`duration=`).
    public enum LengthPolicy: String, CaseIterable, Sendable {
        /// The stream (bus 0).
        case first
        /// The last of the stream and the buses to end; looping buses are not waited for.
        case longest
        /// The first of the stream and the buses to end; looping buses never end.
        case shortest
    }

    /// What happens to samples beyond full scale (`overload=`).
    public enum Overload: String, CaseIterable, Sendable {
        /// Limit to [−1, 1], counted.
        case clip
        /// A soft knee above −1 dBFS towards full scale.
        case limit
    }

    public enum Keys {
        /// A bus: `PATH[,gain=DB][,pan=P][,offset=MS][,loop][,mute][,format=SPEC]` (see `BusSpec.Options`).
        public static let input = RepeatedParameter("input", .bus, help: "a bus: PATH[,gain=DB][,pan=P][,offset=MS][,loop][,mute][,format=SPEC]")
        /// Which input decides the length; default `first`.
        public static let duration = Parameter("duration", .choice(LengthPolicy.self), default: .first, help: "which input decides the length")
        /// Gain of bus 0 in dB, −120...60; live.
        public static let mainGain = Parameter("main-gain", .gainDB, default: 0, help: "gain of bus 0, the chain's own stream", live: true)
        /// Silences bus 0; live.
        public static let mainMute = Parameter("main-mute", .boolean, default: false, help: "silence bus 0", live: true)
        /// Gain of the mix in dB, −120...60; live.
        public static let outGain = Parameter("out-gain", .gainDB, default: 0, help: "gain of the mix", live: true)
        /// Clip (counted) or limit; default `clip`.
        public static let overload = Parameter("overload", .choice(Overload.self), default: .clip, help: "clip at full scale (counted), or a soft limiter")
        /// The longest wait for a live FIFO bus per block, 0...1000 ms (a bare number in ms).
        public static let wait = Parameter("wait", .duration(0...1, bareUnit: .milliseconds), default: .milliseconds(5), help: "longest wait for a live FIFO bus per block")
        /// Whether FIFO and pipe buses are read in real time (`RealTimePolicy`); default `auto`:
        /// as the run (real time with `--capture` or `--live`).
        public static let live = RealTimePolicy.parameter("read FIFO and pipe buses without waiting (late frames are silence)")

        /// Bus K's live parameters, addressed `busK.gain`, `busK.mute`, `busK.pan`.
        package static let busGain = OptionalParameter("gain", .gainDB, help: "bus gain", live: true)
        package static let busMute = OptionalParameter("mute", .boolean, help: "bus mute", live: true)
        package static let busPan = OptionalParameter("pan", .pan, help: "bus pan", live: true)
        package static let bus: [any AnyParameter] = [busGain, busMute, busPan]
    }
}
