import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// `meter`: passes the audio untouched and measures it as EBU R128 and ITU-R BS.1770-4 say,
/// per stream: momentary (400 ms), short-term (3 s) and integrated loudness (LUFS, gated),
/// loudness range (LU), true peak (dBTP, oversampled), sample peak and RMS (dBFS).
///
/// The figures are in `--stats` (text and JSON), readable while running through `--control`
/// (`get meter.integrated`, `momentary`, `shortterm`, `range`, `truepeak`, `peak`, `rms`), as a
/// JSON line every `every=` of stream time (stderr, or `to=`, which may be a FIFO: a line its
/// reader has no room for is dropped, never waited for), and as an SVG plot at the end.
public final class MeterUnit: AudioUnit, StatsReporting, LiveControllable, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "meter",
        summary: "measure loudness (EBU R128), true peak, peak and RMS; audio untouched",
        details: """
            Passes the stream through byte for byte and measures it with libebur128 (ITU-R BS.1770-4, EBU R128 gating): integrated loudness (LUFS), loudness range (LU), momentary (400 ms) and short-term (3 s) loudness, true peak (dBTP, 4x oversampled below 96 kHz), sample peak and RMS (dBFS, all channels). Each channel is weighted as BS.1770-4 says for where it plays, from the WAV channel mask or CAF layout (or the default layout for the count): 1.41 for side and surround channels between 60 and 120 degrees of azimuth (SL, SR; BL, BR without SL, SR, as in 5.1), 1.0 for front, centre, rear (BL, BR beside SL, SR, and BC: unlike ffmpeg's ebur128, which weighs them 1.41) and height channels, the LFE left out. --stats prints them at the end (JSON figures integratedLUFS, loudnessRangeLU, truePeakDBTP, samplePeakDBFS, rmsDBFS, nonFiniteSamples). A NaN or infinite sample in float input is measured as the sample before them (the audio passes as it is), counted (nonFiniteSamples) and reported on stderr once. While running, --control reads them: get meter.integrated, meter.momentary, meter.shortterm, meter.range, meter.truepeak, meter.peak, meter.rms. every= writes one JSON line per interval of stream time, {"t":SECONDS,"momentary":..,"shortterm":..,"integrated":..,"range":..,
            "truepeak":..,"peak":..,"rms":..}, with truepeak, peak and rms over the interval and null for silence, to stderr or to=; a FIFO's reader that is too slow loses lines, never stalls the stream. plot= draws momentary and short-term loudness and true peak (every 100 ms, and at the end of a last part interval) over stream time as an SVG file at the end.
            """,
        parameters: [Keys.every, Keys.to, Keys.plot],
        primary: nil,
        example: "arecord -f S16_LE -r 48000 -c 2 | aupipe --live meter every=1s to=levels.jsonl | opusenc - out.opus",
        exercise: UnitExercise(["every=100ms", "to=\(UnitExercise.sideOutput).jsonl"]),
        manual: manualText,
        make: { v in
            let every = v[Keys.every] ?? (v[Keys.to] != nil ? .seconds(1) : nil)
            return try MeterUnit(every: every, to: v[Keys.to], plot: v[Keys.plot])
        })

    /// Seconds of the plot's points.
    public static let plotInterval = 0.1

    public let every: StreamDuration?
    public let plotPath: String?
    private let plotFile: PlotFile?
    private let lines: (any LineOutputStream)?
    private var meter: LoudnessMeter?
    /// NaN and infinities kept out of the figures (measured as the sample before them), and counted.
    private var finite: FiniteMeasure?
    private var channels = 1, rate = 1
    private var frames: Int64 = 0
    private var lineFrames = 0, plotFrames = 0
    private var nextLine: Int64 = .max, nextPoint: Int64 = .max
    /// Over the whole stream: sum of squares of every sample, and their count.
    private var sumSquares = 0.0, samples = 0
    /// Since the last line: true peak, sample peak (linear), sum of squares and count.
    private var lineTruePeak = 0.0, linePeak = 0.0, lineSquares = 0.0, lineSamples = 0
    /// Since the last plot point: true peak (linear).
    private var pointTruePeak = 0.0
    private var line = LevelLine()
    private var plot: LoudnessPlot?

    public init(every: StreamDuration?, to: String?, plot: String?) throws {
        self.every = every
        plotPath = plot
        lines = every == nil ? nil : try UnitStreams.opener.lineOutput(path: to, label: "meter to=")
        plotFile = try plot.map { try PlotFile(path: $0, unit: "meter", example: "levels.svg") }
    }

    deinit { line.deallocate() }

    public var sideOutputs: [(role: String, path: String)] {
        [lines?.path.map { ("meter to=", $0) }, plotPath.map { ("meter plot=", $0) }].compactMap { $0 }
    }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        rate = context.input.sampleRate
        guard let m = LoudnessMeter(channels: channels, sampleRate: rate, layout: context.layout) else {
            throw AUPipeError.usage("meter: cannot measure a stream at \(rate) Hz with \(counted(channels, "channel")) (libebur128 takes 16 Hz to 2822400 Hz)")
        }
        meter = m
        finite = FiniteMeasure(owner: "meter", channels: channels, sampleRate: rate, maxFrames: context.maxFrames)
        if let every {
            lineFrames = max(1, every.frames(atRate: rate))
            nextLine = Int64(lineFrames)
        }
        if plotPath != nil {
            plotFrames = max(1, Int((Self.plotInterval * Double(rate)).rounded()))
            nextPoint = Int64(plotFrames)
            plot = LoudnessPlot(interval: Double(plotFrames) / Double(rate))
        }
        return context.input
    }

    /// Passes the samples on untouched.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { input }

    public func process(_ input: UnsafePointer<Float>, frames count: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        output.update(from: input, count: count * channels)
        guard let meter, let finite else { return count }
        var done = 0
        // Cut the block where a line or a plot point falls, so each reads the stream up to its time.
        while done < count {
            let n = Int(min(Int64(count - done), min(nextLine, nextPoint) - frames))
            finite.measure(input + done * channels, frames: n, from: frames) { p, m in
                meter.add(p, frames: m)
                var squares = 0.0
                for i in 0..<(m * channels) { let v = Double(p[i]); squares += v * v }
                sumSquares += squares; samples += m * channels
                lineSquares += squares; lineSamples += m * channels
                let tp = meter.lastTruePeak
                lineTruePeak = max(lineTruePeak, tp)
                pointTruePeak = max(pointTruePeak, tp)
                linePeak = max(linePeak, meter.lastSamplePeak)
            }
            frames += Int64(n)
            done += n
            if frames == nextPoint {
                plot?.add(momentary: meter.momentary, shortTerm: meter.shortTerm, truePeak: decibels(linear: pointTruePeak))
                pointTruePeak = 0
                nextPoint += Int64(plotFrames)
            }
            if frames == nextLine {
                try writeLine()
                nextLine += Int64(lineFrames)
            }
        }
        return count
    }

    private func writeLine() throws {
        guard let meter, let lines else { return }
        line.format(seconds: Double(frames) / Double(rate),
                    (meter.momentary, meter.shortTerm, meter.integrated, meter.range, decibels(linear: lineTruePeak),
                     decibels(linear: linePeak), Self.rms(lineSquares, lineSamples)))
        try lines.write(line.bytes, count: line.count)
        lineTruePeak = 0; linePeak = 0; lineSquares = 0; lineSamples = 0
    }

    /// At the end: a last line for a part interval, the lines' destination closed, the plot drawn.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        if lines != nil, lineSamples > 0 { try writeLine() }
        try lines?.finish()
        if let plotFile, var plot {
            // A part interval at the end gets a last point, at the end of the stream.
            if frames != nextPoint - Int64(plotFrames) {
                plot.finish(momentary: meter?.momentary ?? -.infinity, shortTerm: meter?.shortTerm ?? -.infinity,
                            truePeak: decibels(linear: pointTruePeak), seconds: Double(frames) / Double(rate))
            }
            try plotFile.write(plot.svg(title: "aupipe meter: integrated \(Self.text(integrated)) LUFS, range \(Self.text(range)) LU, true peak \(Self.text(truePeak)) dBTP"))
        }
        return (0, true)
    }

    package static func rms(_ squares: Double, _ count: Int) -> Double { count > 0 && squares > 0 ? 10 * (squares / Double(count)).log10 : -.infinity }

    /// A level to 0.1 dB, or `-inf`.
    package static func text(_ v: Double) -> String { v.isFinite ? String(v, decimals: 1) : "-inf" }

    // MARK: figures

    public var integrated: Double { meter?.integrated ?? -.infinity }
    public var range: Double { meter?.range ?? 0 }
    public var truePeak: Double { decibels(linear: meter?.truePeak ?? 0) }
    public var samplePeak: Double { decibels(linear: meter?.samplePeak ?? 0) }
    public var rms: Double { Self.rms(sumSquares, samples) }
    /// NaN and infinite samples in the input so far (measured as the sample before them).
    public var nonFiniteSamples: Int64 { finite?.count ?? 0 }

    /// `; N non-finite samples (NaN or inf) measured as the sample before`, or nothing when there were none.
    package static func nonFiniteNote(_ n: Int64) -> String {
        n == 0 ? "" : "; \(counted(Int(n), "non-finite sample")) (NaN or inf) measured as the sample before"
    }

    public var statsNote: String? {
        var s = "integrated \(Self.text(integrated)) LUFS, range \(Self.text(range)) LU, true peak \(Self.text(truePeak)) dBTP, sample peak \(Self.text(samplePeak)) dBFS, RMS \(Self.text(rms)) dBFS"
            + Self.nonFiniteNote(nonFiniteSamples)
        if let lines, lines.isStream { s += "; \(lines.written) lines written, \(lines.dropped) dropped" }
        return s
    }

    public var statsFigures: [StatsFigure] {
        func n(_ v: Double) -> Double? { v.isFinite ? (v * 100).rounded() / 100 : nil }
        var f = [StatsFigure("integratedLUFS", n(integrated)), StatsFigure("loudnessRangeLU", n(range)),
                 StatsFigure("truePeakDBTP", n(truePeak)), StatsFigure("samplePeakDBFS", n(samplePeak)), StatsFigure("rmsDBFS", n(rms)),
                 StatsFigure("nonFiniteSamples", Double(nonFiniteSamples))]
        if let lines { f += [StatsFigure("linesWritten", Double(lines.written)), StatsFigure("linesDropped", Double(lines.dropped))] }
        return f
    }

    /// The figures `get meter.NAME` reads.
    public static let readings = ["integrated", "momentary", "shortterm", "range", "truepeak", "peak", "rms"]
    public var readableFigures: [String] { Self.readings }

    public func parameterValue(_ name: String) -> String? {
        let v: Double
        switch name {
        case "integrated": v = integrated
        case "momentary": v = meter?.momentary ?? -.infinity
        case "shortterm": v = meter?.shortTerm ?? -.infinity
        case "range": v = range
        case "truepeak": v = truePeak
        case "peak": v = samplePeak
        case "rms": v = rms
        default: return nil
        }
        return v.isFinite ? String(v, decimals: 2) : "-inf"
    }
}
