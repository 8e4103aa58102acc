import Testing
import AUPipeKit

@Suite struct SampleEncodingTests {
    @Test(arguments: [
        ("s16le", "s16le"), ("S16_LE", "s16le"), ("s16", "s16le"), ("S16LE", "s16le"), ("s16be", "s16be"), ("S16_BE", "s16be"),
        ("S24_3LE", "s24le"), ("s24le", "s24le"), ("S24_3BE", "s24be"), ("s24", "s24le"), ("s32", "s32le"), ("S32_LE", "s32le"),
        ("FLOAT_LE", "f32le"), ("flt", "f32le"), ("F32LE", "f32le"), ("f32be", "f32be"), ("FLOAT64_LE", "f64le"), ("dbl", "f64le"),
        ("u8", "u8"), ("U8", "u8"), ("s8", "s8"), ("u16be", "u16be"), ("MU_LAW", "mulaw"), ("mulaw", "mulaw"), ("A_LAW", "alaw"), ("alaw", "alaw"),
    ])
    func parsesTokensAndAliases(text: String, token: String) throws {
        #expect(try SampleEncoding(token: text).token == token)
    }

    @Test func everyCanonicalTokenRoundTrips() throws {
        for e in SampleEncoding.all { #expect(try SampleEncoding(token: e.token) == e) }
        #expect(SampleEncoding.all.count == 20)
    }

    @Test func refusesALSAs24In4BytesWithAHint() {
        #expect {
            _ = try SampleEncoding(token: "S24_LE")
        } throws: { e in
            let e = e as! AUPipeError
            return e.status == .usage && e.message.contains("S24_3LE") && e.message.contains("4-byte")
        }
    }

    @Test(arguments: ["s12le", "f16le", "x16", "s16xe", "", "pcm", "fltp"])
    func refusesUnknownTokens(text: String) {
        #expect(throws: AUPipeError.self) { try SampleEncoding(token: text) }
    }

    /// An unknown encoding in a spec names where the spec came from (a flag, or a unit's
    /// parameter), in both forms, and keeps the usage status.
    @Test(arguments: ["xx:48000:1", "format=xx,rate=48000,channels=1"])
    func anUnknownEncodingNamesItsOption(spec: String) {
        #expect {
            _ = try FormatSpec.parse(spec, option: "compressor: sidechain (voice.raw): format")
        } throws: { error in
            guard let e = error as? AUPipeError else { return false }
            return e.status == .usage && e.message.hasPrefix("compressor: sidechain (voice.raw): format: unknown sample format 'xx'")
        }
    }

    @Test func formatSpecParsesShortAndLongForms() throws {
        #expect(try FormatSpec.parse("s16le:48000:1", option: "x") == StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 1))
        #expect(try FormatSpec.parse("f32le:44.1k:2", option: "x") == StreamFormat(encoding: .f32le, sampleRate: 44100, channels: 2))
        #expect(try FormatSpec.parse("format=FLOAT_LE,rate=16kHz,channels=6,layout=interleaved", option: "x").spec == "f32le:16000:6")
        let parts = try FormatSpec.components("s16le", option: "x")
        #expect(parts.token == .s16le && parts.rate == nil && parts.channels == nil)
    }

    @Test(arguments: ["s16le:48000", "s16le:0:1", "s16le:48000:0", "s16le:48000:65", "s16le:44.15:1", "s16le:abc:1", "format=s16le,rate=8000,chans=1", "s16le:1:1:1"])
    func formatSpecRefusesBadSpecs(text: String) {
        #expect(throws: AUPipeError.self) { try FormatSpec.parse(text, option: "--in-format") }
    }

    @Test func asbdUsesInMemoryFlags() {
        let a = AudioStreamBasicDescription(StreamFormat(encoding: try! SampleEncoding(token: "s16be"), sampleRate: 8000, channels: 2))
        #expect(a.formatFlags == 0xE && a.bytesPerFrame == 4 && a.bitsPerChannel == 16 && a.formatID == "lpcm")
        let f = AudioStreamBasicDescription(StreamFormat(encoding: .f32le, sampleRate: 48000, channels: 1))
        #expect(f.formatFlags == 0x9)
        let u = AudioStreamBasicDescription(StreamFormat(encoding: try! SampleEncoding(token: "mulaw"), sampleRate: 8000, channels: 1))
        #expect(u.formatID == "ulaw" && u.formatFlags == 0)
    }
}
