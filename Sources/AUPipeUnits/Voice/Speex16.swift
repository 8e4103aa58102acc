import AUPipeFormats
import AUPipeGraph

/// speexdsp's echo canceller and preprocessor take 16-bit samples even in its float build:
/// conversion at their edges, with aupipe's rounding (nearest, ties to even) and clipping.
package enum Speex16 {
    /// What comes out of speexdsp: 16-bit integers / 32768.
    package static let precision = SignalPrecision(bits: 16)

    /// Returns how many samples had to be clipped (the s16 encoder's rule: `SampleCodec.s16`).
    @discardableResult
    package static func fromFloat(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Int16>, count: Int) -> Int {
        var clipped = 0
        for i in 0..<count { y[i] = SampleCodec.s16(x[i], clipped: &clipped) }
        return clipped
    }

    package static func toFloat(_ y: UnsafePointer<Int16>, into x: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count { x[i] = SampleCodec.float(y[i]) }
    }
}
