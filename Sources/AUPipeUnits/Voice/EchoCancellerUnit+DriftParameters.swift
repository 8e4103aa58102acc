import AUPipeFormats
import AUPipeGraph

/// `aec drift=`: how the reference's clock is taken to relate to the microphone's.
///
/// The sign: a drift of +P ppm means the microphone records (1 + P·10⁻⁶) frames for every
/// frame of the reference, so the echo arrives progressively later (at +1000 ppm, 1 ms later
/// every second); the reference is then resampled to (1 + P·10⁻⁶) frames per frame read.
public enum ClockDriftSetting: Equatable, Sendable {
    /// Tracked from the signals (`DriftTracker`).
    case auto
    /// No compensation: the reference is used sample for sample as read.
    case off
    /// A known drift in ppm, −2000...2000, compensated from the start.
    case ppm(Double)

    /// The largest drift compensated, either way, in ppm.
    public static let limitPPM = 2000.0
}

extension ParameterType where Value == ClockDriftSetting {
    /// `auto`, `off`, or a drift in ppm within ±`ClockDriftSetting.limitPPM` (`-500`, `120ppm`).
    public static var clockDrift: Self {
        let limit = ClockDriftSetting.limitPPM
        return Self(.numberOrChoice(-limit...limit, unit: "ppm", ["auto", "off"]),
                    read: {
                        switch $0 {
                        case .text("auto"): .auto
                        case .text("off"): .off
                        case .number(let v): .ppm(v)
                        default: nil
                        }
                    },
                    text: {
                        switch $0 {
                        case .auto: "auto"
                        case .off: "off"
                        case .ppm(let v): formatNumber(v)
                        }
                    })
    }
}

/// `aec`'s clock-drift and plot parameters.
extension EchoCancellerUnit.Keys {
    /// The reference's clock relative to the microphone's: auto, off, or ppm (−2000...2000).
    public static let drift = Parameter("drift", .clockDrift, default: .auto,
                                        help: "clock drift of the microphone against ref=: auto (tracked), off, or PPM (positive: the echo comes progressively later)")
    /// An SVG of ERLE, delay, drift and double talk over stream time, written at the end.
    public static let plot = OptionalParameter("plot", .path,
                                               help: "draw ERLE, delay, drift and double talk over stream time into this SVG file at the end")
}
