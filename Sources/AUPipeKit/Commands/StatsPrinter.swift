/// `--stats`: per-unit figures on stderr after the run, as text or JSON.
package enum StatsPrinter {
    /// How the run ends: its exit status and, for a failed run, the error's message (JSON's
    /// `status` and `error`, so that a batch summary can leave failed runs out).
    package struct Outcome {
        package var status: ExitStatus = .ok
        package var error: String?
    }

    /// `paths` are the input and output as given (`-` for stdin and stdout; no input path for
    /// `--capture` and `gen`), which tell the runs of a batch apart in JSON.
    package static func print(_ r: RunReport, mode: StatsMode, paths: (input: String?, output: String?) = (nil, nil), outcome: Outcome = Outcome(),
                      console: any Console) {
        switch mode {
        case .off: return
        case .text:
            for d in r.devices where d.role == "capture" { console.err("aupipe: stats: \(d.text)") }
            console.err("aupipe: stats: input  \(r.input.container.rawValue) \(r.input.format.spec), \(counted(Int(r.framesIn), "frame"))")
            for (i, s) in r.stages.enumerated() {
                if s.bypassed {
                    console.err("aupipe: stats: \(i + 1) \(s.name): bypassed (nothing to do for this stream)")
                    continue
                }
                var line = "aupipe: stats: \(i + 1) \(s.name): in \(s.framesIn), out \(s.framesOut), peak \(dbText(s.peakDBFS)) dBFS, clipped \(s.clipped)"
                if let note = s.note { line += "; \(note)" }
                console.err(line)
            }
            console.err("aupipe: stats: output \(r.output.container.rawValue) \(r.output.format.spec), \(counted(Int(r.framesOut), "frame")), clipped \(r.encoderClipped)" +
                        (r.dither.map { ", dither \($0)" } ?? "") + (r.outputNonFinite.count > 0 ? ", non-finite \(r.outputNonFinite.count)" : "") + (r.sizesPatched ? ", header sizes patched" : "") +
                        (r.outputClosed ? ", closed by its reader before the end" : ""))
            for d in r.devices where d.role != "capture" { console.err("aupipe: stats: \(d.text)") }
            if !r.deviceGaps.isEmpty {
                let total = r.deviceGaps.reduce(0) { $0 + $1.lengthSeconds }
                console.err("aupipe: stats: device gaps: \(r.deviceGaps.count), \(DeviceLoss.seconds(total)) s in all")
                for (i, g) in r.deviceGaps.prefix(Self.gapsListed).enumerated() {
                    console.err("aupipe: stats: gap \(i + 1): \(g.option) \(g.device) at \(DeviceLoss.seconds(g.startSeconds)) s for \(DeviceLoss.seconds(g.lengthSeconds)) s, \(counted(g.frames, "frame"))")
                }
                if r.deviceGaps.count > Self.gapsListed {
                    console.err("aupipe: stats: (\(r.deviceGaps.count - Self.gapsListed) more gaps not listed)")
                }
            }
        case .json:
            console.err(json(r, paths: paths, outcome: outcome).text)
        }
    }

    /// The report as one JSON object on one line (see the manual's STATISTICS).
    package static func json(_ r: RunReport, paths: (input: String?, output: String?) = (nil, nil), outcome: Outcome = Outcome()) -> JSONObject {
        var input = JSONObject()
        if let path = paths.input { input.add("path", path) }
        input.add("container", r.input.container.rawValue)
        input.add("format", r.input.format.spec)
        input.add("frames", r.framesIn)
        let units = r.stages.map { s in
            var u = JSONObject()
            u.add("name", s.name)
            u.add("bypassed", s.bypassed)
            u.add("framesIn", s.framesIn)
            u.add("framesOut", s.framesOut)
            u.add("peakDBFS", number: (s.peakDBFS * 100).rounded() / 100)
            u.add("clipped", s.clipped)
            u.add("note", s.note)
            if !s.figures.isEmpty {
                var figures = JSONObject()
                for f in s.figures {
                    if let values = f.values { figures.add(f.name, numbers: values) } else { figures.add(f.name, number: f.value) }
                }
                u.add("figures", figures)
            }
            if !s.series.isEmpty {
                var series = JSONObject()
                for c in s.series { series.add(c.name, numbers: c.values) }
                u.add("series", series)
            }
            return u
        }
        var output = JSONObject()
        if let path = paths.output { output.add("path", path) }
        output.add("container", r.output.container.rawValue)
        output.add("format", r.output.format.spec)
        output.add("frames", r.framesOut)
        output.add("clipped", r.encoderClipped)
        output.add("dither", r.dither)
        output.add("nonFinite", r.outputNonFinite.count)
        output.add("sizesPatched", r.sizesPatched)
        output.add("closedByReader", r.outputClosed)
        var object = JSONObject()
        object.add("input", input)
        object.add("units", units)
        object.add("output", output)
        if !r.devices.isEmpty {
            object.add("devices", r.devices.map { d in
                var o = JSONObject()
                o.add("role", d.role)
                o.add("name", d.name)
                o.add("format", d.format.spec)
                o.add("periodFrames", d.periodFrames)
                o.add("bufferFrames", d.bufferFrames)
                o.add("xruns", d.xruns)
                o.add("note", d.note)
                return o
            })
        }
        if !r.devices.isEmpty {
            // Every gap, in order; the text lists the first `gapsListed`.
            object.add("deviceGaps", r.deviceGaps.map { g in
                var o = JSONObject()
                o.add("option", g.option)
                o.add("device", g.device)
                o.add("startSeconds", number: (g.startSeconds * 1000).rounded() / 1000)
                o.add("lengthSeconds", number: (g.lengthSeconds * 1000).rounded() / 1000)
                o.add("frames", g.frames)
                return o
            })
            object.add("deviceGapCount", r.deviceGaps.count)
            object.add("deviceGapSeconds", number: (r.deviceGaps.reduce(0) { $0 + $1.lengthSeconds } * 1000).rounded() / 1000)
        }
        object.add("status", Int(outcome.status.rawValue))
        object.add("error", outcome.error)
        return object
    }

    /// The gaps `--stats` lists one by one (the JSON has them all).
    package static let gapsListed = 20

    /// A level in dB to 0.01 dB, always with two decimals (`-9.00`), or `-inf` for silence.
    package static func dbText(_ db: Double) -> String {
        db.isFinite ? String(db, decimals: 2) : "-inf"
    }
}
