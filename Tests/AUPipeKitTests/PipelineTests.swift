import Testing
import AUPipeKit

@Suite struct PipelineTests {
    /// A counting pattern of s32 samples that Float32 could not carry exactly.
    static func s32Stream(frames: Int) -> (StreamFormat, [UInt8]) {
        let f = StreamFormat(encoding: try! SampleEncoding(token: "s32le"), sampleRate: 8000, channels: 2)
        var data = [UInt8](repeating: 0, count: frames * 8)
        for i in data.indices { data[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
        return (f, WAVFile.header(f, dataBytes: UInt64(data.count), channelMask: nil) + data)
    }

    @Test func noUnitsCopiesEveryBitEvenWithStats() throws {
        let (_, input) = Self.s32Stream(frames: 1000)
        let r = try TestSignals.run([], input) { $0.stats = .text }
        #expect(TestSignals.audio(r.bytes, r.report) == Array(input.dropFirst(68)))
    }

    @Test func byteOrderChangesAreExact() throws {
        let (_, input) = Self.s32Stream(frames: 1000)
        let r = try TestSignals.run([], input) { $0.container = .au }
        #expect(r.report.output.format.encoding.token == "s32be")
        let out = TestSignals.audio(r.bytes, r.report)
        let data = Array(input.dropFirst(68))
        let swapped = stride(from: 0, to: data.count, by: 4).flatMap { data[$0..<$0 + 4].reversed() }
        #expect(out == swapped)
    }

    @Test func aStreamEndingMidFrameWritesEveryCompleteFrameThenFails() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 2)
        let raw = [UInt8](0..<41) // 10 frames of 4 bytes and 1 byte over
        let r = try TestSignals.run([["gain", "0.5"]], raw) { $0.inFormat = f }
        #expect(r.report.framesOut == 10)
        #expect(r.bytes.count == 40)
        #expect(r.report.dataError?.status == .dataError)
        #expect(r.report.dataError?.message.contains("1 trailing byte dropped") == true)
    }

    /// `--duration` stops after exactly that many frames, whether reads end mid-frame (pipe
    /// chunks of 4096 bytes, 6-byte frames) or not, with or without units, and with no error.
    @Test(arguments: [4096, 1000, .max])
    func durationStopsAtExactlyItsFrames(chunk: Int) throws {
        let f = StreamFormat(encoding: try SampleEncoding(token: "s24le"), sampleRate: 48000, channels: 2)
        let raw = [UInt8]((0..<(2 * 48000 * 6)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for chain in [[], [["gain", "-1"]]] {
            let r = try TestSignals.run(chain, raw, chunk: chunk) { $0.inFormat = f; $0.duration = .seconds(1) }
            #expect(r.report.framesIn == 48000 && r.report.framesOut == 48000, "chunk \(chunk), \(chain)")
            #expect(r.report.dataError == nil)
            if chain.isEmpty { #expect(r.bytes == Array(raw.prefix(288000))) }
        }
        // A duration shorter than a frame is one frame.
        let one = try TestSignals.run([], raw, chunk: chunk) { $0.inFormat = f; $0.duration = .seconds(1e-6) }
        #expect(one.report.framesOut == 1)
    }

    @Test func aStreamShortOfItsDeclaredSizeIsReported() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let input = WAVFile.header(f, dataBytes: 100, channelMask: nil) + [UInt8](repeating: 1, count: 60)
        let r = try TestSignals.run([], input)
        #expect(r.report.framesOut == 30)
        #expect(r.report.dataError?.message.contains("40 bytes short of the 100 bytes") == true)
    }

    @Test func readsStopAtTheDeclaredSize() throws {
        // A WAV file whose data chunk is followed by a LIST chunk: the LIST is not audio.
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let input = WAVFile.header(f, dataBytes: 8, channelMask: nil) + [1, 0, 2, 0, 3, 0, 4, 0] + Array("LIST".utf8) + [4, 0, 0, 0, 0, 0, 0, 0]
        let r = try TestSignals.run([], input)
        #expect(r.report.framesOut == 4 && r.report.dataError == nil)
    }

    @Test func sizesArePatchedOnlyWhenTheSinkCanBeRewritten() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        let input = TestSignals.wav([0.1, 0.2, 0.3], f)
        for patchable in [false, true] {
            let sink = MemorySink(patchable: patchable)
            let report = try Pipeline(chain: [["gain", "1"]], options: PipelineOptions()).run(source: MemorySource(input), sink: sink)
            let dataSize = Array(sink.bytes[40..<44])
            #expect(report.sizesPatched == patchable)
            #expect(dataSize == (patchable ? [6, 0, 0, 0] : [0xFF, 0xFF, 0xFF, 0xFF]))
        }
    }

    @Test func theOutputIsNotOpenedWhenTheChainDoesNotFit() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 8000, channels: 1)
        var opened = false
        #expect(throws: AUPipeError.self) {
            _ = try Pipeline(chain: [["convert", "map=1"]], options: PipelineOptions())
                .run(source: MemorySource(TestSignals.wav([0], f)), openSink: { opened = true; return MemorySink() })
        }
        #expect(!opened)
    }

    @Test func outFormatConvertsRateAndChannelsAtTheEnd() throws {
        let f = StreamFormat(encoding: .s16le, sampleRate: 48000, channels: 2)
        let input = TestSignals.wav(TestSignals.tones(frames: 4801, rate: 48000, channels: 2), f)
        let r = try TestSignals.run([["gain", "-1"]], input) { $0.outFormat = try! FormatSpec.components("f32le:16000:1", option: "x") }
        #expect(r.report.output.format.spec == "f32le:16000:1")
        #expect(r.report.framesOut == 1600) // round(4801 / 3) = round(1600.33)
        #expect { _ = try TestSignals.run([], input) { $0.outFormat = try! FormatSpec.components("::3", option: "x") } }
            throws: { ($0 as! AUPipeError).message.hasPrefix("--out-format: cannot choose how to turn 2 channels into 3") }
    }
}
