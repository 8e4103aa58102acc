/// Sun/NeXT AU: `.snd`, data offset, data size, encoding, rate, channels, annotation; big-endian.
public enum AUFile {
    /// AU encoding numbers.
    package static let codes: [(UInt32, SampleEncoding)] = [
        (1, SampleEncoding(.muLaw, bits: 8)!), (2, SampleEncoding(.signedInteger, bits: 8)!),
        (3, SampleEncoding(.signedInteger, bits: 16, bigEndian: true)!), (4, SampleEncoding(.signedInteger, bits: 24, bigEndian: true)!),
        (5, SampleEncoding(.signedInteger, bits: 32, bigEndian: true)!), (6, SampleEncoding(.float, bits: 32, bigEndian: true)!),
        (7, SampleEncoding(.float, bits: 64, bigEndian: true)!), (27, SampleEncoding(.aLaw, bits: 8)!),
    ]
    /// The header size aupipe writes: 24 bytes of fields and 4 of empty annotation (sox warns below 28).
    package static let headerSize: UInt32 = 28

    /// Reads what follows the `.snd` magic up to the first audio byte.
    package static func readHeader(_ source: any ByteSource) throws -> StreamHeader {
        var c = HeaderCursor(source, what: "AU header")
        let offset = try c.u32be(), size = try c.u32be(), code = try c.u32be(), rate = try c.u32be(), channels = try c.u32be()
        guard offset >= 24, offset <= 1 << 24 else { throw AUPipeError.data("\(source.name): AU data offset \(offset) is outside 24...16777216") }
        guard let encoding = codes.first(where: { $0.0 == code })?.1 else {
            throw AUPipeError.data("\(source.name): AU encoding \(code) is not supported; 1 (µ-law), 2-5 (8-32 bit), 6-7 (float) and 27 (A-law) are")
        }
        guard StreamFormat.rateRange.contains(Int(rate)) else { throw AUPipeError.data("\(source.name): AU sample rate \(rate) Hz is outside 1...768000") }
        guard (1...64).contains(channels) else { throw AUPipeError.data("\(source.name): AU header has \(channels) channels; 1...64 allowed") }
        try c.skip(Int64(offset) - 24)
        let dataBytes: UInt64? = StreamHeader.streamingSizes32.contains(size) ? nil : UInt64(size)
        return StreamHeader(container: .au, format: StreamFormat(encoding: encoding, sampleRate: Int(rate), channels: Int(channels)),
                            dataBytes: dataBytes, headerBytes: c.offset)
    }

    /// The 28-byte header for `format`; size 0xFFFFFFFF while streaming.
    public static func header(_ format: StreamFormat, dataBytes: UInt64?) -> [UInt8] {
        let code = codes.first { $0.1 == format.encoding }!.0
        var h: [UInt8] = []
        h.append(fourCC: ".snd")
        h.append(be: headerSize)
        h.append(be: dataBytes.flatMap { UInt32(exactly: $0) }.flatMap { StreamHeader.streamingSizes32.contains($0) ? nil : $0 } ?? 0xFFFF_FFFF)
        h.append(be: code)
        h.append(be: UInt32(format.sampleRate))
        h.append(be: UInt32(format.channels))
        h.append(be: UInt32(0))
        return h
    }
}
