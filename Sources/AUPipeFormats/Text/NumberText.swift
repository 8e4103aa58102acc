/// Prints a number without a trailing `.0`: 20, 0.5, -6.
package func formatNumber(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}

/// A number with at most two decimals, `inf`/`-inf` for infinities.
package func formatFixed(_ v: Double) -> String {
    if v.isInfinite { return v > 0 ? "inf" : "-inf" }
    return formatNumber((v * 100).rounded() / 100)
}

extension String {
    /// `value` with exactly `decimals` (0...9) decimals, rounded half away from zero, without
    /// Foundation: `String(-9, decimals: 2)` is `-9.00`. No minus sign when it rounds to zero.
    /// `inf`, `-inf` and `nan` for those; beyond 1e15 in magnitude, as `String(value)` prints it.
    package init(_ value: Double, decimals: Int) {
        guard value.isFinite else {
            self = value.isNaN ? "nan" : value > 0 ? "inf" : "-inf"
            return
        }
        guard abs(value) < 1e15 else {
            self = String(value)
            return
        }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = String(Int(scaled / scale))
        let frac = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
        self = (value < 0 && scaled > 0 ? "-" : "") + whole
            + (decimals > 0 ? "." + String(repeating: "0", count: decimals - frac.count) + frac : "")
    }

    /// A number with three decimals, without Foundation.
    package init(format3 value: Double) { self.init(value, decimals: 3) }
}
