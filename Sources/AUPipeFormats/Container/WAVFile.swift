/// RIFF WAVE (and RF64): little-endian chunks `fmt `, `data` and any others, padded to even sizes.
public enum WAVFile {
    package static let tagPCM: UInt16 = 1, tagFloat: UInt16 = 3, tagALaw: UInt16 = 6, tagMuLaw: UInt16 = 7, tagExtensible: UInt16 = 0xFFFE
    /// The 14 bytes after the 2-byte format tag in every KSDATAFORMAT_SUBTYPE GUID.
    package static let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    /// Reads what follows the `RIFF`/`RF64` magic up to the first audio byte. Returns the
    /// header, and bytes read past it that are audio and must be read again first (see
    /// `sizeZero`); usually none.
    package static func readHeader(_ source: any ByteSource, riffTag: String) throws -> (StreamHeader, putBack: [UInt8]) {
        var c = HeaderCursor(source, what: "WAV header")
        _ = try c.u32le() // RIFF size: not needed to read a stream
        guard try c.fourCC() == "WAVE" else { throw AUPipeError.data("\(source.name): RIFF file is not WAVE") }
        var format: StreamFormat?
        var mask: UInt32?
        var ds64DataSize: UInt64?
        while true {
            let id = try c.fourCC()
            let size = try c.u32le()
            switch id {
            case "fmt ":
                guard size >= 16, size <= 4096 else { throw AUPipeError.data("\(source.name): WAV fmt chunk is \(counted(Int(size), "byte")); 16...4096 expected") }
                let body = try c.bytes(Int(size) + Int(size & 1))
                (format, mask) = try parseFmt(body, size: Int(size), name: source.name)
            case "ds64":
                guard size >= 24 else { throw AUPipeError.data("\(source.name): RF64 ds64 chunk is \(counted(Int(size), "byte")); at least 24 expected") }
                // RIFF size, data size, sample count; the table that may follow is skipped.
                let body = try c.bytes(24)
                ds64DataSize = body[8..<16].reversed().reduce(0) { $0 << 8 | UInt64($1) }
                try c.skip(Int64(size) - 24 + Int64(size & 1))
            case "data":
                guard let format else { throw AUPipeError.data("\(source.name): WAV data chunk comes before fmt") }
                let headerBytes = c.offset
                var dataBytes: UInt64? = StreamHeader.streamingSizes32.contains(size) ? nil : UInt64(size)
                // sox rounds its pipe size 0x7FFFF000 down to whole frames (0x7FFFEFFC for 6- and 12-byte frames).
                if size == 0x7FFF_F000 - 0x7FFF_F000 % UInt32(format.bytesPerFrame) { dataBytes = nil }
                if riffTag == "RF64", size == 0xFFFF_FFFF, let d = ds64DataSize, d != 0, d != UInt64.max { dataBytes = d }
                var putBack: [UInt8] = []
                if size == 0 { (dataBytes, putBack) = try sizeZero(&c, after: headerBytes) }
                return (StreamHeader(container: .wav, format: format, dataBytes: dataBytes, headerBytes: headerBytes, wavChannelMask: mask), putBack)
            default:
                try c.skip(Int64(size) + Int64(size & 1))
            }
        }
    }

    /// What a data chunk of size 0 holds. Some writers put 0 on a pipe for "to the end of the
    /// stream" (arecord did), and then audio follows; a truly empty data chunk is followed by
    /// another chunk (`LIST`, as sox reads it: 0 frames) or by nothing. The next 8 bytes tell
    /// them apart: a chunk header (four printable ASCII characters, the first a letter or
    /// digit, and a size that fits in what a regular file has left) makes the data empty;
    /// anything else is audio, read to the end, and returned to be read again (nothing at all
    /// is the end either way).
    package static func sizeZero(_ c: inout HeaderCursor, after headerBytes: Int64) throws -> (dataBytes: UInt64?, putBack: [UInt8]) {
        let next = try c.upTo(8)
        guard next.count == 8 else { return (nil, next) }
        let id = next[0..<4]
        let printable = id.allSatisfy { (0x20...0x7E).contains($0) }
        let first = UnicodeScalar(id[id.startIndex])
        let named = printable && (("A"..."Z").contains(first) || ("a"..."z").contains(first) || ("0"..."9").contains(first))
        let chunkSize = next[4..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let fits = c.source.regularFileSize.map { UInt64(max(0, $0 - headerBytes - 8)) + 1 >= chunkSize } ?? true
        return named && fits ? (0, []) : (nil, next)
    }

    package static func parseFmt(_ b: [UInt8], size: Int, name: String) throws -> (StreamFormat, UInt32?) {
        func u16(_ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { b[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        var tag = u16(0)
        let channels = Int(u16(2)), rate = Int(u32(4)), blockAlign = Int(u16(12)), bits = Int(u16(14))
        var mask: UInt32?
        guard (1...64).contains(channels) else { throw AUPipeError.data("\(name): WAV header has \(channels) channels; 1...64 allowed") }
        guard StreamFormat.rateRange.contains(rate) else { throw AUPipeError.data("\(name): WAV sample rate \(rate) Hz is outside 1...768000") }
        if tag == tagExtensible {
            guard size >= 40 else { throw AUPipeError.data("\(name): WAVE_FORMAT_EXTENSIBLE fmt chunk is \(counted(size, "byte")), not 40") }
            mask = u32(20)
            guard Array(b[26..<40]) == guidTail else { throw AUPipeError.data("\(name): WAV SubFormat GUID is not a standard PCM/float/G.711 one") }
            tag = u16(24)
        }
        guard blockAlign > 0, blockAlign % channels == 0 else {
            throw AUPipeError.data("\(name): WAV block align \(blockAlign) does not divide into \(channels) channels")
        }
        let container = blockAlign / channels * 8
        let encoding: SampleEncoding?
        switch tag {
        case tagPCM:
            if container == 32, bits == 24, mask == nil {
                throw AUPipeError.data("\(name): WAV has 24-bit samples in 4-byte containers (ALSA S24_LE), which aupipe does not read; record as S24_3LE or S32_LE instead")
            }
            guard bits <= container, bits > 0 else { throw AUPipeError.data("\(name): WAV says \(bits) bits in \(container)-bit containers") }
            encoding = SampleEncoding(container == 8 ? .unsignedInteger : .signedInteger, bits: container)
        case tagFloat: encoding = SampleEncoding(.float, bits: container)
        case tagALaw: encoding = container == 8 ? SampleEncoding(.aLaw, bits: 8) : nil
        case tagMuLaw: encoding = container == 8 ? SampleEncoding(.muLaw, bits: 8) : nil
        default:
            throw AUPipeError.data("\(name): WAV format tag 0x\(String(tag, radix: 16, uppercase: true)) is not PCM; decode it first, e.g. ffmpeg -i IN -f wav -")
        }
        guard let encoding else {
            throw AUPipeError.data("\(name): WAV format tag \(tag) with \(container)-bit samples is not supported")
        }
        return (StreamFormat(encoding: encoding, sampleRate: rate, channels: channels), mask)
    }

    /// The default dwChannelMask for `channels` speakers (mono FC, stereo FL FR, quad, 5.1, 7.1).
    package static func defaultMask(channels: Int) -> UInt32 {
        switch channels {
        case 1: return 0x4
        case 2: return 0x3
        case 4: return 0x33
        case 6: return 0x3F
        case 8: return 0x63F
        default: return channels >= 32 ? 0 : (1 << UInt32(channels)) - 1
        }
    }

    /// The header for `format`. Integers of ≤16 bits use a plain 16-byte fmt (44-byte header);
    /// floats and G.711 with ≤2 channels an 18-byte one with cbSize 0 (46 bytes), since a
    /// format other than PCM has the cbSize field (sox warns "missing extended part of fmt
    /// chunk" without it); everything else WAVE_FORMAT_EXTENSIBLE (68 bytes). Streaming sizes
    /// are 0xFFFFFFFF. The length does not depend on `dataBytes`.
    public static func header(_ format: StreamFormat, dataBytes: UInt64?, channelMask: UInt32?) -> [UInt8] {
        let e = format.encoding
        let tag: UInt16 = e.isFloat ? tagFloat : (e.kind == .muLaw ? tagMuLaw : (e.kind == .aLaw ? tagALaw : tagPCM))
        let extensible = format.channels > 2 || (e.isInteger && e.bits > 16)
        var fmt: [UInt8] = []
        fmt.append(le: extensible ? tagExtensible : tag)
        fmt.append(le: UInt16(format.channels))
        fmt.append(le: UInt32(format.sampleRate))
        fmt.append(le: UInt32(format.sampleRate * format.bytesPerFrame))
        fmt.append(le: UInt16(format.bytesPerFrame))
        fmt.append(le: UInt16(e.bits))
        if extensible {
            fmt.append(le: UInt16(22))
            fmt.append(le: UInt16(e.bits))
            fmt.append(le: channelMask ?? defaultMask(channels: format.channels))
            fmt.append(le: tag)
            fmt += guidTail
        } else if tag != tagPCM {
            fmt.append(le: UInt16(0)) // cbSize: no extension
        }
        let dataSize: UInt32 = dataBytes.flatMap { UInt32(exactly: $0) } ?? 0xFFFF_FFFF
        var h: [UInt8] = []
        h.append(fourCC: "RIFF")
        let riffSize: UInt64? = dataBytes.map { 4 + 8 + UInt64(fmt.count) + 8 + $0 + ($0 & 1) }
        h.append(le: riffSize.flatMap { UInt32(exactly: $0) } ?? 0xFFFF_FFFF)
        h.append(fourCC: "WAVE")
        h.append(fourCC: "fmt ")
        h.append(le: UInt32(fmt.count))
        h += fmt
        h.append(fourCC: "data")
        h.append(le: dataSize)
        return h
    }
}
