import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// speex's preprocessor's two jobs on `aec`'s echo path, done inside the residual echo
/// suppressor's STFT instead of in a second one (which cost a frame of latency, its own
/// overlap-add): the MDF's residual echo (`LeakResidual`) and the noise (`denoise=`), as one
/// spectral gain (`NoiseSuppressionGain`) that multiplies the suppressor's own. The suppressor
/// then runs on the canceller's output C directly, in the same frame.
/// Everything is allocated in `init`; `update` allocates nothing.
package final class SuppressorPreprocess {
    package let leak: LeakResidual
    package let noise: NoiseSuppressionGain
    private let cPower, yPower, cFrame, yFrame, emphasis: UnsafeMutablePointer<Float>
    /// The frame's own transforms for the leak (mdf.c's: one frame, zero-padded, no window).
    private let fft: RealFFT
    private let work, workRe, workIm: UnsafeMutablePointer<Float>
    private let size: Int
    /// The suppressor's analysis window (`LowDelayWindows`, L samples), and the L − N samples of
    /// Ŷ of the state read before this frame's.
    private let windows: LowDelayWindows
    private let yBefore: UnsafeMutablePointer<Float>
    /// C and Ŷ of the state the leak is read from, when it is not the one in use (`update`'s `echoOutput`).
    private let cOther, yOther: UnsafeMutablePointer<Float>
    /// mdf.c's pre-emphasis: its leak regression runs on signals filtered by 1 − 0.9·z⁻¹.
    package static let preemphasis: Float = 0.9
    private let bins: Int
    /// Every buffer above, freed with the object.
    private let buffers: FloatBuffers

    /// For the suppressor's `bins` of an `fftSize`-point transform of frames of `frameFrames`
    /// at `rate` Hz, with the preprocessor's `settings` (`denoise=`, `suppress=`, `suppress-active=`),
    /// and the suppressor's `windows` (nil: 2N-sample sqrt-Hann).
    package init(bins: Int, fftSize: Int, frameFrames: Int, rate: Int, settings: PreprocessSettings, windows: LowDelayWindows? = nil) {
        let windows = windows ?? LowDelayWindows(standard: frameFrames)
        self.windows = windows
        self.bins = bins
        leak = LeakResidual(bins: bins, frameFrames: frameFrames, rate: rate)
        noise = NoiseSuppressionGain(bins: bins, fftSize: fftSize, frameFrames: frameFrames, rate: rate, denoiseDB: settings.denoise ?? 0,
                                     suppressDB: settings.echoSuppress, activeDB: settings.echoSuppressActive, windowFrames: windows.length)
        let buffers = FloatBuffers()
        self.buffers = buffers
        func buffer(_ n: Int) -> UnsafeMutablePointer<Float> { buffers.make(n) }
        cPower = buffer(bins); yPower = buffer(bins); cFrame = buffer(bins); yFrame = buffer(bins); emphasis = buffer(bins)
        work = buffer(fftSize); workRe = buffer(bins); workIm = buffer(bins)
        yBefore = buffer(windows.length - frameFrames); cOther = buffer(frameFrames); yOther = buffer(frameFrames)
        size = fftSize
        fft = RealFFT(size: fftSize)
        // |1 − 0.9·e^(−jω)|² per bin.
        for k in 0..<bins {
            let w = 2 * Double.pi * Double(k) / Double(fftSize), a = Double(Self.preemphasis)
            emphasis[k] = Float(1 + a * a - 2 * a * cos(w))
        }
    }

    /// |FFT(x)|² of `n` samples zero-padded to the transform, times the pre-emphasis, into `into`.
    private func framePower(_ x: UnsafePointer<Float>, count n: Int, into: UnsafeMutablePointer<Float>) {
        for i in 0..<n { work[i] = x[i] }
        for i in n..<size { work[i] = 0 }
        fft.forward(work, re: workRe, im: workIm)
        for k in 0..<bins { into[k] = emphasis[k] * (workRe[k] * workRe[k] + workIm[k] * workIm[k]) }
    }

    /// The gain per bin (amplitude, 0...1) after the latest `update`.
    package var gain: UnsafePointer<Float> { UnsafePointer(noise.gain) }

    /// One frame: (`re`, `im`), the `size`-point transform of C + j·Ŷ (the suppressor's); (`cRe`,
    /// `cIm`), C's spectrum; `c` and `y`, this frame's N samples of C and Ŷ (full scale 1).
    /// `echoOutput`: the output of the echo state speex's preprocessor would read, when that is
    /// not the one in use (N 16-bit samples; a replaced state trailing a take-over,
    /// `EchoPathChange.preprocessorEcho`): the leak and the residual are then that state's, its
    /// Ŷ = D − its output, as speex's preprocessor reads them (a fresh filter's are not yet a
    /// good estimate; the replaced one's still follow the far end).
    package func update(re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int, cRe: UnsafePointer<Float>, cIm: UnsafePointer<Float>,
                        c: UnsafePointer<Float>, y: UnsafePointer<Float>, frameFrames n: Int, echoOutput: UnsafePointer<Int16>? = nil) {
        for k in 0..<bins {
            // Ŷ split from the transform of C + j·Ŷ.
            let (_, _, yr, yi) = TwoRealSpectra.split(re: re, im: im, size: size, bin: k)
            yPower[k] = yr * yr + yi * yi
            cPower[k] = cRe[k] * cRe[k] + cIm[k] * cIm[k]
        }
        var c = c, y = y
        if let echoOutput {
            for i in 0..<n {
                cOther[i] = Float(echoOutput[i]) / 32768
                yOther[i] = c[i] + y[i] - cOther[i]
            }
            (c, y) = (UnsafePointer(cOther), UnsafePointer(yOther))
            // Ŷ's power over the suppressor's window (the frames before and this one).
            let window = windows.analysis, before = windows.length - n
            for i in 0..<before { work[i] = window[i] * yBefore[i] }
            for i in 0..<n { work[before + i] = window[before + i] * y[i] }
            for i in windows.length..<size { work[i] = 0 }
            fft.forward(work, re: workRe, im: workIm)
            for k in 0..<bins { yPower[k] = workRe[k] * workRe[k] + workIm[k] * workIm[k] }
        }
        LowDelayWindows.slide(yBefore, length: windows.length - n, adding: y, count: n)
        var cEnergy: Float = 0, yEnergy: Float = 0
        for i in 0..<n { cEnergy += c[i] * c[i]; yEnergy += y[i] * y[i] }
        framePower(c, count: n, into: cFrame)
        framePower(y, count: n, into: yFrame)
        leak.update(cFrame: cFrame, yFrame: yFrame, yPower: yPower, cEnergy: cEnergy, yEnergy: yEnergy)
        noise.update(power: cPower, echo: leak.power)
    }
}
