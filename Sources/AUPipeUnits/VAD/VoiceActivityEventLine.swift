import AUPipeFormats
import AUPipeGraph

/// One `vad` event as a JSON line, formatted into a buffer allocated once (no allocation per event):
///
///     {"event":"start","frame":48000,"t":1.000}
///     {"event":"end","frame":120000,"t":2.500,"start":48000,"frames":72000,"seconds":1.500}
///
/// `frame` and `t` are where the event is on the input's timeline (frames of the stream, seconds);
/// an end also gives its segment's start (frame), length in frames and in seconds.
package struct VoiceActivityEventLine {
    package static let capacity = 256
    package let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    package private(set) var count = 0

    package func deallocate() { bytes.deallocate() }

    /// A start at `frame`.
    package mutating func start(frame: Int64, rate: Int) {
        count = 0
        put("{\"event\":\"start\",\"frame\":"); integer(frame)
        put(",\"t\":"); seconds(frame, rate)
        put("}\n")
    }

    /// An end at `frame` of the segment that started at `start`.
    package mutating func end(frame: Int64, start: Int64, rate: Int) {
        count = 0
        put("{\"event\":\"end\",\"frame\":"); integer(frame)
        put(",\"t\":"); seconds(frame, rate)
        put(",\"start\":"); integer(start)
        put(",\"frames\":"); integer(frame - start)
        put(",\"seconds\":"); seconds(frame - start, rate)
        put("}\n")
    }

    private mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { b in for c in b { bytes[count] = c; count += 1 } }
    }

    private mutating func integer(_ v: Int64) {
        var v = v
        if v < 0 { bytes[count] = UInt8(ascii: "-"); count += 1; v = -v }
        var digits = 1, p: Int64 = 10
        while p <= v { digits += 1; p *= 10 }
        for i in stride(from: digits - 1, through: 0, by: -1) {
            bytes[count + i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        count += digits
    }

    /// `frames` at `rate` as seconds with three decimals, rounded half up (exact integer arithmetic).
    private mutating func seconds(_ frames: Int64, _ rate: Int) {
        let ms = (frames * 1000 + Int64(rate) / 2) / Int64(rate)
        integer(ms / 1000)
        bytes[count] = UInt8(ascii: "."); count += 1
        let r = ms % 1000
        bytes[count] = UInt8(ascii: "0") + UInt8(r / 100)
        bytes[count + 1] = UInt8(ascii: "0") + UInt8(r / 10 % 10)
        bytes[count + 2] = UInt8(ascii: "0") + UInt8(r % 10)
        count += 3
    }
}
