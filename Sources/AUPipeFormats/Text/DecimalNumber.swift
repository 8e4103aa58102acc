/// Numbers as users write them in parameters and options: decimal only. Swift's
/// `Double(String)` also reads hexadecimal (`0x10` is 16, `0x1p4` too), `nan`, `inf` and
/// `infinity`; none of those is a level, a time or a frequency anyone means, so they are refused.
package enum DecimalNumber {
    /// `text` as a finite number when it is decimal: an optional sign, digits with an optional
    /// point (`5`, `-6.5`, `.5`, `5.`), and an optional exponent (`1e3`, `2.5E-3`). Nil for
    /// anything else, and for a decimal beyond Double's range (`1e400`).
    package static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0, seenPoint = false, seenExponent = false, exponentDigits = 0
        var previous: Character?
        for c in text {
            switch c {
            case "0"..."9":
                if seenExponent { exponentDigits += 1 } else { digits += 1 }
            case ".":
                guard !seenPoint, !seenExponent else { return nil }
                seenPoint = true
            case "e", "E":
                guard !seenExponent, digits > 0 else { return nil }
                seenExponent = true
            case "+", "-":
                guard previous == nil || previous == "e" || previous == "E" else { return nil }
            default:
                return nil
            }
            previous = c
        }
        guard digits > 0, !seenExponent || exponentDigits > 0, let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }

    /// Why `text`, which `parse` refused, is not taken although Swift reads it as a number:
    /// `is not a decimal number (...)` (hexadecimal), `is not a finite number` (nan, inf), `is
    /// beyond the range of numbers` (`1e400`). Nil when it is no number at all.
    package static func refusal<S: StringProtocol>(_ text: S) -> String? {
        guard let v = Double(String(text)) else { return nil }
        if v.isNaN || text.lowercased().contains("inf") { return "is not a finite number" }
        if v.isInfinite { return "is beyond the range of numbers" }
        return "is not a decimal number (hexadecimal is not read; write \(formatNumber(v)))"
    }
}
