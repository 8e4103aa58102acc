import AUPipeFormats

/// A unit's `live=` setting: whether its side streams (a `mix` bus, `aec`'s reference, `tee`'s
/// copy) work in real time, or as the run says.
public enum LiveSetting: String, CaseIterable, Sendable {
    /// As the run: real time with a capture device or `--live`.
    case auto
    /// Real time even in a run that is not: late input is silence, a slow reader loses frames.
    case on
    /// Never real time, even in a run that is: side inputs are waited for, side outputs get
    /// every frame (the same bytes every run).
    case off
}

/// Whether a run is real time, and so how its side streams behave: the one place that decides.
///
/// It is decided from what the run is told and what it opens, never from timing: a capture
/// device (`--capture`) or `--live` makes the run real time; files and pipes alone do not.
///
/// - Not real time: a side input is waited for (blocking reads) and a side output gets every
///   frame (blocking writes), so the bytes are the same on every run.
/// - Real time: the stream never stalls; late side input is silence and a slow side output's
///   reader loses whole frames, both reported on stderr and counted in `--stats`; the default
///   resampler is the low-latency one.
///
/// A unit's `live=` (`LiveSetting`) overrides the run's setting for that unit's side streams.
public struct RealTimePolicy: Equatable, Sendable {
    /// Whether the run itself is real time (a capture device, or `--live`).
    public let runIsRealTime: Bool

    public init(runIsRealTime: Bool) {
        self.runIsRealTime = runIsRealTime
    }

    /// A run that is not real time (files, pipes, a generated stream without `--live`).
    public static let offline = RealTimePolicy(runIsRealTime: false)
    /// A real-time run (a capture device, or `--live`).
    public static let realTime = RealTimePolicy(runIsRealTime: true)

    /// Whether a unit whose `live=` is `setting` works in real time.
    public func isRealTime(_ setting: LiveSetting) -> Bool {
        switch setting {
        case .auto: return runIsRealTime
        case .on: return true
        case .off: return false
        }
    }

    /// The `live=` parameter of a unit with side streams (`mix`, `aec`, `tee`); `what` says
    /// what real time does to them ("read FIFO buses without waiting").
    public static func parameter(_ what: String) -> Parameter<LiveSetting> {
        Parameter("live", .choice(LiveSetting.self), default: .auto,
                  help: "\(what): auto as the run (real time with --capture or --live), on, or off (the same bytes every run)")
    }
}
