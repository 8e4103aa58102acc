import AUPipeFormats
import AUPipeGraph

/// The manual sections of the filter units, made from the same parameters the parser reads,
/// so that each states the range, the default and the bare value as the code has them.
extension FilterUnit {
    /// A unit's section (roff, after its `.SS` line): `details`, then one tagged paragraph per
    /// parameter, then `extra` (roff).
    package static func manual(details: String, parameters: [any AnyParameter], primary: String?, extra: String = "") -> String {
        var lines = [roff(details)]
        for p in parameters.map(\.descriptor) {
            lines += [".TP", ".BI \(roff(p.name))= VALUE"]
            if p.name == primary { lines.append("(bare value)") }
            var text = p.help.prefix(1).uppercased() + p.help.dropFirst() + "."
            if let range = rangeText(p.kind) { text += " \(range)." }
            text += p.defaultValue.map { " Default \($0)." } ?? (p.help.contains("default") ? "" : " No default.")
            if p.isLive { text += " Live: \\-\\-control can change it while running (a 20 ms glide)." }
            lines.append(roff(text))
        }
        return (lines + (extra.isEmpty ? [] : [extra])).joined(separator: "\n")
    }

    /// A parameter's range as the manual writes it (`1 to 384000 Hz`), or nil.
    package static func rangeText(_ kind: ParameterDescriptor.Kind) -> String? {
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        switch kind {
        case .number(let r, let unit): return "Range \(n(r.lowerBound)) to \(n(r.upperBound))\(unit.isEmpty ? "" : " " + unit)"
        case .integer(let r): return "Range \(r.lowerBound) to \(r.upperBound)"
        case .choice(let words): return "One of \(words.joined(separator: ", "))"
        case .custom(let k): return k.typeDescription
        default: return nil
        }
    }

    /// Plain text made safe for roff (hyphens and backslashes escaped, a `\-` already escaped
    /// kept; a leading dot guarded). One pass over the UTF-8 bytes (`\` and `-` are never part
    /// of a longer character's bytes): every run with a unit builds the descriptors, these
    /// sections included.
    package static func roff(_ text: String) -> String {
        let backslash = UInt8(ascii: "\\"), hyphen = UInt8(ascii: "-"), e = UInt8(ascii: "e")
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        while let c = next {
            next = bytes.next()
            if c == backslash && next == hyphen {
                out.append(backslash); out.append(hyphen)
                next = bytes.next()
            } else if c == backslash || c == hyphen {
                out.append(backslash); out.append(c == hyphen ? hyphen : e)
            } else {
                out.append(c)
            }
        }
        let escaped = String(decoding: out, as: UTF8.self)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
