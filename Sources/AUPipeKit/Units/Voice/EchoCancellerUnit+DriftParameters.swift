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
                                               help: "draw ERLE, delay, drift and double talk over stream time into this SVG file at the end; no default")
}

extension EchoCancellerUnit {
    /// `aupipe help aec`'s paragraphs on `drift=` and `plot=`.
    static let driftDetails = """

        drift=auto (the default, with ref=) follows a difference between the clocks of the microphone and of the far end (a loudspeaker on another device, a reference recorded elsewhere: 20-1000 ppm are common; at 100 ppm the echo moves 6 ms a minute, at 1000 ppm 1 ms a second) and resamples the reference continuously so that the echo stays where the canceller's filter has it, within a sample. It measures the echo's lag to a fraction of a sample every quarter second (the peak of the delay estimator's correlation, followed from one analysis to the next), fits its trend over the last 30 s (robustly: a median of slopes) and, once the drift would have moved the echo by two frames over 6 s of measurements (at once beyond 300 ppm), resamples the reference by 1 + drift, plus a correction that holds the lag where it was then; either acts only while its measurements follow one path (within a frame of their line at 16 kHz (3 frames at 48 kHz), plus a quarter of what the drift moves the echo within one analysis window, and three quarters of the slopes between them agreeing; in a diffuse room without a direct path the peak wanders between taps and reads as a drift: compensation then waits for the fine estimate, and --stats says the measurements do not follow one path); it follows a drift that changes over tens of seconds, within +-2000 ppm. A faster, coarser estimate over 1.5 s (shorter windows, the band below 3 kHz) starts the compensation for drifts of 60 ppm or more about 2.2 s into the stream, until the fine one takes over. When the compensation starts for a drift of 30 ppm or more, the canceller, which has so far adapted to an echo that moved, is retrained once on the history it keeps (2 s with delay=auto, 1.5 s plus max-delay=; about 1.2 s with a fixed delay=) as the compensation would have made it (the reference's past warped by the drift found, which every later replay and the delay line read the same way; a burst of speex work in one frame, like a delay's warm start: about 10 ms of CPU at 16 kHz with the default tail, three times that at 48 kHz): on the bench's drift scenes (+-100, +-500, +-1000 ppm) this brought the ERLE after 3 s from 14-25 dB to 36-47 dB. It holds still during double talk (a sudden fall of the filter's cancellation) and while the far end is silent. Until it compensates, the reference is used sample for sample as read. drift=PPM compensates a known drift from the start; positive means the microphone records more frames than the reference has (1 + PPM/1e6 per reference frame), so the echo comes progressively later. drift=off uses the reference as read. A reference from ref-channel= shares the microphone's clock: drift does nothing there. --stats reports the drift (JSON figure driftPPM), --control reads it (get aec.drift).
        plot=FILE.svg writes, at the end, three panels over stream time: the ERLE (dB, the output against the microphone while the far end plays), the delay the reference has in the canceller (ms: delay= or auto's, plus what the drift compensation added), and the drift (ppm); double talk is shaded. Points are every 100 ms (longer runs keep at most 3000 points: pairs are merged when the buffer fills, so memory stays bounded); --stats=json carries the same points as series: t, erleDB, delayMS, driftPPM, doubleTalk. A converged canceller shows an ERLE trace that climbs within a second or two and stays high while the far end plays, with dips where double talk is shaded; compensated drift shows as a straight ramp of the delay (1 ms per second at 1000 ppm) and a flat drift trace; a drift not compensated shows as an ERLE that sinks over the run.
        """
}
