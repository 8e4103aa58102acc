/// Two real signals' spectra from one complex transform of x + j·y (`size` points, a power of
/// two), as the residual echo suppressor transforms C + j·Ŷ: bin k's X and Y from bins k and
/// size − k (X = (Z[k] + Z*[size − k]) / 2, Y = (Z[k] − Z*[size − k]) / 2j), in the same float
/// operations as `aupipe_res_statistics`.
enum TwoRealSpectra {
    /// X(k) and Y(k) (real and imaginary parts) from the transform `re`, `im`.
    @inline(__always)
    static func split(re: UnsafePointer<Float>, im: UnsafePointer<Float>, size: Int, bin k: Int) -> (xr: Float, xi: Float, yr: Float, yi: Float) {
        let j = (size - k) & (size - 1)
        return ((re[k] + re[j]) / 2, (im[k] - im[j]) / 2, (im[k] + im[j]) / 2, (re[j] - re[k]) / 2)
    }
}
