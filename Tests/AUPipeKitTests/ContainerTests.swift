import Testing
import AUPipeKit

@Suite struct ContainerTests {
    func header(_ bytes: [UInt8], raw: StreamFormat? = nil) throws -> StreamHeader {
        try HeaderReader.read(MemorySource(bytes, chunk: 3), rawFormat: raw).0
    }

    func hex(_ s: String) -> [UInt8] {
        let digits = Array(s.filter(\.isHexDigit))
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    @Test func cafStreamingHeaderMatchesTheDocumentedBytes() {
        // FORMATS.md §1, our 68-byte streaming header for f32le 48 kHz stereo (with a chan chunk here).
        let f = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
        let h = CAFFile.header(f, dataBytes: nil, channelLayout: nil)
        #expect(Array(h[0..<52]) == hex("6361 6666 0001 0000 6465 7363 0000 0000 0000 0020 40e7 7000 0000 0000 6c70 636d 0000 0003 0000 0008 0000 0001 0000 0002 0000 0020"))
        #expect(Array(h.suffix(16)) == hex("6461 7461 ffff ffff ffff ffff 0000 0000"))
        // Only desc, chan, data: ffmpeg cannot skip other chunks on a pipe.
        #expect(String(decoding: h[52..<56], as: UTF8.self) == "chan")
    }

    @Test func wavCanonicalStreamingHeader() {
        let f = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        #expect(WAVFile.header(f, dataBytes: nil, channelMask: nil) ==
                hex("5249 4646 ffff ffff 5741 5645 666d 7420 1000 0000 0100 0200 80bb 0000 00ee 0200 0400 1000 6461 7461 ffff ffff"))
    }

    @Test func wavUsesExtensibleForManyChannelsOrWideIntegers() throws {
        let s24 = StreamFormat(encoding: try SampleEncoding(token: "s24le"), sampleRate: 48000, channels: 2)
        let h = WAVFile.header(s24, dataBytes: nil, channelMask: nil)
        #expect(h[20] == 0xFE && h[21] == 0xFF && h.count == 68)
        let f32 = StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 2)
        let hf = WAVFile.header(f32, dataBytes: nil, channelMask: nil)
        // Not PCM: an 18-byte fmt with cbSize 0 (sox warns about a 16-byte one).
        #expect(hf[20] == 3 && hf.count == 46 && hf[16] == 18 && hf[36] == 0 && hf[37] == 0)
        let six = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 6)
        let h6 = WAVFile.header(six, dataBytes: nil, channelMask: nil)
        #expect(h6[20] == 0xFE && Array(h6[40..<44]) == [0x3F, 0, 0, 0])
    }

    /// Every container writes a header that it reads back as the same format, streaming or sized.
    @Test(arguments: [ContainerKind.caf, .wav, .au])
    func headersRoundTrip(kind: ContainerKind) throws {
        for encoding in SampleEncoding.all where kind.nearestEncoding(to: encoding) == encoding {
            for channels in [1, 2, 6] {
                let f = StreamFormat(encoding: encoding, sampleRate: 44100, channels: channels)
                let header = StreamHeader(container: .raw, format: f, dataBytes: nil, headerBytes: 0)
                let plan = try OutputPlan(input: header, chainOutput: f, container: kind, explicitEncoding: encoding)
                let streaming = try self.header(plan.header(dataBytes: nil))
                #expect(streaming.format == f, "\(kind) \(f.spec)")
                #expect(streaming.dataBytes == nil)
                #expect(streaming.container == kind)
                let sized = try self.header(plan.header(dataBytes: 1200))
                #expect(sized.dataBytes == 1200)
                #expect(Int(sized.headerBytes) == plan.header(dataBytes: nil).count)
            }
        }
    }

    @Test(arguments: [UInt32(0), 0x7FFF_F000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF])
    func streamingSizesMeanToTheEnd(size: UInt32) throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        var wav = WAVFile.header(f, dataBytes: nil, channelMask: nil)
        wav.replaceSubrange(40..<44, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)])
        #expect(try header(wav).dataBytes == nil)
        var au = AUFile.header(StreamFormat(encoding: try SampleEncoding(token: "s16be"), sampleRate: 8000, channels: 1), dataBytes: nil)
        au.replaceSubrange(8..<12, with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        #expect(try header(au).dataBytes == nil)
    }

    @Test func wavSkipsUnknownChunksAndReadsExtensible() throws {
        // RIFF, fmt (extensible, 24-bit in 3 bytes, 3 channels, mask 0x7), LIST (odd size, padded), fact, data.
        var b: [UInt8] = Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WAVE".utf8)
        b += Array("fmt ".utf8) + [40, 0, 0, 0, 0xFE, 0xFF, 3, 0, 0x80, 0xBB, 0, 0, 0, 0, 0, 0, 9, 0, 24, 0, 22, 0, 24, 0, 7, 0, 0, 0, 1, 0]
        b += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        b += Array("LIST".utf8) + [5, 0, 0, 0] + Array("abcde".utf8) + [0]
        b += Array("fact".utf8) + [4, 0, 0, 0, 1, 0, 0, 0]
        b += Array("data".utf8) + [9, 0, 0, 0] + [1, 2, 3, 4, 5, 6, 7, 8, 9]
        let h = try header(b)
        #expect(h.format.spec == "s24le:48000:3")
        #expect(h.wavChannelMask == 7)
        #expect(h.dataBytes == 9)
        #expect(h.headerBytes == Int64(b.count - 9))
    }

    @Test func cafSkipsChunksAndKeepsTheChannelLayout() throws {
        // As ffmpeg writes: desc (s16le), chan, info, data -1.
        var b: [UInt8] = Array("caff".utf8) + [0, 1, 0, 0]
        b += Array("desc".utf8) + [0, 0, 0, 0, 0, 0, 0, 32] + hex("40bf400000000000") + Array("lpcm".utf8) + [0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 16]
        b += Array("chan".utf8) + [0, 0, 0, 0, 0, 0, 0, 12] + [0, 0x65, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
        b += Array("info".utf8) + [0, 0, 0, 0, 0, 0, 0, 6] + [0, 0, 0, 1, 0x61, 0]
        b += Array("data".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [0, 0, 0, 0]
        let h = try header(b)
        #expect(h.format.spec == "s16le:8000:2")
        #expect(h.dataBytes == nil)
        #expect(h.cafChannelLayout == [0, 0x65, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func auReadsAnnotationAndArecordSize() throws {
        // arecord: header 24, size 0xFFFFFFFE; sox: header 44 with annotation.
        var b: [UInt8] = Array(".snd".utf8) + [0, 0, 0, 32, 0xFF, 0xFF, 0xFF, 0xFE, 0, 0, 0, 3, 0, 0, 0x1F, 0x40, 0, 0, 0, 1]
        b += Array("annotati".utf8)
        let h = try header(b)
        #expect(h.format.spec == "s16be:8000:1" && h.dataBytes == nil && h.headerBytes == 32)
    }

    @Test func rawNeedsAFormatAndDetectsHeadersEvenWithOne() throws {
        #expect { try header([1, 2, 3, 4, 5]) } throws: { ($0 as! AUPipeError).message.contains("--in-format") }
        #expect { try header([]) } throws: { ($0 as! AUPipeError).message.contains("empty") }
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let (h, rest) = try HeaderReader.read(MemorySource([1, 2, 3, 4, 5, 6]), rawFormat: f)
        #expect(h.container == .raw)
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { try rest.read(into: $0) }
        #expect(n == 4 && buffer[0..<4] == [1, 2, 3, 4]) // the magic bytes come back first
        let wav = TestSignals.wav([0, 0], StreamFormat(encoding: .s16le, sampleRate: 16000, channels: 1))
        #expect { try header(wav, raw: f) } throws: { ($0 as! AUPipeError).message.contains("--in-format says s16le:8000:1") }
    }

    @Test func malformedHeadersAreDataErrors() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let wav = WAVFile.header(f, dataBytes: 10, channelMask: nil)
        #expect { try header(Array(wav.prefix(30))) } throws: { e in
            let e = e as! AUPipeError
            return e.status == .dataError && e.message.contains("truncated")
        }
        var zeroChannels = wav
        zeroChannels[22] = 0
        #expect { try header(zeroChannels) } throws: { ($0 as! AUPipeError).message.contains("0 channels") }
        var mp3 = wav
        mp3[20] = 0x55
        #expect { try header(mp3) } throws: { ($0 as! AUPipeError).message.contains("0x55") }
        var s24in4: [UInt8] = wav
        s24in4.replaceSubrange(32..<36, with: [4, 0, 24, 0])
        #expect { try header(s24in4) } throws: { ($0 as! AUPipeError).message.contains("S24_3LE") }
        var badCAF = CAFFile.header(f, dataBytes: nil, channelLayout: nil)
        badCAF.replaceSubrange(28..<32, with: Array("aac ".utf8))
        #expect { try header(badCAF) } throws: { ($0 as! AUPipeError).message.contains("not PCM") }
    }

    @Test func implicitEncodingsMoveToWhatTheContainerHolds() throws {
        #expect(ContainerKind.wav.nearestEncoding(to: try SampleEncoding(token: "s16be")).token == "s16le")
        #expect(ContainerKind.wav.nearestEncoding(to: try SampleEncoding(token: "s8")).token == "u8")
        #expect(ContainerKind.au.nearestEncoding(to: try SampleEncoding(token: "u8")).token == "s8")
        #expect(ContainerKind.au.nearestEncoding(to: .f32le).token == "f32be")
        #expect(ContainerKind.caf.nearestEncoding(to: try SampleEncoding(token: "u16le")).token == "s16le")
        let h = StreamHeader(container: .raw, format: StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1), dataBytes: nil, headerBytes: 0)
        #expect { try OutputPlan(input: h, chainOutput: h.format, container: .wav, explicitEncoding: try SampleEncoding(token: "s16be")) }
            throws: { ($0 as! AUPipeError).message.contains("--out-format s16le") }
    }
}
