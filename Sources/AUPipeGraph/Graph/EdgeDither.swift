import AUPipeFormats

/// The decision, made once at prepare time, whether an output edge (the main output, a `tee`)
/// dithers before its encoder rounds, and with what.
///
/// It dithers when the encoding is a linear integer of 16 bits or fewer (u8, s8, s16, u16; not
/// µ-law or A-law, whose steps are not uniform) and the samples reaching it carry more
/// precision than that (`SignalPrecision`): float after `gain -3`, `mix`, `resample`, an f32 or
/// s24 input written as s16. A byte copy, `gain 0` or speexdsp's 16-bit output into s16 needs
/// nothing and stays bit-exact.
public enum EdgeDither {
    /// Linear integer encodings of this width or narrower are dithered; wider ones (s24, s32)
    /// have a rounding error far below any analogue noise floor, as sox and GStreamer judge.
    public static let widestDitheredBits = 16

    /// The seed of the edge's noise: fixed, so that every run gives the same bytes.
    public static let seed: UInt64 = 0x6175_7069_7065 // "aupipe"

    /// What `mode` asks of an edge writing `format` from samples of `precision`: nil for plain
    /// rounding, else the dither's kind (shaped only at a rate with a shape).
    public static func kind(_ mode: DitherMode, precision: SignalPrecision, format: StreamFormat) -> Ditherer.Kind? {
        let e = format.encoding
        guard mode != .off, e.isInteger, e.bits <= widestDitheredBits, precision.bits > e.bits else { return nil }
        if mode == .shaped, let shape = NoiseShape.forRate(format.sampleRate) { return .shaped(shape) }
        return .tpdf
    }

    /// A ditherer for the edge (see `kind`), or nil for plain rounding. Allocates: prepare time only.
    public static func ditherer(_ mode: DitherMode, precision: SignalPrecision, format: StreamFormat) -> Ditherer? {
        kind(mode, precision: precision, format: format).map {
            Ditherer(bits: format.encoding.bits, channels: format.channels, kind: $0, seed: seed)
        }
    }
}
