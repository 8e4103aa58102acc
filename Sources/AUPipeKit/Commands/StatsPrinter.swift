/// `--stats`: per-unit figures on stderr after the run, as text or JSON.
enum StatsPrinter {
    static func print(_ r: RunReport, mode: StatsMode, console: any Console) {
        switch mode {
        case .off: return
        case .text:
            for d in r.devices where d.role == "capture" { console.err("aupipe: stats: \(d.text)") }
            console.err("aupipe: stats: input  \(r.input.container.rawValue) \(r.input.format.spec), \(r.framesIn) frames")
            for (i, s) in r.stages.enumerated() {
                if s.bypassed {
                    console.err("aupipe: stats: \(i + 1) \(s.name): bypassed (nothing to do for this stream)")
                    continue
                }
                var line = "aupipe: stats: \(i + 1) \(s.name): in \(s.framesIn), out \(s.framesOut), peak \(dbText(s.peakDBFS)) dBFS, clipped \(s.clipped)"
                if let note = s.note { line += "; \(note)" }
                console.err(line)
            }
            console.err("aupipe: stats: output \(r.output.container.rawValue) \(r.output.format.spec), \(r.framesOut) frames, clipped \(r.encoderClipped)" +
                        (r.sizesPatched ? ", header sizes patched" : ""))
            for d in r.devices where d.role != "capture" { console.err("aupipe: stats: \(d.text)") }
        case .json:
            let devices = r.devices.map { d in
                "{\"role\":\"\(d.role)\",\"name\":\(quote(d.name)),\"format\":\"\(d.format.spec)\",\"periodFrames\":\(d.periodFrames)," +
                "\"bufferFrames\":\(d.bufferFrames),\"xruns\":\(d.xruns),\"note\":\(d.note.map(quote) ?? "null")}"
            }
            let units = r.stages.map { s in
                "{\"name\":\(quote(s.name)),\"bypassed\":\(s.bypassed),\"framesIn\":\(s.framesIn),\"framesOut\":\(s.framesOut)," +
                "\"peakDBFS\":\(s.peakDBFS.isFinite ? dbText(s.peakDBFS) : "null"),\"clipped\":\(s.clipped),\"note\":\(s.note.map(quote) ?? "null")}"
            }
            console.err("{\"input\":{\"container\":\"\(r.input.container.rawValue)\",\"format\":\"\(r.input.format.spec)\",\"frames\":\(r.framesIn)}," +
                        "\"units\":[\(units.joined(separator: ","))]," +
                        "\"output\":{\"container\":\"\(r.output.container.rawValue)\",\"format\":\"\(r.output.format.spec)\",\"frames\":\(r.framesOut)," +
                        "\"clipped\":\(r.encoderClipped),\"sizesPatched\":\(r.sizesPatched)}" +
                        (r.devices.isEmpty ? "" : ",\"devices\":[\(devices.joined(separator: ","))]") + "}")
        }
    }

    static func dbText(_ db: Double) -> String {
        guard db.isFinite else { return "-inf" }
        let v = (db * 100).rounded() / 100
        return formatNumber(v)
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
