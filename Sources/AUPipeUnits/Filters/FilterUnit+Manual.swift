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

    /// Plain text made safe for roff (hyphens and backslashes escaped; a leading dot guarded):
    /// `\-` stays, any other backslash becomes `\e`, a hyphen `\-`. One pass over the bytes:
    /// every filter unit's descriptor writes its manual when the registry is built, which every
    /// run with a chain pays at start-up.
    package static func roff(_ text: String) -> String {
        let backslash = UInt8(ascii: "\\"), hyphen = UInt8(ascii: "-")
        var body: [UInt8] = []
        body.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
        if let first = text.utf8.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "'") { body += [backslash, UInt8(ascii: "&")] }
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                escaped = false
                body.append(backslash)
                if byte == hyphen {
                    body.append(hyphen)
                    continue
                }
                body.append(UInt8(ascii: "e"))
            }
            if byte == backslash {
                escaped = true
            } else if byte == hyphen {
                body.append(backslash)
                body.append(hyphen)
            } else {
                body.append(byte)
            }
        }
        if escaped { body += [backslash, UInt8(ascii: "e")] }
        return String(decoding: body, as: UTF8.self)
    }
}
