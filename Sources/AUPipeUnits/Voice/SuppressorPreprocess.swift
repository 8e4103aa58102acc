import AUPipeFormats
import AUPipeGraph

/// speex's preprocessor's two jobs on `aec`'s echo path, done inside the residual echo
/// suppressor's STFT instead of in a second one (which cost a frame of latency, its own
/// overlap-add): the MDF's residual echo (`LeakResidual`) and the noise (`denoise=`), as one
/// spectral gain (`NoiseSuppressionGain`) that multiplies the suppressor's own. The suppressor
/// then runs on the canceller's output C directly, in the same frame.
/// Everything is allocated in `init`; `update` allocates nothing.
package final class SuppressorPreprocess {
    package let leak: LeakResidual
    package let noise: NoiseSuppressionGain
    private let cPower, yPower: UnsafeMutablePointer<Float>
    private let bins: Int

    /// For the suppressor's `bins` of an `fftSize`-point transform of frames of `frameFrames`
    /// at `rate` Hz, with the preprocessor's `settings` (`denoise=`, `suppress=`, `suppress-active=`).
    package init(bins: Int, fftSize: Int, frameFrames: Int, rate: Int, settings: PreprocessSettings) {
        self.bins = bins
        leak = LeakResidual(bins: bins, frameFrames: frameFrames, rate: rate)
        noise = NoiseSuppressionGain(bins: bins, fftSize: fftSize, frameFrames: frameFrames, rate: rate, denoiseDB: settings.denoise ?? 0,
                                     suppressDB: settings.echoSuppress, activeDB: settings.echoSuppressActive)
        cPower = .allocate(capacity: bins); cPower.initialize(repeating: 0, count: bins)
        yPower = .allocate(capacity: bins); yPower.initialize(repeating: 0, count: bins)
    }

    deinit { cPower.deallocate(); yPower.deallocate() }

    /// The gain per bin (amplitude, 0...1) after the latest `update`.
    package var gain: UnsafePointer<Float> { UnsafePointer(noise.gain) }

    /// One frame: (`re`, `im`), the `size`-point transform of C + j·Ŷ (the suppressor's); (`cRe`,
    /// `cIm`), C's spectrum; `c` and `y`, this frame's N samples of C and Ŷ (full scale 1);
    /// `residual`, the suppressor's predicted residual per bin.
    package func update(re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int, cRe: UnsafePointer<Float>, cIm: UnsafePointer<Float>,
                        c: UnsafePointer<Float>, y: UnsafePointer<Float>, frameFrames n: Int, residual: UnsafePointer<Float>) {
        for k in 0..<bins {
            // Ŷ split from the transform of C + j·Ŷ (as `aupipe_res_statistics`).
            let j = (size - k) & (size - 1)
            let yr = (im[k] + im[j]) / 2, yi = (re[j] - re[k]) / 2
            yPower[k] = yr * yr + yi * yi
            cPower[k] = cRe[k] * cRe[k] + cIm[k] * cIm[k]
        }
        var cEnergy: Float = 0, yEnergy: Float = 0
        for i in 0..<n { cEnergy += c[i] * c[i]; yEnergy += y[i] * y[i] }
        leak.update(cPower: cPower, yPower: yPower, cEnergy: cEnergy, yEnergy: yEnergy)
        noise.update(power: cPower, echo: leak.power, otherEcho: residual)
    }
}
