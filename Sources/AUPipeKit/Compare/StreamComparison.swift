#if canImport(Glibc)
import Glibc
#endif

/// The figures `aupipe compare` reports for two streams, and its verdict.
public struct ComparisonResult: Sendable {
    public var a: StreamHeader
    public var b: StreamHeader
    public var framesA: Int64 = 0
    public var framesB: Int64 = 0
    /// Frames compared sample by sample (the common length).
    public var framesCompared: Int64 = 0
    /// Largest |A − B| (1.0 = full scale).
    public var maxDifference = 0.0
    public var maxAt: (frame: Int64, channel: Int)?
    /// The first sample where A and B differ at all, with both values.
    public var firstDifference: (frame: Int64, channel: Int, a: Double, b: Double)?
    var sumSquaredDifference = 0.0
    var sumSquaredA = 0.0
    /// Why the comparison failed, if it did; nil when within tolerance.
    public var failure: String?
    /// Set when the formats could not be compared sample by sample at all.
    public var incomparable = false

    /// One LSB of the coarser of the two encodings (G.711 counts as 16-bit linear, f32 as 2^-23).
    public var lsb: Double { max(Self.lsb(a.format.encoding), Self.lsb(b.format.encoding)) }
    /// The encoding whose LSB `lsb` is.
    public var coarser: SampleEncoding { Self.lsb(a.format.encoding) >= Self.lsb(b.format.encoding) ? a.format.encoding : b.format.encoding }

    static func lsb(_ e: SampleEncoding) -> Double {
        switch e.kind {
        case .signedInteger, .unsignedInteger: return pow(2, -Double(e.bits - 1))
        case .muLaw, .aLaw: return pow(2, -15)
        case .float: return e.bits == 32 ? pow(2, -23) : pow(2, -52)
        }
    }

    public var maxDifferenceLSB: Double { maxDifference / lsb }
    public var maxDifferenceDB: Double { 20 * log10(maxDifference) }
    public var rmsDifferenceDB: Double { framesCompared == 0 ? -.infinity : 10 * log10(sumSquaredDifference / Double(framesCompared * Int64(a.format.channels))) }
    /// Signal (A) to difference ratio in dB; +inf when identical.
    public var snrDB: Double { sumSquaredDifference == 0 ? .infinity : 10 * log10(sumSquaredA / sumSquaredDifference) }
}

/// Reads two streams in lockstep and compares them sample by sample, in constant memory.
/// Nothing is aligned or trimmed: frame k of A is compared with frame k of B.
public enum StreamComparison {
    public static func compare(_ o: CompareOptions) throws -> ComparisonResult {
        let sourceA = try FileDescriptorSource.open(o.a), sourceB = try FileDescriptorSource.open(o.b)
        let (headerA, audioA) = try HeaderReader.read(sourceA, rawFormat: o.inFormat, rawFormatIsFallback: true)
        let (headerB, audioB) = try HeaderReader.read(sourceB, rawFormat: o.inFormat, rawFormatIsFallback: true)
        _ = try headerA.format.validated(source: o.a)
        _ = try headerB.format.validated(source: o.b)
        var r = ComparisonResult(a: headerA, b: headerB)
        let fa = headerA.format, fb = headerB.format
        if fa.sampleRate != fb.sampleRate || fa.channels != fb.channels {
            r.incomparable = true
            r.failure = "formats differ: A is \(fa.spec), B is \(fb.spec); samples at different rates or channel counts cannot be compared (resample or convert one first)"
            return r
        }
        if fa.encoding != fb.encoding && !o.ignoreFormat {
            r.incomparable = true
            r.failure = "encodings differ: A is \(fa.encoding.token), B is \(fb.encoding.token); --ignore-format compares their samples"
            return r
        }
        let capacity = 4096, channels = fa.channels
        let readerA = FrameReader(header: headerA, source: audioA, capacity: capacity)
        let readerB = FrameReader(header: headerB, source: audioB, capacity: capacity)
        let x = UnsafeMutablePointer<Double>.allocate(capacity: capacity * channels)
        let y = UnsafeMutablePointer<Double>.allocate(capacity: capacity * channels)
        defer { x.deallocate(); y.deallocate() }
        var endA = false, endB = false
        while !(endA && endB) {
            let na = endA ? 0 : try readerA.read(into: x)
            let nb = endB ? 0 : try readerB.read(into: y)
            if na < capacity { endA = true }
            if nb < capacity { endB = true }
            let common = min(na, nb)
            for f in 0..<common {
                for c in 0..<channels {
                    let i = f * channels + c
                    let d = x[i] - y[i]
                    if d != 0 {
                        let frame = r.framesCompared + Int64(f)
                        if r.firstDifference == nil { r.firstDifference = (frame, c, x[i], y[i]) }
                        if abs(d) > r.maxDifference { r.maxDifference = abs(d); r.maxAt = (frame, c) }
                        r.sumSquaredDifference += d * d
                    }
                    r.sumSquaredA += x[i] * x[i]
                }
            }
            r.framesCompared += Int64(common)
        }
        r.framesA = readerA.frames
        r.framesB = readerB.frames
        for (name, reader) in [(o.a, readerA), (o.b, readerB)] {
            if reader.trailingBytes > 0 {
                throw AUPipeError.data("\(name): the stream ended mid-frame; \(counted(reader.trailingBytes, "trailing byte")) (a frame is \(reader.header.format.bytesPerFrame) bytes)")
            }
            if reader.missingBytes > 0 {
                throw AUPipeError.data("\(name): the stream ended \(reader.missingBytes) bytes short of what its header declares; it is truncated")
            }
        }
        r.failure = verdict(r, o)
        return r
    }

    /// Why the streams fail the comparison, or nil when they pass.
    static func verdict(_ r: ComparisonResult, _ o: CompareOptions) -> String? {
        if r.framesA != r.framesB && !o.allowLength {
            return "lengths differ: A has \(r.framesA) frames, B has \(r.framesB) (--allow-length compares the first \(min(r.framesA, r.framesB)))"
        }
        if o.exact {
            guard let first = r.firstDifference else { return nil }
            return "samples differ from frame \(first.frame), channel \(first.channel) (no tolerance given: only identical samples pass)"
        }
        if let limit = o.maxLSB, r.maxDifferenceLSB > limit {
            return "largest difference \(formatFixed(r.maxDifferenceLSB)) LSB > --max-lsb \(formatNumber(limit))"
        }
        if let limit = o.maxDiffDB, r.maxDifference > 0, r.maxDifferenceDB > limit {
            return "largest difference \(formatFixed(r.maxDifferenceDB)) dBFS > --max-diff-db \(formatNumber(limit))"
        }
        if let limit = o.minSNR, r.snrDB < limit {
            return "SNR \(formatFixed(r.snrDB)) dB < --min-snr \(formatNumber(limit))"
        }
        return nil
    }
}

/// A number with at most two decimals, `inf`/`-inf` for infinities.
func formatFixed(_ v: Double) -> String {
    if v.isInfinite { return v > 0 ? "inf" : "-inf" }
    return formatNumber((v * 100).rounded() / 100)
}
