import AUPipeFormats
import AUPipeGraph

/// One `meter every=` line as JSON, formatted into a buffer allocated once: stable keys in a
/// fixed order, levels to 0.01 dB, `null` for silence (-inf), then a newline.
///
///     {"t":1.000,"momentary":-23.01,"shortterm":-23.02,"integrated":-23.00,"range":0.00,"truepeak":-19.96,"peak":-20.00,"rms":-23.01}
///
/// `t` is stream time in seconds at the end of the interval; `momentary` (400 ms), `shortterm`
/// (3 s) and `integrated` (gated, since the start) are LUFS, `range` is LU since the start;
/// `truepeak` (dBTP), `peak` and `rms` (dBFS) are over the interval since the previous line.
package struct LevelLine {
    /// The fields in the order they are written.
    package static let keys = ["t", "momentary", "shortterm", "integrated", "range", "truepeak", "peak", "rms"]
    package static let capacity = 512

    package let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    package private(set) var count = 0

    package func deallocate() { bytes.deallocate() }

    /// Formats a line: `values` in the order of `keys` after `t`.
    package mutating func format(seconds: Double, _ values: (Double, Double, Double, Double, Double, Double, Double)) {
        count = 0
        put("{\"t\":")
        number(seconds, decimals: 3)
        field(1, values.0); field(2, values.1); field(3, values.2); field(4, values.3)
        field(5, values.4); field(6, values.5); field(7, values.6)
        put("}\n")
    }

    private mutating func field(_ index: Int, _ value: Double) {
        put(",\"")
        put(Self.keys[index])
        put("\":")
        if value.isFinite { number(value, decimals: 2) } else { put("null") }
    }

    private mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { b in for c in b { bytes[count] = c; count += 1 } }
    }

    private mutating func put(_ s: String) {
        var s = s
        s.withUTF8 { b in for c in b { bytes[count] = c; count += 1 } }
    }

    /// A finite number with `decimals` decimals, rounded half away from zero.
    private mutating func number(_ value: Double, decimals: Int) {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let clamped = max(-1e12, min(1e12, value))
        var fixed = Int64((abs(clamped) * Double(scale)).rounded())
        if clamped < 0 && fixed != 0 { bytes[count] = UInt8(ascii: "-"); count += 1 }
        let whole = fixed / scale
        fixed %= scale
        digits(whole)
        guard decimals > 0 else { return }
        bytes[count] = UInt8(ascii: "."); count += 1
        var divisor = scale / 10
        while divisor > 0 {
            bytes[count] = UInt8(ascii: "0") + UInt8(fixed / divisor % 10); count += 1
            divisor /= 10
        }
    }

    private mutating func digits(_ n: Int64) {
        if n >= 10 { digits(n / 10) }
        bytes[count] = UInt8(ascii: "0") + UInt8(n % 10); count += 1
    }
}
