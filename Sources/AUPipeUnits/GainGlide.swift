import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// A gain that glides linearly (in amplitude) to a new value instead of jumping, so that a
/// change made while running never clicks. Used by `gain` and by each of `mix`'s buses.
package struct GainGlide {
    /// The factor applied now, and the one being glided to.
    package private(set) var factor: Float
    package private(set) var target: Float
    private var left = 0
    private var step: Float = 0
    /// Frames a glide takes.
    package var glideFrames = 1

    /// How long a live change glides: 10 ms, for `gain` and every gain of `mix`.
    package static let seconds = 0.01

    /// `seconds` in frames at `rate` Hz (at least 1).
    package static func frames(atRate rate: Int) -> Int { max(1, Int((seconds * Double(rate)).rounded())) }

    package init(factor: Float) {
        self.factor = factor
        target = factor
    }

    package static func factor(dB: Double) -> Float { Float(Decibels.amplitude(dB)) }

    /// True while the factor is still moving.
    package var isGliding: Bool { left > 0 }

    /// Sets the factor at once (for a bus that has not sounded yet).
    package mutating func set(_ newFactor: Float) {
        factor = newFactor
        target = newFactor
        left = 0
    }

    /// Starts a glide from the current factor to `newTarget`.
    package mutating func glide(to newTarget: Float) {
        target = newTarget
        left = glideFrames
        step = (target - factor) / Float(glideFrames)
    }

    /// The factor for the next frame (advancing the glide).
    @inline(__always)
    package mutating func next() -> Float {
        if left > 0 {
            left -= 1
            factor = left == 0 ? target : factor + step
        }
        return factor
    }

    /// Multiplies `frames` frames of `channels` channels from `input` into `output`, or adds them
    /// to it with `accumulate`.
    package mutating func apply(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frames: Int, channels: Int, accumulate: Bool) {
        var f = 0
        while left > 0 && f < frames {
            let k = next()
            for c in 0..<channels {
                let i = f &* channels &+ c
                output[i] = accumulate ? output[i] + input[i] * k : input[i] * k
            }
            f += 1
        }
        let k = factor
        let start = f * channels, end = frames * channels
        if accumulate {
            for i in start..<end { output[i] += input[i] * k }
        } else {
            for i in start..<end { output[i] = input[i] * k }
        }
    }
}
