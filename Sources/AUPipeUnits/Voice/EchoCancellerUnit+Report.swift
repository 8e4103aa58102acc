import AUPipeFormats
import AUPipeGraph

/// `aec`'s report, handed out from what its parts measured: the `--stats` note and figures
/// (pulled by the chain, `StatsReporting`), the series over time (`--stats=json`), `plot=`'s
/// document (written by the chain, `PlotReporting`), the figures `get` reads
/// (`LiveControllable`), and the warning for a reference that ended before the stream (said by
/// `process` the moment the stream passes the reference's end).
extension EchoCancellerUnit {
    /// The delay in use, ms (0 before `prepare`).
    private var delayMS: Double { alignment?.delayMS ?? 0 }

    /// The drift in ppm: `drift=PPM`'s, auto's estimate, or nil (none yet, or off).
    package var driftPPM: Double? { alignment?.driftPPM }

    public var statsNote: String? {
        var parts: [String] = []
        if let erle = meter.erle {
            parts.append("ERLE \(formatFixed(erle)) dB (median \(formatFixed(meter.medianERLE ?? erle)) dB)" + (meter.convergedAt.map { " after convergence at \(String(format3: $0)) s" }
                ?? " (not converged: the filter never cancelled \(formatNumber(ERLEMeter.convergedDB)) dB for 1 s)"))
        } else if meter.referencePlayed {
            parts.append("ERLE: no echo measured (less than 0.5 s with the far end playing and the microphone above \(formatNumber(ERLEMeter.micFloorDBFS)) dBFS)")
        } else {
            parts.append("ERLE: no echo measured (the far end never played)")
        }
        let ms = formatFixed(delayMS)
        if configuration.fixedDelay == nil, let alignment, let estimator = alignment.estimator {
            if let found = alignment.delayFoundAt {
                let warmFrames = linear?.warmFrames ?? 0
                let warm = warmFrames > 0 ? ", canceller warm-started from \(String(format3: Double(warmFrames * layout.frameFrames) / Double(layout.rate))) s of history" : ""
                parts.append("delay \(ms) ms (auto: found at \(String(format3: found)) s, changed \(counted(alignment.delayChanges, "time")) since\(warm), correlation peak \(formatFixed(estimator.confidence))× its noise floor)")
            } else {
                parts.append("delay not found (auto: no confident estimate in \(counted(estimator.estimatesMade, "window")); the reference may not match the echo, or be silent): 0 ms used")
            }
        } else {
            parts.append("delay \(ms) ms")
        }
        if let shadow = pathChange?.shadow, shadow.fastStarts > 0 {
            let back = pathChange?.fastStartBackAt.map { ", the full tail back at \(String(format3: $0)) s" } ?? ""
            let took = shadow.fastStartTookOverAt.map { "the short filter in use from \(String(format3: $0)) s\(back)" } ?? "the short filter never in use"
            // Later fast starts cover warm starts too long for one frame (`LinearEchoCanceller.replayFits`).
            let first = alignment?.automatic == true ? "fast start at the first delay" : "fast start at the drift's engagement"
            let more = shadow.fastStarts > 1 ? "; \(counted(shadow.fastStarts - 1, "more fast start")) for a warm start too long for one frame" : ""
            parts.append("\(first): \(took)\(more)")
        }
        if let shadow = pathChange?.shadow, shadow.started > 0 {
            let back = shadow.handedBack > 0 ? ", the full-tail canceller back in place \(counted(shadow.handedBack, "time"))" : ""
            let took = shadow.lastTakeOver.map { ", taking over \(counted(shadow.tookOver, "time")) (an echo-path change; the last at \(String(format3: $0)) s)\(back)" } ?? ", never taking over"
            parts.append("a shadow canceller ran after \(counted(shadow.started, "sudden fall")) of the cancellation\(took)")
        }
        if let drift = driftNote { parts.append(drift) }
        if played != nil { parts.append("the far end as played on --play's device") }
        if let end = referenceEndedAt { parts.append("the reference ended at \(String(format3: end)) s; silence after it") }
        if let late = reader?.underrunFrames, late > 0 { parts.append("\(counted(Int(late), "reference frame")) came late (silence)") }
        let framesRun = linear?.framesRun ?? 0
        if configuration.preprocess?.vad ?? false, framesRun > 0 { parts.append("voice in \((postFilter?.voiceFrames ?? 0) * 100 / framesRun)% of frames (speex VAD)") }
        if let residual = postFilter?.residual, residual.framesRun > 0 {
            parts.append("residual echo suppressor: its echo model adapted in \(residual.framesAdapted * 100 / residual.framesRun)% of frames")
            if let sign = postFilter?.sign, sign.framesSeen > 0 {
                parts.append("the loudspeaker's distortion sign on in \(sign.framesOn * 100 / sign.framesSeen)% of frames (loud frames' linear residual \(sign.loudShareDB.map { formatFixed($0) + " dB" } ?? "not measured"))")
            }
            if let nl = postFilter?.nonlinear, nl.framesSeen > 0 {
                parts.append("its nonlinear canceller ran in \(nl.framesRun * 100 / nl.framesSeen)% of frames and took out half or more of its estimate in \(nl.framesOpen * 100 / nl.framesSeen)%")
            }
        }
        if let comfort = postFilter?.comfort, comfort.framesRun > 0 {
            parts.append("comfort noise in \(comfort.framesFilled * 100 / comfort.framesRun)% of frames")
        }
        if let split = bandSplit {
            let cut = split.gain.framesRun > 0 ? ", the upper band's gain 6 dB down or more in \(split.gain.framesCut * 100 / (split.gain.framesRun * layout.mics))% of frames" : ""
            parts.append("band split: the canceller on a \(layout.rate) Hz low band (the stream's \(streamRate) Hz ÷ \(split.factor)), \(formatFixed(Double(split.roundTripDelay) * 1000 / Double(streamRate))) ms of latency added\(cut)")
        }
        if worstFrame.frames > 0 {
            parts.append("worst frame \(String(format3: worstFrame.seconds * 1000)) ms of thread CPU time (\(String(worstFrameShare * 100, decimals: 1))% of its \(formatFixed(frameSeconds * 1000)) ms)")
        }
        return parts.joined(separator: ", ")
    }

    /// A frame's real time (s).
    private var frameSeconds: Double { Double(layout.frameFrames) / Double(layout.rate) }

    /// The worst frame's CPU time over its real time.
    private var worstFrameShare: Double { worstFrame.seconds / frameSeconds }

    /// ERLE and its median (dB), convergence (s), each null when not measured or reached, the
    /// delay in use (ms), the drift (ppm, 0.1; null with `drift=off` or before an estimate), and
    /// the reference's frames that came late in real time (silence), and the worst frame's
    /// processing in thread CPU time (ms, and as a fraction of the frame's real time; null
    /// before any frame).
    public var statsFigures: [StatsFigure] {
        [StatsFigure("erleDB", meter.erle), StatsFigure("erleMedianDB", meter.medianERLE),
         StatsFigure("convergedAtSeconds", meter.convergedAt), StatsFigure("delayMS", delayMS),
         StatsFigure("driftPPM", driftPPM.map { ($0 * 10).rounded() / 10 }), StatsFigure("referenceLateFrames", Double(reader?.underrunFrames ?? 0)),
         StatsFigure("worstFrameMS", worstFrame.frames > 0 ? worstFrame.seconds * 1000 : nil),
         StatsFigure("worstFrameRealTimeFraction", worstFrame.frames > 0 ? worstFrameShare : nil)]
    }

    /// The figures over stream time (`AECSeries`) for `--stats=json`.
    public var statsSeries: [StatsSeries] { series.statsSeries }

    /// `plot=`'s file and document, written by the chain once aec has drained.
    package var endOfStreamPlot: (file: PlotFile, svg: String)? { configuration.plotFile.map { ($0, plot) } }

    /// `plot=`'s document: the series over time, titled with the ERLE, delay and drift.
    private var plot: String {
        let erle = meter.erle.map { "ERLE \(formatFixed($0)) dB" } ?? "no echo measured"
        return series.svg(title: "aupipe aec: \(erle), delay \(formatFixed(delayMS)) ms, drift \(driftPPM.map { formatFixed($0) + " ppm" } ?? "n/a")")
    }

    /// The warning for a stream that has gone on past the reference's end, or nil. (A reference
    /// with no audio at all was announced by its reader; after a stop signal nothing goes on.)
    package var shortReferenceWarning: String? {
        guard let end = referenceEndedAt, let reader, reader.framesDelivered > 0, !StopSignal.received else { return nil }
        return "aupipe: aec: warning: the reference \(configuration.reference?.path ?? "") ended at \(String(format3: end)) s, before the stream; silence from there on"
    }

    /// The drift's part of the `--stats` note, nil when `drift=off` or the far end is an input channel.
    private var driftNote: String? {
        guard configuration.reference != nil else { return nil }
        switch configuration.drift {
        case .off: return nil
        case .ppm(let ppm): return "drift \(formatFixed(ppm)) ppm (given), reference resampled by \(formatFixed(ppm)) ppm"
        case .auto:
            guard let alignment, let t = alignment.tracker, let compensator = alignment.compensator else { return nil }
            let resampled = compensator.engaged ? "reference resampled by \(formatFixed((compensator.factor - 1) * 1e6)) ppm at the end" : "reference used as read"
            if let ppm = t.driftPPM, let found = t.foundAt {
                let retrained = linear?.driftRetrainedFrames ?? 0
                let since = alignment.compensationStartedAt.map { "compensated from \(String(format3: $0)) s" + (retrained > 0 ? " (the canceller retrained on \(String(format3: Double(retrained * layout.frameFrames) / Double(layout.rate))) s of the past, warped)" : "") } ?? (t.heldBackByPath ? "not compensated: its measurements do not follow one path (a room without a direct path?)" : "not compensated yet (under two frames of drift over \(Int(DriftTracker.leastSpan)) s)")
                return "drift \(formatFixed(ppm)) ppm (auto: found at \(String(format3: found)) s from \(counted(t.measurements, "measurement")) of the echo's lag, \(since), \(resampled))"
            }
            if alignment.bootstrapped, let ppm = alignment.bootstrap?.driftPPM {
                return "drift \(formatFixed(ppm)) ppm (auto, coarse: the fine lag never settled; \(resampled))"
            }
            return "drift not found (auto: \(counted(t.measurements, "measurement")) of the echo's lag, too few or too short a span; \(resampled))"
        }
    }

    public func parameterValue(_ name: String) -> String? {
        switch name {
        case "erle": return meter.erle.map(formatFixed) ?? "n/a"
        case Keys.drift.name: return driftPPM.map { formatFixed($0) + "ppm" } ?? "n/a"
        case Keys.delay.name: return formatFixed(delayMS) + "ms"
        default: return nil
        }
    }
}
