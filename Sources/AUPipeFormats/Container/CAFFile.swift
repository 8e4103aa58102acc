/// Apple's Core Audio Format: a `caff` file header, a `desc` chunk, optional chunks, `data`.
/// All header fields are big-endian. In `desc`, flag bit 0 means float and bit 1 little-endian.
public enum CAFFile {
    package static let flagFloat: UInt32 = 1
    package static let flagLittleEndian: UInt32 = 2

    /// Reads what follows the `caff` magic up to the first audio byte.
    package static func readHeader(_ source: any ByteSource) throws -> StreamHeader {
        var c = HeaderCursor(source, what: "CAF header")
        let version = try c.u16be()
        _ = try c.u16be()
        guard version == 1 else { throw AUPipeError.data("\(source.name): CAF version \(version) is not 1") }
        var format: StreamFormat?
        var layout: [UInt8]?
        while true {
            let type = try c.fourCC()
            let size = Int64(bitPattern: try c.u64be())
            switch type {
            case "desc":
                guard size == 32 else { throw AUPipeError.data("\(source.name): CAF desc chunk is \(counted(Int(size), "byte")), not 32") }
                format = try parseDesc(try c.bytes(32), name: source.name)
            case "data":
                guard let format else { throw AUPipeError.data("\(source.name): CAF data chunk comes before desc") }
                _ = try c.u32be() // edit count
                let dataBytes: UInt64?
                if size == -1 { dataBytes = nil } else {
                    guard size >= 4 else { throw AUPipeError.data("\(source.name): CAF data chunk size \(size) is smaller than its 4-byte edit count") }
                    dataBytes = UInt64(size - 4)
                }
                return StreamHeader(container: .caf, format: format, dataBytes: dataBytes, headerBytes: c.offset, cafChannelLayout: layout)
            default:
                guard format != nil else { throw AUPipeError.data("\(source.name): CAF starts with a '\(type)' chunk; desc must come first") }
                guard size >= 0 else { throw AUPipeError.data("\(source.name): CAF chunk '\(type)' has size \(size); only data may run to the end") }
                if type == "chan", size <= 4096 { layout = try c.bytes(Int(size)) } else { try c.skip(size) }
            }
        }
    }

    package static func parseDesc(_ b: [UInt8], name: String) throws -> StreamFormat {
        func u32(_ at: Int) -> UInt32 { b[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let rate = Double(bitPattern: b[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        let formatID = String(decoding: b[8..<12], as: UTF8.self)
        let flags = u32(12), bytesPerPacket = u32(16), framesPerPacket = u32(20), channels = u32(24), bits = u32(28)
        guard rate.isFinite, rate >= 1, rate <= 768_000, rate == rate.rounded() else {
            throw AUPipeError.data("\(name): CAF sample rate \(rate) is not a whole number of Hz in 1...768000")
        }
        guard channels >= 1, channels <= 64 else { throw AUPipeError.data("\(name): CAF header has \(channels) channels; 1...64 allowed") }
        let encoding: SampleEncoding?
        switch formatID {
        case "lpcm":
            let isFloat = flags & flagFloat != 0
            encoding = SampleEncoding(isFloat ? .float : .signedInteger, bits: Int(bits), bigEndian: flags & flagLittleEndian == 0)
            if let e = encoding, bytesPerPacket != UInt32(e.bytesPerSample) * channels {
                throw AUPipeError.data("\(name): CAF packs \(bits)-bit samples in \(bytesPerPacket) bytes per \(channels)-channel frame; only packed samples (\(UInt32(e.bytesPerSample) * channels) bytes) are read")
            }
        case "ulaw": encoding = SampleEncoding(.muLaw, bits: 8)
        case "alaw": encoding = SampleEncoding(.aLaw, bits: 8)
        default:
            throw AUPipeError.data("\(name): CAF holds '\(formatID)', not PCM; decode it first, e.g. ffmpeg -i IN -f caf -c:a pcm_s16le -")
        }
        guard let encoding else { throw AUPipeError.data("\(name): CAF lpcm with \(bits) bits (flags \(flags)) is not supported; 8/16/24/32-bit integers and 32/64-bit floats are") }
        guard framesPerPacket == 1 else { throw AUPipeError.data("\(name): CAF has \(framesPerPacket) frames per packet; PCM has 1") }
        return StreamFormat(encoding: encoding, sampleRate: Int(rate), channels: Int(channels))
    }

    /// The header for `format`: `caff`, `desc`, optional `chan`, then `data` with size -1
    /// (`dataBytes` nil) or 4 + dataBytes. Its length does not depend on `dataBytes`.
    public static func header(_ format: StreamFormat, dataBytes: UInt64?, channelLayout: [UInt8]?) -> [UInt8] {
        var h: [UInt8] = []
        h.append(fourCC: "caff")
        h += [0, 1, 0, 0]
        h.append(fourCC: "desc")
        h.append(be: UInt64(32))
        h.append(be: Double(format.sampleRate).bitPattern)
        let e = format.encoding
        switch e.kind {
        case .muLaw: h.append(fourCC: "ulaw")
        case .aLaw: h.append(fourCC: "alaw")
        default: h.append(fourCC: "lpcm")
        }
        var flags: UInt32 = 0
        if e.isFloat { flags |= flagFloat }
        if e.isInteger || e.isFloat, !e.isBigEndian, e.bits > 8 { flags |= flagLittleEndian }
        h.append(be: flags)
        h.append(be: UInt32(format.bytesPerFrame))
        h.append(be: UInt32(1))
        h.append(be: UInt32(format.channels))
        h.append(be: UInt32(e.bits))
        if let layout = channelLayout ?? defaultLayout(channels: format.channels) {
            h.append(fourCC: "chan")
            h.append(be: UInt64(layout.count))
            h += layout
        }
        h.append(fourCC: "data")
        h.append(be: dataBytes.map { $0 + 4 } ?? UInt64.max)
        h.append(be: UInt32(0)) // edit count
        return h
    }

    /// `chan` bodies for 1 to 8 channels: the speakers of `WAVFile.defaultMask`, so that a
    /// stream written as CAF and as WAV has the same layout for readers (ffmpeg: mono, stereo,
    /// 3.0, quad, the 5-channel mask, 5.1, the 7-channel mask, 7.1). A Core Audio layout tag
    /// where ffmpeg reads one as those speakers (kAudioChannelLayoutTag_Mono, _Stereo,
    /// _MPEG_3_0_A, _Quadraphonic, _MPEG_7_1_C); else kAudioChannelLayoutTag_UseChannelBitmap
    /// with the mask, whose bits are Core Audio's channel bits too (5, 6 and 7 channels: ffmpeg
    /// reads _MPEG_5_1_A as 5.1(side), not the 5.1 of mask 0x3F). Nil for more than 8 channels.
    package static func defaultLayout(channels: Int) -> [UInt8]? {
        guard (1...8).contains(channels) else { return nil }
        let mask = WAVFile.defaultMask(channels: channels)
        let tags: [UInt32: UInt32] = [0x4: 0x0064_0001, 0x3: 0x0065_0002, 0x7: 0x0071_0003, 0x33: 0x006C_0004, 0x63F: 0x0080_0008]
        let tag = tags[mask]
        var b: [UInt8] = []
        b.append(be: tag ?? useChannelBitmap)
        b.append(be: tag == nil ? mask : 0)
        b.append(be: UInt32(0)) // no channel descriptions
        return b
    }

    /// kAudioChannelLayoutTag_UseChannelBitmap: the layout is the `chan` chunk's bitmap.
    package static let useChannelBitmap: UInt32 = 0x0001_0000
}
