import AUPipeKit
import Foundation
import Testing

/// Deterministic test streams built in the test itself (no peer needed).
enum Signal {
    /// Interleaved s16le samples: a different sine per channel.
    static func s16le(frames: Int, channels: Int, rate: Int = 48000) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(frames * channels * 2)
        for f in 0..<frames {
            for c in 0..<channels {
                let v = Int16((0.5 * sin(2 * Double.pi * Double(220 * (c + 1)) * Double(f) / Double(rate)) * 32767).rounded())
                let u = UInt16(bitPattern: v)
                out += [UInt8(u & 0xFF), UInt8(u >> 8)]
            }
        }
        return out
    }

    /// A WAV stream (header sizes real) of `s16le(frames:channels:rate:)`.
    static func wav(frames: Int, channels: Int, rate: Int = 48000) -> Data {
        let format = StreamFormat(encoding: .s16le, sampleRate: rate, channels: channels)
        return Data(WAVFile.header(format, dataBytes: UInt64(frames * channels * 2), channelMask: nil) + s16le(frames: frames, channels: channels, rate: rate))
    }
}

@Suite("Command-line behaviour")
struct CLIBehaviourTests {
    static let clip = Signal.wav(frames: 4800, channels: 2)

    /// Exactly one line on stderr, starting `aupipe: `, with each of `needles`; the status; no audio.
    static func expectError(_ r: CLI.Result, status: Int32, _ needles: String..., audioAllowed: Bool = false,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "status \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "expected one line on stderr, got: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("aupipe: "), "stderr: \(r.stderr)", sourceLocation: sourceLocation)
        for n in needles {
            #expect(r.stderr.contains(n), "stderr lacks '\(n)': \(r.stderr)", sourceLocation: sourceLocation)
        }
        if !audioAllowed { #expect(r.stdout.isEmpty, "wrote \(r.stdout.count) bytes of output", sourceLocation: sourceLocation) }
    }

    // MARK: - Usage errors (64)

    @Test func unknownUnitSuggestsTheNearestName() throws {
        let r = try CLI.aupipe(["gian", "-6"], stdin: Self.clip)
        Self.expectError(r, status: 64, "gian", "did you mean 'gain'")
    }

    @Test func unknownParameter() throws {
        let r = try CLI.aupipe(["gain", "level=3"], stdin: Self.clip)
        Self.expectError(r, status: 64, "gain", "level")
    }

    @Test func valueOutOfRangeNamesTheRange() throws {
        let r = try CLI.aupipe(["gain", "db=100"], stdin: Self.clip)
        Self.expectError(r, status: 64, "gain", "100", "-120...60")
        let q = try CLI.aupipe(["resample", "16000", "quality=11"], stdin: Self.clip)
        Self.expectError(q, status: 64, "resample", "quality", "0...10")
    }

    @Test func unknownOption() throws {
        let r = try CLI.aupipe(["--frobnicate", "gain", "-6"], stdin: Self.clip)
        Self.expectError(r, status: 64, "--frobnicate")
        let typo = try CLI.aupipe(["--stat", "gain", "-6"], stdin: Self.clip)
        Self.expectError(typo, status: 64, "--stat", "did you mean --stats")
    }

    // MARK: - Bad data (65)

    @Test func noHeaderAndNoInFormat() throws {
        let r = try CLI.aupipe(["gain", "-6"], stdin: Data(Signal.s16le(frames: 100, channels: 1)))
        Self.expectError(r, status: 65, "--in-format")
    }

    @Test func emptyInput() throws {
        let r = try CLI.aupipe([])
        Self.expectError(r, status: 65, "empty")
    }

    @Test func truncatedWAVHeader() throws {
        let r = try CLI.aupipe(["gain", "-6"], stdin: Self.clip.prefix(30))
        Self.expectError(r, status: 65, "WAV")
    }

    /// Complete frames are written first, then the dropped bytes are reported: with no units
    /// (bytes copied) and with a unit (decoded and encoded).
    @Test(arguments: [[], ["gain", "-1"]])
    func streamEndingMidFrame(_ chain: [String]) throws {
        let bytes = Signal.s16le(frames: 250, channels: 2) + [0x12, 0x34, 0x56]  // 250 frames and 3 bytes
        let r = try CLI.aupipe(["--in-format", "s16le:48000:2"] + chain, stdin: Data(bytes))
        Self.expectError(r, status: 65, "3", audioAllowed: true)
        #expect(r.stdout.count == 1000, "wrote \(r.stdout.count) bytes, not the 250 complete frames")
        if chain.isEmpty { #expect(r.stdout == Data(bytes.prefix(1000))) }
    }

    @Test(arguments: [[], ["gain", "-1"]])
    func wavDataChunkLongerThanTheStream(_ chain: [String]) throws {
        // The header declares 4800 frames; only 1000 follow.
        let full = Signal.wav(frames: 4800, channels: 2)
        let cut = full.prefix(44 + 4000)
        let r = try CLI.aupipe(["-t", "raw"] + chain, stdin: cut)
        Self.expectError(r, status: 65, "short", audioAllowed: true)
        #expect(r.stdout.count == 4000, "wrote \(r.stdout.count) bytes, not the 1000 frames present")
        if chain.isEmpty { #expect(r.stdout == cut.suffix(4000)) }
    }

    // MARK: - Files (66, 73)

    @Test func missingInputFile() throws {
        let r = try CLI.aupipe(["-i", "/nonexistent/aupipe-in.wav", "gain", "-6"])
        Self.expectError(r, status: 66, "/nonexistent/aupipe-in.wav")
    }

    @Test func unwritableOutputPath() throws {
        let r = try CLI.aupipe(["-o", "/nonexistent-dir/out.wav", "gain", "-6"], stdin: Self.clip)
        Self.expectError(r, status: 73, "/nonexistent-dir/out.wav")
    }

    // MARK: - A reader that closes early

    /// `| head -c 1000` ends aupipe quietly: status 0 and nothing on stderr, whether it copies
    /// bytes or processes them.
    @Test(arguments: ["", "gain -1", "resample 44100"])
    func headClosingThePipeIsQuiet(_ chain: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 4 s of stereo s16 (768 KB): far more than the pipe holds when head has gone.
        try Data(Signal.s16le(frames: 192_000, channels: 2)).write(to: dir.appendingPathComponent("in.raw"))
        let r = try CLI.shell("set +o pipefail; \"$AUPIPE\" -i in.raw --in-format s16le:48000:2 -t wav \(chain) | head -c 1000 | wc -c; " +
                              "echo \"aupipe=${PIPESTATUS[0]} head=${PIPESTATUS[1]}\"", cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("aupipe=0 head=0"), "\(text)")
        #expect(text.hasPrefix("1000\n"), "\(text)")
        #expect(r.stderr == "", "stderr: \(r.stderr)")
    }

    // MARK: - Determinism

    @Test(arguments: ["resample 16000 : gain -3 : mute at=0.02-0.05 ramp=5ms", "convert channels=1 : resample 44.1k quality=10", "resample 8000 -t au --out-format mulaw"])
    func sameCommandSameBytes(_ chain: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Signal.wav(frames: 12_345, channels: 2).write(to: dir.appendingPathComponent("in.wav"))
        let first = try CLI.shell("cat in.wav | \"$AUPIPE\" \(chain)", cwd: dir)
        let second = try CLI.shell("cat in.wav | \"$AUPIPE\" \(chain)", cwd: dir)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(first.stdout.count > 1000)
        #expect(Bytes.firstDifference(first.stdout, second.stdout) == nil, "\(Bytes.firstDifference(first.stdout, second.stdout) ?? "")")
        // And independent of how the stream is cut into blocks (DESIGN: Tests).
        let blocks = try CLI.shell("cat in.wav | \"$AUPIPE\" --block 7f \(chain)", cwd: dir)
        #expect(Bytes.firstDifference(first.stdout, blocks.stdout) == nil, "--block 7f: \(Bytes.firstDifference(first.stdout, blocks.stdout) ?? "")")
    }

    // MARK: - Commands that describe

    @Test func checkValidatesAndWritesNoAudio() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.shell("\"$AUPIPE\" --check resample 16000 : convert channels=1 -o out.wav", stdin: Self.clip, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("s16le:48000:2"), "\(text)")
        #expect(text.contains("s16le:16000:1"), "\(text)")
        #expect(!text.contains("RIFF"))
        #expect(r.stdout.count < 200)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.wav").path), "--check created the output file")
        // And a chain that cannot work with this input fails the check.
        let bad = try CLI.aupipe(["--check", "convert", "map=0,2"], stdin: Self.clip)
        Self.expectError(bad, status: 64, "map")
    }

    static func infoLines(_ r: CLI.Result) -> [String: String] {
        var d: [String: String] = [:]
        for line in String(decoding: r.stdout, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            d[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return d
    }

    @Test(arguments: [
        // container, aupipe args that make it from the clip, expected spec, expected flags, bits
        ("wav", "", "s16le:48000:2", "0xC", "16"),
        ("au", "-t au", "s16be:48000:2", "0xE", "16"),
        ("caf", "-t caf --out-format f32le", "f32le:48000:2", "0x9", "32"),
    ])
    func infoPrintsSpecAndASBD(_ container: String, _ args: String, _ spec: String, _ flags: String, _ bits: String) throws {
        let r = try CLI.shell("\"$AUPIPE\" \(args) | \"$AUPIPE\" info -", stdin: Self.clip)
        #expect(r.status == 0, "\(r.stderr)")
        let info = Self.infoLines(r)
        #expect(info["container"] == container)
        #expect(info["format"] == spec)
        #expect(info["mSampleRate"]?.hasPrefix("48000") == true)
        #expect(info["mFormatID"] == "lpcm")
        #expect(info["mFormatFlags"]?.hasPrefix(flags) == true, "\(info["mFormatFlags"] ?? "none")")
        #expect(info["mChannelsPerFrame"] == "2")
        #expect(info["mBitsPerChannel"] == bits)
        #expect(info["mBytesPerFrame"] == String(2 * Int(bits)! / 8))
        #expect(info["mFramesPerPacket"] == "1")
    }

    @Test func infoWithInFormat() throws {
        let r = try CLI.aupipe(["info", "--in-format", "S16_LE:16k:1"], stdin: Data(Signal.s16le(frames: 10, channels: 1)))
        #expect(r.status == 0, "\(r.stderr)")
        let info = Self.infoLines(r)
        #expect(info["container"] == "raw")
        #expect(info["format"] == "s16le:16000:1")
        #expect(info["mBytesPerFrame"] == "2")
        #expect(info["mFormatFlags"]?.hasPrefix("0xC") == true)
        // A file gives its frame count.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.clip.write(to: dir.appendingPathComponent("in.wav"))
        let file = Self.infoLines(try CLI.aupipe(["info", dir.appendingPathComponent("in.wav").path]))
        #expect(file["frames"] == "4800")
        #expect(file["duration"] == "0.100 s")
    }

    @Test func unitsListsEveryUnit() throws {
        let r = try CLI.aupipe(["units"])
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        for d in UnitRegistry.all {
            #expect(text.contains("\n\(d.name) ") || text.hasPrefix("\(d.name) "), "units does not list \(d.name)")
            for p in d.parameters { #expect(text.contains("\(p.name)="), "units does not list \(d.name) \(p.name)=") }
        }
        for name in ["convert", "gain", "mute", "resample"] { #expect(text.contains(name)) }
    }

    @Test func helpForAUnitAndForNone() throws {
        let r = try CLI.aupipe(["help", "resample"])
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("resample"))
        #expect(text.contains("rate"))
        #expect(text.contains("quality"))
        #expect(text.contains("0...10"))
        let nope = try CLI.aupipe(["help", "nope"])
        Self.expectError(nope, status: 64, "nope")
    }

    // MARK: - Statistics

    @Test func statsText() throws {
        let r = try CLI.aupipe(["--stats", "gain", "-6", ":", "resample", "16000"], stdin: Signal.wav(frames: 48000, channels: 2))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.count == 44 + 16000 * 4)
        #expect(r.stderr.contains("48000 frames"), "\(r.stderr)")
        #expect(r.stderr.contains("16000 frames"), "\(r.stderr)")
        #expect(r.stderr.contains("gain"))
        #expect(r.stderr.contains("resample"))
        #expect(r.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("aupipe: ") })
    }

    @Test func statsJSON() throws {
        let r = try CLI.aupipe(["--stats=json", "gain", "-6", ":", "resample", "16000"], stdin: Signal.wav(frames: 48001, channels: 2))
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stderr.utf8))
        let json = try #require(object as? [String: Any])
        let input = try #require(json["input"] as? [String: Any])
        let output = try #require(json["output"] as? [String: Any])
        let units = try #require(json["units"] as? [[String: Any]])
        #expect(input["frames"] as? Int == 48001)
        #expect(input["format"] as? String == "s16le:48000:2")
        #expect(output["frames"] as? Int == 16000)  // round(48001 / 3)
        #expect(output["format"] as? String == "s16le:16000:2")
        #expect(units.map { $0["name"] as? String } == ["gain", "resample"])
        #expect(units.first?["framesOut"] as? Int == 48001)
        #expect(units.last?["framesIn"] as? Int == 48001)
        #expect(units.last?["framesOut"] as? Int == 16000)
        let peak = try #require(units.first?["peakDBFS"] as? Double)
        #expect(abs(peak - (-6 + 20 * log10(0.5))) < 0.1, "gain peak \(peak) dBFS")
        #expect(r.stdout.count == 44 + 16000 * 4)
    }

    // MARK: - --out-format with rate and channels

    @Test(arguments: [48000, 1000, 1001, 1002, 7])
    func outFormatConvertsRateAndChannelsAtTheEnd(_ frames: Int) throws {
        let r = try CLI.aupipe(["--in-format", "s16le:48000:2", "--out-format", "s16le:16000:1"], stdin: Data(Signal.s16le(frames: frames, channels: 2)))
        #expect(r.status == 0, "\(r.stderr)")
        let expected = Int((Double(frames) * 16000 / 48000).rounded())
        #expect(r.stdout.count == expected * 2, "\(frames) frames gave \(r.stdout.count / 2), not \(expected)")
        // With a header: the header says so too.
        let wav = try CLI.shell("\"$AUPIPE\" --in-format s16le:48000:2 --out-format s16le:16000:1 -t wav | \"$AUPIPE\" info", stdin: Data(Signal.s16le(frames: frames, channels: 2)))
        #expect(Self.infoLines(wav)["format"] == "s16le:16000:1")
    }
}
