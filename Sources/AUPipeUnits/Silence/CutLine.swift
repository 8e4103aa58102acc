/// One cut as a JSON line, formatted into storage allocated once:
/// `{"cut":{"start":S,"end":E},"seconds":[S/rate,E/rate],"output":O}` where S and E are frames of
/// the input's timeline (E excluded) and O the output frame where the cut is (what came before
/// it in the input is at most O frames long in the output).
struct CutLine {
    /// The longest line: three 19-digit integers, two 20-digit seconds and the words.
    static let capacity = 256
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init() { bytes = .allocate(capacity: Self.capacity) }

    func deallocate() { bytes.deallocate() }

    mutating func format(start: Int64, end: Int64, output: Int64, rate: Int) {
        count = 0
        append("{\"cut\":{\"start\":"); append(start)
        append(",\"end\":"); append(end)
        append("},\"seconds\":["); appendSeconds(start, rate: rate)
        append(","); appendSeconds(end, rate: rate)
        append("],\"output\":"); append(output)
        append("}\n")
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for b in $0 { bytes[count] = b; count += 1 } }
    }

    private mutating func append(_ value: Int64) {
        if value < 0 { bytes[count] = UInt8(ascii: "-"); count += 1 }
        var v = value.magnitude, digits = 0
        repeat { digits += 1; v /= 10 } while v > 0
        v = value.magnitude
        for i in stride(from: digits - 1, through: 0, by: -1) { bytes[count + i] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10 }
        count += digits
    }

    /// Frames as seconds with 6 decimals (microseconds, rounded to nearest).
    private mutating func appendSeconds(_ frames: Int64, rate: Int) {
        let micro = (frames * 1_000_000 + Int64(rate) / 2) / Int64(rate)
        append(micro / 1_000_000)
        bytes[count] = UInt8(ascii: "."); count += 1
        var fraction = micro % 1_000_000
        for i in stride(from: 5, through: 0, by: -1) { bytes[count + i] = UInt8(ascii: "0") + UInt8(fraction % 10); fraction /= 10 }
        count += 6
    }
}
