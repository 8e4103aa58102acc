// bench/fft/aupipe_fft_bench.swift: the same loop as kissfft_bench.c around aupipe's own
// RealFFT (Sources/AUPipeGraph/DSP/RealFFT.swift + FFT.swift and its C kernels, compiled in with -O): one forward
// and one inverse real transform per round. Prints "aupipe N ns_per_pair" lines.
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

@main
enum FFTBench {
    static func main() {
        var n = 64
        while n <= 65536 {
            let fft = RealFFT(size: n)
            let x = UnsafeMutablePointer<Float>.allocate(capacity: n)
            let re = UnsafeMutablePointer<Float>.allocate(capacity: n / 2 + 1)
            let im = UnsafeMutablePointer<Float>.allocate(capacity: n / 2 + 1)
            for i in 0..<n { x[i] = Float((i * 7919) % 1000) / 1000 - 0.5 }
            let rounds = (1 << 26) / (n * n.trailingZeroBitCount) + 1
            var best = 1e30
            for _ in 0..<5 {
                let t0 = now()
                for _ in 0..<rounds {
                    fft.forward(x, re: re, im: im)
                    fft.inverse(re: re, im: im, into: x)
                }
                best = min(best, (now() - t0) / Double(rounds))
            }
            print("aupipe \(n) \(Int((best * 1e9).rounded()))")
            x.deallocate(); re.deallocate(); im.deallocate()
            n *= 2
        }
    }
}
