import AUPipeFormats
import AUPipeGraph
import AUPipeUnits
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
    /// Largest |A − B| (1.0 = full scale); +inf once a non-finite sample is unmatched.
    public var maxDifference = 0.0
    public var maxAt: (frame: Int64, channel: Int)?
    /// The first sample where A and B differ at all, with both values.
    public var firstDifference: (frame: Int64, channel: Int, a: Double, b: Double)?
    /// NaN and infinities in the compared frames of A and of B.
    public var nonFiniteA = NonFiniteSamples(), nonFiniteB = NonFiniteSamples()
    /// Samples where A or B is not finite and the other is not the same value (NaN matches
    /// NaN, +inf matches +inf): these fail every tolerance.
    public var nonFiniteMismatches = NonFiniteSamples()
    package var sumSquaredDifference = 0.0
    package var sumSquaredA = 0.0
    /// Why the comparison failed, if it did; nil when within tolerance.
    public var failure: CompareFailure?

    /// Set when the formats could not be compared sample by sample at all (no sample read).
    public var incomparable: Bool { failure?.reason.cannotCompare ?? false }

    /// True when the samples were read and compared (even when none were there).
    public var compared: Bool { !incomparable }

    /// Every frame of A equals that of B, and the lengths are equal.
    public var identical: Bool { compared && firstDifference == nil && framesA == framesB }

    /// One LSB of the coarser of the two encodings (G.711 counts as 16-bit linear, f32 as 2^-23).
    public var lsb: Double { max(Self.lsb(a.format.encoding), Self.lsb(b.format.encoding)) }
    /// The encoding whose LSB `lsb` is.
    public var coarser: SampleEncoding { Self.lsb(a.format.encoding) >= Self.lsb(b.format.encoding) ? a.format.encoding : b.format.encoding }

    package static func lsb(_ e: SampleEncoding) -> Double {
        switch e.kind {
        case .signedInteger, .unsignedInteger: return pow(2, -Double(e.bits - 1))
        case .muLaw, .aLaw: return pow(2, -15)
        case .float: return e.bits == 32 ? pow(2, -23) : pow(2, -52)
        }
    }

    /// The figures below are nil when no frame was compared: there is nothing to measure.
    public var maxDifferenceLSB: Double? { framesCompared == 0 ? nil : maxDifference / lsb }
    public var maxDifferenceDB: Double? { framesCompared == 0 ? nil : 20 * log10(maxDifference) }
    public var rmsDifferenceDB: Double? {
        framesCompared == 0 ? nil : 10 * log10(sumSquaredDifference / Double(framesCompared * Int64(a.format.channels)))
    }
    /// Signal (A) to difference ratio in dB; +inf when the samples are equal, -inf when A is
    /// silent and B is not, or a non-finite sample is unmatched (an infinite difference).
    public var snrDB: Double? {
        framesCompared == 0 ? nil : (sumSquaredDifference == 0 ? .infinity : 10 * log10(sumSquaredA / sumSquaredDifference))
    }
}

/// Reads two streams in lockstep and compares them sample by sample, in constant memory.
/// Nothing is aligned or trimmed: frame k of A is compared with frame k of B.
public enum StreamComparison {
    public static func compare(_ o: CompareOptions) throws -> ComparisonResult {
        let sourceA = try FileDescriptorSource.open(o.a), sourceB = try FileDescriptorSource.open(o.b)
        let (inputA, audioA) = try StreamDecoder.open(sourceA, rawFormat: o.inFormat, rawFormatIsFallback: true)
        let (inputB, audioB) = try StreamDecoder.open(sourceB, rawFormat: o.inFormat, rawFormatIsFallback: true)
        let headerA = inputA.header, headerB = inputB.header
        _ = try headerA.format.validated(source: o.a)
        _ = try headerB.format.validated(source: o.b)
        var r = ComparisonResult(a: headerA, b: headerB)
        let fa = headerA.format, fb = headerB.format
        if fa.sampleRate != fb.sampleRate || fa.channels != fb.channels {
            r.failure = CompareFailure(.formatsDiffer, "formats differ: A is \(fa.spec), B is \(fb.spec); samples at different rates or channel counts cannot be compared (resample or convert one first)")
            return r
        }
        // Byte order is how samples are stored, not what they are: s16le and s16be compare as they are.
        let ea = fa.encoding, eb = fb.encoding
        if (ea.kind != eb.kind || ea.bits != eb.bits) && !o.ignoreFormat {
            r.failure = CompareFailure(.encodingsDiffer, "encodings differ: A is \(ea.token), B is \(eb.token); --ignore-format compares their samples")
            return r
        }
        let capacity = 4096, channels = fa.channels
        let readerA = FrameReader(inputA, source: audioA, capacity: capacity)
        let readerB = FrameReader(inputB, source: audioB, capacity: capacity)
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
                    let va = x[i], vb = y[i]
                    guard va.isFinite && vb.isFinite else {
                        compareNonFinite(va, vb, frame: r.framesCompared + Int64(f), channel: c, into: &r)
                        continue
                    }
                    let d = va - vb
                    if d != 0 {
                        let frame = r.framesCompared + Int64(f)
                        if r.firstDifference == nil { r.firstDifference = (frame, c, va, vb) }
                        if abs(d) > r.maxDifference { r.maxDifference = abs(d); r.maxAt = (frame, c) }
                        r.sumSquaredDifference += d * d
                    }
                    r.sumSquaredA += va * va
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
                throw AUPipeError.data("\(name): the stream ended \(counted(Int(reader.missingBytes), "byte")) short of what its header declares; it is truncated")
            }
        }
        r.failure = verdict(r, o)
        return r
    }

    /// A sample where A or B is NaN or infinite: counted; equal only to the same value, and
    /// left out of the sums.
    private static func compareNonFinite(_ va: Double, _ vb: Double, frame: Int64, channel: Int, into r: inout ComparisonResult) {
        if !va.isFinite { r.nonFiniteA.note(frame: frame, channel: channel) }
        if !vb.isFinite { r.nonFiniteB.note(frame: frame, channel: channel) }
        if va == vb || (va.isNaN && vb.isNaN) { return }
        r.nonFiniteMismatches.note(frame: frame, channel: channel)
        if r.firstDifference == nil { r.firstDifference = (frame, channel, va, vb) }
        // The difference is infinite (or undefined): every figure says so, no tolerance holds.
        if r.maxDifference < .infinity { r.maxDifference = .infinity; r.maxAt = (frame, channel) }
        r.sumSquaredDifference = .infinity
    }

    /// Why the streams fail the comparison, or nil when they pass.
    package static func verdict(_ r: ComparisonResult, _ o: CompareOptions) -> CompareFailure? {
        let lengthDifference = abs(r.framesA - r.framesB)
        if lengthDifference > 0 {
            guard let allowance = o.allowLength else {
                return CompareFailure(.lengthsDiffer, "lengths differ: A has \(counted(Int(r.framesA), "frame")), B has \(r.framesB) (--allow-length compares the first \(min(r.framesA, r.framesB)))")
            }
            if lengthDifference > allowance.limit(framesA: r.framesA) {
                return CompareFailure(.lengthsDiffer, "lengths differ by \(counted(Int(lengthDifference), "frame")) (A has \(r.framesA), B has \(r.framesB)), more than \(allowance.option) allows")
            }
            if r.framesCompared == 0 {
                return CompareFailure(.nothingCompared, "nothing to compare: \(r.framesA == 0 ? "A" : "B") is empty (--allow-length passes only when some frames were compared)")
            }
        }
        if let m = r.nonFiniteMismatches.first, let d = r.firstDifference {
            let (frame, channel) = (m.frame, m.channel)
            let values = d.frame == frame && d.channel == channel ? ": A \(d.a), B \(d.b)" : ""
            return CompareFailure(.nonFiniteDiffer, "non-finite samples differ at \(counted(Int(r.nonFiniteMismatches.count), "sample")) from frame \(frame), channel \(channel)\(values) (NaN and infinities match only the same value, whatever the tolerance)")
        }
        if o.exact {
            guard let first = r.firstDifference else { return nil }
            return CompareFailure(.samplesDiffer, "samples differ from frame \(first.frame), channel \(first.channel) (no tolerance given: only identical samples pass)")
        }
        if let limit = o.maxLSB, let lsb = r.maxDifferenceLSB, lsb > limit {
            return CompareFailure(.maxLSB, "largest difference \(formatFixed(lsb)) LSB > --max-lsb \(formatNumber(limit))")
        }
        if let limit = o.maxDiffDB, r.maxDifference > 0, let db = r.maxDifferenceDB, db > limit {
            return CompareFailure(.maxDiffDB, "largest difference \(formatFixed(db)) dBFS > --max-diff-db \(formatNumber(limit))")
        }
        if let limit = o.minSNR, let snr = r.snrDB, snr < limit {
            return CompareFailure(.minSNR, "SNR \(formatFixed(snr)) dB < --min-snr \(formatNumber(limit))")
        }
        return nil
    }
}

