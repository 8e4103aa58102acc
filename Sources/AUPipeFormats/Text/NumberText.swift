/// Prints a number without a trailing `.0`: 20, 0.5, -6.
package func formatNumber(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return String(v)
}
