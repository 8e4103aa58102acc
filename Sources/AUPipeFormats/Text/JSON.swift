/// The one place aupipe writes JSON (`--stats=json`, `compare --json`): an object built field
/// by field, in the order given, with every string escaped per RFC 8259 so that any path or
/// note (tabs, newlines, control characters) gives valid JSON.
package struct JSONObject {
    private var fields: [String] = []

    package init() {}

    /// A string, or `null` for nil.
    package mutating func add(_ key: String, _ value: String?) { append(key, value.map(JSON.quote) ?? "null") }

    package mutating func add(_ key: String, _ value: Int) { append(key, String(value)) }

    package mutating func add(_ key: String, _ value: Int64) { append(key, String(value)) }

    /// A whole number, or `null` for nil.
    package mutating func add(_ key: String, _ value: Int64?) { append(key, value.map { String($0) } ?? "null") }

    package mutating func add(_ key: String, _ value: Bool) { append(key, value ? "true" : "false") }

    /// A number, or `null` when it is nil or not finite (JSON has no infinity or NaN). Whole
    /// numbers are written without a fraction (`-9`, `0.25`).
    package mutating func add(_ key: String, number value: Double?) {
        append(key, value.flatMap { $0.isFinite ? formatNumber($0) : nil } ?? "null")
    }

    /// An array of numbers, each `null` when nil or not finite, written as `add(_:number:)` does.
    package mutating func add(_ key: String, numbers values: [Double?]) {
        append(key, "[" + values.map { v in v.flatMap { $0.isFinite ? formatNumber($0) : nil } ?? "null" }.joined(separator: ",") + "]")
    }

    package mutating func add(_ key: String, _ value: JSONObject) { append(key, value.text) }

    package mutating func add(_ key: String, _ values: [JSONObject]) {
        append(key, "[" + values.map(\.text).joined(separator: ",") + "]")
    }

    /// The object as one line of JSON.
    package var text: String { "{" + fields.joined(separator: ",") + "}" }

    private mutating func append(_ key: String, _ json: String) { fields.append(JSON.quote(key) + ":" + json) }
}

package enum JSON {
    /// `s` as a JSON string: in quotes, with `"` and `\` escaped, and every control character
    /// U+0000...U+001F as `\n`, `\t`, `\r`, `\b`, `\f` or `\u00XX` (RFC 8259, section 7).
    /// Everything else, non-ASCII included, is written as it is (UTF-8).
    package static func quote(_ s: String) -> String {
        var out = "\""
        // A name's bytes that are not UTF-8 (PathBytes) would make the line invalid JSON: U+FFFD.
        for ch in PathBytes.displayable(s).unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(ch.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
