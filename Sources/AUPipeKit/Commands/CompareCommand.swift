/// `aupipe compare A B`: prints the comparison on stdout, as text or JSON, and returns 0 when
/// the streams are within tolerance, 1 when they are not (diff's convention).
public enum CompareCommand {
    public static func report(_ r: ComparisonResult, options o: CompareOptions, console: any Console) -> ExitStatus {
        if o.json {
            console.out(json(r, o))
        } else {
            for line in text(r, o) { console.out(line) }
        }
        return r.failure == nil ? .ok : .differs
    }

    static func describe(_ h: StreamHeader) -> String { "\(h.container.rawValue) \(h.format.spec)" }

    static func text(_ r: ComparisonResult, _ o: CompareOptions) -> [String] {
        let counted = { (frames: Int64) in r.incomparable ? "not read" : "\(frames) frames" }
        var lines = ["A: \(o.a): \(describe(r.a)), \(counted(r.framesA))", "B: \(o.b): \(describe(r.b)), \(counted(r.framesB))"]
        if !r.incomparable {
            if let at = r.maxAt {
                lines.append("max difference: \(formatFixed(r.maxDifferenceLSB)) LSB of \(r.coarser.token) (\(formatFixed(r.maxDifferenceDB)) dBFS) at frame \(at.frame), channel \(at.channel)")
            } else {
                lines.append("max difference: 0 (the \(r.framesCompared) common frames are identical)")
            }
            lines.append("rms difference: \(formatFixed(r.rmsDifferenceDB)) dBFS")
            lines.append("snr: \(formatFixed(r.snrDB)) dB")
            if let d = r.firstDifference {
                lines.append("first difference: frame \(d.frame), channel \(d.channel): A \(d.a), B \(d.b)")
            }
        }
        lines.append(r.failure.map { "result: differ: \($0)" } ?? (r.firstDifference == nil ? "result: identical" : "result: within tolerance"))
        return lines
    }

    static func json(_ r: ComparisonResult, _ o: CompareOptions) -> String {
        func side(_ path: String, _ h: StreamHeader, _ frames: Int64) -> JSONObject {
            var s = JSONObject()
            s.add("path", path)
            s.add("container", h.container.rawValue)
            s.add("format", h.format.spec)
            s.add("frames", frames)
            return s
        }
        func place(_ frame: Int64, _ channel: Int) -> JSONObject {
            var p = JSONObject()
            p.add("frame", frame)
            p.add("channel", channel)
            return p
        }
        var object = JSONObject()
        object.add("a", side(o.a, r.a, r.framesA))
        object.add("b", side(o.b, r.b, r.framesB))
        object.add("framesCompared", r.framesCompared)
        object.add("lsbOf", r.coarser.token)
        object.add("maxDifferenceLSB", number: r.maxDifferenceLSB)
        object.add("maxDifferenceDBFS", number: r.maxDifferenceDB)
        object.add("rmsDifferenceDBFS", number: r.rmsDifferenceDB)
        object.add("snrDB", number: r.snrDB)
        if let at = r.maxAt { object.add("maxAt", place(at.frame, at.channel)) }
        if let d = r.firstDifference {
            var first = place(d.frame, d.channel)
            first.add("a", number: d.a)
            first.add("b", number: d.b)
            object.add("firstDifference", first)
        }
        object.add("identical", !r.incomparable && r.firstDifference == nil && r.framesA == r.framesB)
        object.add("pass", r.failure == nil)
        object.add("failure", r.failure)
        return object.text
    }
}
