import AUPipeFormats
import AUPipeGraph

/// `mute`'s parameters.
extension MuteUnit {
    /// The signal that toggles `on`.
    public enum Signal: String, CaseIterable, Sendable {
        case usr1, usr2

        /// 1 for SIGUSR1, 2 for SIGUSR2 (as `aupipe_count_user_signal` numbers them).
        package var number: Int32 { self == .usr1 ? 1 : 2 }
    }

    public enum Keys {
        /// Muted (true) or not; without it, muted unless `at` is given. Live.
        public static let on = OptionalParameter("on", .boolean, help: "muted (1) or not (0); default 1, or 0 with at=", live: true)
        /// Fade length at each change, 0...1000 ms (a bare number in ms).
        public static let ramp = Parameter("ramp", .duration(0...1, bareUnit: .milliseconds), default: .milliseconds(20), help: "fade length at each change")
        /// Stream-time intervals to mute.
        public static let at = OptionalParameter("at", .timeRanges, help: "stream-time intervals to mute, e.g. 1.5-3,5-6, or 30- to the end")
        /// A signal that toggles `on` each time it comes.
        public static let signal = OptionalParameter("signal", .choice(Signal.self), help: "toggle on= at each SIGUSR1 (usr1) or SIGUSR2 (usr2)")
    }
}
