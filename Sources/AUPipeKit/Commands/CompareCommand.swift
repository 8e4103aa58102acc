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
        func num(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        func side(_ path: String, _ h: StreamHeader, _ frames: Int64) -> String {
            "{\"path\":\(StatsPrinter.quote(path)),\"container\":\"\(h.container.rawValue)\",\"format\":\"\(h.format.spec)\",\"frames\":\(frames)}"
        }
        var fields = ["\"a\":\(side(o.a, r.a, r.framesA))", "\"b\":\(side(o.b, r.b, r.framesB))",
                      "\"framesCompared\":\(r.framesCompared)", "\"lsbOf\":\"\(r.coarser.token)\"",
                      "\"maxDifferenceLSB\":\(num(r.maxDifferenceLSB))", "\"maxDifferenceDBFS\":\(num(r.maxDifferenceDB))",
                      "\"rmsDifferenceDBFS\":\(num(r.rmsDifferenceDB))", "\"snrDB\":\(num(r.snrDB))"]
        if let at = r.maxAt { fields.append("\"maxAt\":{\"frame\":\(at.frame),\"channel\":\(at.channel)}") }
        if let d = r.firstDifference { fields.append("\"firstDifference\":{\"frame\":\(d.frame),\"channel\":\(d.channel),\"a\":\(d.a),\"b\":\(d.b)}") }
        fields.append("\"identical\":\(!r.incomparable && r.firstDifference == nil && r.framesA == r.framesB)")
        fields.append("\"pass\":\(r.failure == nil)")
        fields.append("\"failure\":\(r.failure.map(StatsPrinter.quote) ?? "null")")
        return "{" + fields.joined(separator: ",") + "}"
    }
}
