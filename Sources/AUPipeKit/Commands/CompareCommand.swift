/// `aupipe compare A B`: prints the comparison on stdout, as text or JSON. The exit status is
/// the verdict: 0 when the streams are within tolerance, 1 when they differ (diff's
/// convention), and the sysexits status of the cause when they could not be compared: 65 for
/// formats that cannot be compared sample by sample (rate, channels, sample types without
/// `--ignore-format`) or bad input, 66 for an input that cannot be opened, 74 for a failed read.
public enum CompareCommand {
    public static func run(_ o: CompareOptions, console: any Console) throws -> ExitStatus {
        let r: ComparisonResult
        do {
            r = try StreamComparison.compare(o)
        } catch let e as AUPipeError {
            // No report to give, but a script reading --json still gets an object with the reason.
            if o.json { console.out(errorJSON(e, o)) }
            throw e
        }
        return try report(r, options: o, console: console)
    }

    /// Prints the report; the status, or the error of streams that could not be compared.
    public static func report(_ r: ComparisonResult, options o: CompareOptions, console: any Console) throws -> ExitStatus {
        if o.json {
            console.out(json(r, o))
        } else {
            for line in text(r, o) { console.out(line) }
        }
        if let f = r.failure, f.reason.cannotCompare { throw AUPipeError.data("compare: \(f.message)") }
        return r.failure == nil ? .ok : .differs
    }

    package static func describe(_ h: StreamHeader) -> String { "\(h.container.rawValue) \(h.format.spec)" }

    package static func text(_ r: ComparisonResult, _ o: CompareOptions) -> [String] {
        let length = { (frames: Int64) in r.incomparable ? "not read" : counted(Int(frames), "frame") }
        var lines = ["A: \(o.a): \(describe(r.a)), \(length(r.framesA))", "B: \(o.b): \(describe(r.b)), \(length(r.framesB))"]
        guard r.compared else { return lines + ["result: cannot compare"] }
        if r.framesA != r.framesB {
            let what = r.framesCompared == 0 ? "none (\(r.framesA == 0 ? "A" : "B") is empty)" : "the first \(counted(Int(r.framesCompared), "frame"))"
            lines.append("compared: \(what) (lengths differ by \(counted(Int(abs(r.framesA - r.framesB)), "frame")))")
        }
        if let lsb = r.maxDifferenceLSB, let db = r.maxDifferenceDB, let rms = r.rmsDifferenceDB, let snr = r.snrDB {
            if let at = r.maxAt {
                lines.append("max difference: \(formatFixed(lsb)) LSB of \(r.coarser.token) (\(formatFixed(db)) dBFS) at frame \(at.frame), channel \(at.channel)")
            } else {
                lines.append("max difference: 0 (no difference in \(counted(Int(r.framesCompared), "compared frame")))")
            }
            lines.append("rms difference: \(formatFixed(rms)) dBFS")
            lines.append("snr: \(formatFixed(snr)) dB")
        } else {
            lines.append("max difference: none (no frames compared)")
        }
        if r.nonFiniteA.count > 0 || r.nonFiniteB.count > 0 {
            lines.append("non-finite (NaN, inf): A \(r.nonFiniteA.text); B \(r.nonFiniteB.text); in one stream only: \(r.nonFiniteMismatches.text)")
        }
        if let d = r.firstDifference {
            lines.append("first difference: frame \(d.frame), channel \(d.channel): A \(d.a), B \(d.b)")
        }
        let lengths = r.framesA != r.framesB ? " (lengths differ by \(counted(Int(abs(r.framesA - r.framesB)), "frame")), allowed by \(o.allowLength?.option ?? ""))" : ""
        if let f = r.failure {
            lines.append("result: differ: \(f.message)")
        } else if r.identical {
            lines.append("result: identical")
        } else {
            lines.append("result: within tolerance\(lengths)")
        }
        return lines
    }

    package static func json(_ r: ComparisonResult, _ o: CompareOptions) -> String {
        func side(_ path: String, _ h: StreamHeader, _ frames: Int64) -> JSONObject {
            var s = JSONObject()
            s.add("path", path)
            s.add("container", h.container.rawValue)
            s.add("format", h.format.spec)
            s.add("frames", r.compared ? Optional(frames) : nil)
            return s
        }
        func place(_ frame: Int64, _ channel: Int) -> JSONObject {
            var p = JSONObject()
            p.add("frame", frame)
            p.add("channel", channel)
            return p
        }
        func nonFinite(_ n: NonFiniteSamples) -> JSONObject {
            var o = JSONObject()
            o.add("count", n.count)
            if let f = n.first { o.add("first", place(f.frame, f.channel)) }
            return o
        }
        var object = JSONObject()
        object.add("a", side(o.a, r.a, r.framesA))
        object.add("b", side(o.b, r.b, r.framesB))
        object.add("compared", r.compared)
        object.add("framesCompared", r.compared ? Optional(r.framesCompared) : nil)
        object.add("lsbOf", r.coarser.token)
        // JSON has no infinity: an infinite figure is the largest double with its sign, as jq
        // writes infinity, so that `.snrDB >= 90` holds for identical streams and not for -inf;
        // null is kept for a figure not measured (no frame compared).
        func figure(_ v: Double?) -> Double? { v.map { $0.isInfinite ? ($0 > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude) : $0 } }
        object.add("maxDifferenceLSB", number: figure(r.maxDifferenceLSB))
        object.add("maxDifferenceDBFS", number: figure(r.maxDifferenceDB))
        object.add("rmsDifferenceDBFS", number: figure(r.rmsDifferenceDB))
        object.add("snrDB", number: figure(r.snrDB))
        if let at = r.maxAt { object.add("maxAt", place(at.frame, at.channel)) }
        if let d = r.firstDifference {
            var first = place(d.frame, d.channel)
            first.add("a", number: d.a)
            first.add("b", number: d.b)
            first.add("aText", d.a.isFinite ? nil : "\(d.a)")
            first.add("bText", d.b.isFinite ? nil : "\(d.b)")
            object.add("firstDifference", first)
        }
        if r.compared {
            var n = JSONObject()
            n.add("a", nonFinite(r.nonFiniteA))
            n.add("b", nonFinite(r.nonFiniteB))
            n.add("mismatched", nonFinite(r.nonFiniteMismatches))
            object.add("nonFinite", n)
        }
        object.add("identical", r.identical)
        object.add("pass", r.failure == nil)
        object.add("status", Int(status(r).rawValue))
        object.add("reason", r.failure?.reason.rawValue)
        object.add("failure", r.failure?.message)
        return object.text
    }

    /// The exit status of a comparison that ran.
    package static func status(_ r: ComparisonResult) -> ExitStatus {
        guard let f = r.failure else { return .ok }
        return f.reason.cannotCompare ? .dataError : .differs
    }

    /// The object `--json` prints when an input could not be opened or read: the paths, the
    /// status and the reason, with no figures.
    package static func errorJSON(_ e: AUPipeError, _ o: CompareOptions) -> String {
        var object = JSONObject()
        for (key, path) in [("a", o.a), ("b", o.b)] {
            var s = JSONObject()
            s.add("path", path)
            object.add(key, s)
        }
        object.add("compared", false)
        object.add("identical", false)
        object.add("pass", false)
        object.add("status", Int(e.status.rawValue))
        object.add("reason", CompareFailure.Reason.of(e).rawValue)
        object.add("failure", e.message)
        return object.text
    }
}
