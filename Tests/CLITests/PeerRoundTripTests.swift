import AUPipeKit
import Foundation
import Testing

/// One sample encoding as each peer spells it.
struct PeerEncoding: Sendable, CustomTestStringConvertible {
    /// aupipe's and ffmpeg's raw token: what every decode is compared in.
    let token: String
    /// sox's flags for this encoding (synth into WAV, and raw output of every sox decode).
    let sox: String
    /// sox's flags for an AU source: AU has no unsigned 8-bit, so u8 goes as s8.
    let soxAU: String
    /// ffmpeg's codec for a CAF source: CAF has no unsigned 8-bit either (pcm_s8).
    let cafCodec: String
    let bytesPerSample: Int

    var testDescription: String { token }
    var isFloat: Bool { token.hasPrefix("f") }

    static let all: [PeerEncoding] = [
        PeerEncoding(token: "s16le", sox: "-e signed-integer -b 16", soxAU: "-e signed-integer -b 16", cafCodec: "pcm_s16le", bytesPerSample: 2),
        PeerEncoding(token: "s24le", sox: "-e signed-integer -b 24", soxAU: "-e signed-integer -b 24", cafCodec: "pcm_s24le", bytesPerSample: 3),
        PeerEncoding(token: "s32le", sox: "-e signed-integer -b 32", soxAU: "-e signed-integer -b 32", cafCodec: "pcm_s32le", bytesPerSample: 4),
        PeerEncoding(token: "f32le", sox: "-e floating-point -b 32", soxAU: "-e floating-point -b 32", cafCodec: "pcm_f32le", bytesPerSample: 4),
        PeerEncoding(token: "u8", sox: "-e unsigned-integer -b 8", soxAU: "-e signed-integer -b 8", cafCodec: "pcm_s8", bytesPerSample: 1),
        PeerEncoding(token: "mulaw", sox: "-e mu-law -b 8", soxAU: "-e mu-law -b 8", cafCodec: "pcm_mulaw", bytesPerSample: 1),
        PeerEncoding(token: "alaw", sox: "-e a-law -b 8", soxAU: "-e a-law -b 8", cafCodec: "pcm_alaw", bytesPerSample: 1),
    ]
}

/// Where a round trip's input comes from: sox writes WAV and AU to a pipe; only ffmpeg writes
/// CAF to a pipe (sox cannot).
enum PeerSource: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case wav, au, caf
    var testDescription: String { "\(rawValue) from \(self == .caf ? "ffmpeg" : "sox")" }
}

/// Real tools through real pipes: `cat file | tool - | $AUPIPE ... | tool ...`.
@Suite("Peers through real pipes")
struct PeerRoundTripTests {
    static let frames = 2000  // 0.25 s at 8 kHz, stereo: left 440 Hz, right 1000 Hz

    /// Writes the deterministic source stream `src.<kind>` into `dir`, through a pipe so that
    /// its header carries the writer's streaming sizes.
    static func makeSource(_ e: PeerEncoding, _ kind: PeerSource, in dir: URL) throws -> String {
        let script: String
        switch kind {
        case .wav:
            script = "sox -D -r 8000 -c 2 -n \(e.sox) -t wav - synth 0.25 sine 440 sine 1000 vol 0.9 | cat > src.wav"
        case .au:
            script = "sox -D -r 8000 -c 2 -n \(e.soxAU) -t au - synth 0.25 sine 440 sine 1000 vol 0.9 | cat > src.au"
        case .caf:
            // The same sox signal, so that every value is one sox can hold (its samples are
            // 32-bit integers inside: ffmpeg's own float sines would not survive sox's decode).
            script = "sox -D -r 8000 -c 2 -n -e floating-point -b 32 -t wav - synth 0.25 sine 440 sine 1000 vol 0.9 | " +
                "ffmpeg -v error -i - -c:a \(e.cafCodec) -fflags +bitexact -f caf - | cat > src.caf"
        }
        let r = try CLI.shell(script, cwd: dir)
        try #require(r.status == 0, "making the \(kind) source failed: \(r.stderr)")
        return "src.\(kind.rawValue)"
    }

    /// Reading to and writing from each peer: the samples sox and ffmpeg decode from aupipe's
    /// output equal what ffmpeg decodes from the source, for every container and encoding.
    @Test("round trip", .needs("sox", "ffmpeg"), arguments: PeerEncoding.all, PeerSource.allCases)
    func roundTrip(_ e: PeerEncoding, _ kind: PeerSource) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = try Self.makeSource(e, kind, in: dir)

        // The truth: ffmpeg reads all three containers from a pipe.
        let truth = try CLI.shell("cat \(src) | ffmpeg -v error -i - -f \(e.token) -", cwd: dir)
        try #require(truth.status == 0, "ffmpeg could not read the source: \(truth.stderr)")
        try #require(truth.stdout.count == Self.frames * 2 * e.bytesPerSample)

        for out in [nil, "wav", "au", "caf"] as [String?] {
            let container = out ?? kind.rawValue
            let flag = out.map { "-t \($0)" } ?? ""
            let what = "\(e.token) \(kind.rawValue) -> aupipe \(flag.isEmpty ? "(no units)" : flag)"

            // ffmpeg reads our output from the pipe; tee keeps a copy to check the header.
            let ff = try CLI.shell("cat \(src) | \"$AUPIPE\" \(flag) | tee ours.\(container) | ffmpeg -v error -i - -f \(e.token) -", cwd: dir)
            #expect(ff.status == 0, "\(what) | ffmpeg: \(ff.stderr)")
            // Exact for s32 too: with no units a byte-order change is a swap, not a trip through Float32.
            #expect(Bytes.firstDifference(ff.stdout, truth.stdout) == nil, "\(what) | ffmpeg: \(Bytes.firstDifference(ff.stdout, truth.stdout) ?? "")")
            let ours = try Data(contentsOf: dir.appendingPathComponent("ours.\(container)"))
            try Self.expectStreamingHeader(ours, container: container, what: what)

            if container != "caf" {
                let sx = try CLI.shell("cat \(src) | \"$AUPIPE\" \(flag) | sox -V1 -t \(container) - -t raw \(e.sox) -L -", cwd: dir)
                #expect(sx.status == 0, "\(what) | sox: \(sx.stderr)")
                #expect(Bytes.firstDifference(sx.stdout, truth.stdout) == nil, "\(what) | sox: \(Bytes.firstDifference(sx.stdout, truth.stdout) ?? "")")
            } else {
                // sox reads CAF only from a file with a real size: -o patches it.
                let sx = try CLI.shell("cat \(src) | \"$AUPIPE\" \(flag) -o file.caf && sox -V1 file.caf -t raw \(e.sox) -L -", cwd: dir)
                #expect(sx.status == 0, "\(what) -o file.caf; sox: \(sx.stderr)")
                var expected = truth.stdout
                if e.isFloat {
                    // libsndfile scales float CAF to a peak of 1 when reading (ffmpeg's CAF too),
                    // so compare with sox's reading of ffmpeg's CAF of the same samples.
                    let (header, _) = try HeaderReader.read(MemorySource([UInt8](ours)), rawFormat: nil)
                    let ref = try CLI.shell("ffmpeg -v error -i \(src) -c:a pcm_\(header.format.encoding.token) -f caf -y ref.caf && sox -V1 ref.caf -t raw \(e.sox) -L -", cwd: dir)
                    #expect(ref.status == 0, "\(what): reference CAF: \(ref.stderr)")
                    expected = ref.stdout
                }
                #expect(Bytes.firstDifference(sx.stdout, expected) == nil, "\(what) -o file.caf; sox: \(Bytes.firstDifference(sx.stdout, expected) ?? "")")
            }
        }
    }

    /// What a header written to a pipe must say: WAV FFFFFFFF/FFFFFFFF, AU FFFFFFFF, CAF data -1.
    static func expectStreamingHeader(_ d: Data, container: String, what: String) throws {
        switch container {
        case "wav":
            try #require(d.count >= 44 && d.prefix(4) == Data("RIFF".utf8), "\(what): not a WAV")
            #expect(Bytes.u32le(d, 4) == 0xFFFF_FFFF, "\(what): RIFF size")
            let data = try #require(Bytes.find("data", in: d))
            #expect(Bytes.u32le(d, data + 4) == 0xFFFF_FFFF, "\(what): data size")
        case "au":
            try #require(d.count >= 28 && d.prefix(4) == Data(".snd".utf8), "\(what): not an AU")
            #expect(Bytes.u32be(d, 4) >= 28, "\(what): AU header size")
            #expect(Bytes.u32be(d, 8) == 0xFFFF_FFFF, "\(what): AU data size")
        case "caf":
            try #require(d.count >= 68 && d.prefix(4) == Data("caff".utf8), "\(what): not a CAF")
            let data = try #require(Bytes.find("data", in: d))
            #expect(Bytes.u64be(d, data + 4) == UInt64.max, "\(what): CAF data size is not -1")
        default:
            Issue.record("unknown container \(container)")
        }
    }

    // MARK: - Headers on a pipe and in a file

    /// `aupipe -o file` and `aupipe > file` patch the real sizes in; `aupipe | cat` leaves the
    /// streaming sizes. Every peer reads the patched file.
    @Test("sizes: streaming on a pipe, real in a file", .needs("sox", "ffmpeg"), arguments: ["wav", "au", "caf"])
    func sizesPipeAndFile(_ container: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = 1001, channels = 2, bps = 2
        let made = try CLI.shell("sox -D -r 8000 -c 2 -n -b 16 -e signed-integer -t raw - synth \(frames)s sine 300 sine 500 > in.raw", cwd: dir)
        try #require(made.status == 0)
        let input = "--in-format s16le:8000:2 -t \(container)"
        let r = try CLI.shell("\"$AUPIPE\" \(input) -i in.raw -o out.\(container) && \"$AUPIPE\" \(input) < in.raw > redirected.\(container) && \"$AUPIPE\" \(input) < in.raw | cat > piped.\(container)", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let dataBytes = frames * channels * bps
        for name in ["out", "redirected"] {
            let d = try Data(contentsOf: dir.appendingPathComponent("\(name).\(container)"))
            switch container {
            case "wav":
                let data = try #require(Bytes.find("data", in: d))
                #expect(Bytes.u32le(d, data + 4) == UInt32(dataBytes), "\(name): data size")
                #expect(Bytes.u32le(d, 4) == UInt32(d.count - 8), "\(name): RIFF size")
                #expect(d.count == data + 8 + dataBytes, "\(name): file length")
            case "au":
                #expect(Bytes.u32be(d, 8) == UInt32(dataBytes), "\(name): AU data size")
                #expect(d.count == Int(Bytes.u32be(d, 4)) + dataBytes, "\(name): file length")
            default:
                let data = try #require(Bytes.find("data", in: d))
                #expect(Bytes.u64be(d, data + 4) == UInt64(dataBytes + 4), "\(name): CAF data size (edit count + audio)")
                #expect(d.count == data + 12 + 4 + dataBytes, "\(name): file length")
            }
            // The patched file is a normal file for the peers.
            let ff = try CLI.shell("ffprobe -v error -show_entries stream=sample_rate,channels -of csv=p=0 \(name).\(container) && ffmpeg -v error -i \(name).\(container) -f s16le - | cmp - in.raw", cwd: dir)
            #expect(ff.status == 0, "\(name).\(container) read back by ffmpeg: \(ff.stderr)")
            #expect(String(decoding: ff.stdout, as: UTF8.self).hasPrefix("8000,2"))
            if container != "caf" {
                let sx = try CLI.shell("soxi -s \(name).\(container)", cwd: dir)
                #expect(String(decoding: sx.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(frames)", "soxi: \(sx.stderr)")
            }
        }
        let piped = try Data(contentsOf: dir.appendingPathComponent("piped.\(container)"))
        try Self.expectStreamingHeader(piped, container: container, what: "aupipe | cat")
        let patched = try Data(contentsOf: dir.appendingPathComponent("out.\(container)"))
        #expect(piped.count == patched.count, "the streaming and patched outputs differ in length")
        #expect(piped.suffix(dataBytes) == patched.suffix(dataBytes), "the audio differs between pipe and file")
    }

    // MARK: - Encoders reading our WAV

    @Test("flac encodes our WAV and decodes it back equal", .needs("flac", "sox"), arguments: [16, 24])
    func flacRoundTrip(_ bits: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.shell("sox -D -r 48000 -c 2 -n -b \(bits) -e signed-integer -t raw - synth 0.5 sine 440 sine 660 vol 0.7 > in.raw", cwd: dir)
        try #require(made.status == 0)
        let r = try CLI.shell("cat in.raw | \"$AUPIPE\" --in-format s\(bits)le:48000:2 -t wav | flac --silent -f -o out.flac - && " +
                              "flac -d --silent -c --force-raw-format --endian=little --sign=signed out.flac", cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let raw = try Data(contentsOf: dir.appendingPathComponent("in.raw"))
        #expect(raw.count == 24000 * 2 * bits / 8)
        #expect(Bytes.firstDifference(r.stdout, raw) == nil, "\(Bytes.firstDifference(r.stdout, raw) ?? "")")
    }

    @Test("opusenc reads our s16 WAV: about 1 s of Opus", .needs("opusenc", "ffprobe", "sox"))
    func opusenc() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.shell("sox -D -r 48000 -c 1 -n -b 16 -e signed-integer -t raw - synth 1 sine 440 vol 0.5 | " +
                              "\"$AUPIPE\" --in-format s16le:48000:1 -t wav | opusenc --quiet - out.opus && " +
                              "ffprobe -v error -show_entries format=duration -of csv=p=0 out.opus", cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let seconds = try #require(Double(String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(abs(seconds - 1.0) < 0.03, "opus duration \(seconds) s")
    }

    @Test("lame reads our stereo s16 WAV", .needs("lame", "ffprobe", "sox"))
    func lame() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.shell("sox -D -r 44100 -c 2 -n -b 16 -e signed-integer -t wav - synth 1 sine 440 sine 660 vol 0.5 | " +
                              "\"$AUPIPE\" | lame --quiet - out.mp3 && " +
                              "ffprobe -v error -show_entries stream=channels,sample_rate:format=duration -of default=nw=1 out.mp3", cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("channels=2"), "\(text)")
        #expect(text.contains("sample_rate=44100"), "\(text)")
        let duration = text.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) }
        let seconds = try #require(duration, "\(text)")
        #expect(abs(seconds - 1.0) < 0.06, "mp3 duration \(seconds) s (encoder padding is ~0.03 s)")
    }

    // MARK: - Reading what the peers write on pipes

    /// sox writes 0x7FFFF000 rounded down to whole frames (0x7FFFEFFC for 6-byte frames).
    @Test("sox's WAV on a pipe is read to EOF", .needs("sox"), arguments: [(16, 0x7FFF_F000), (24, 0x7FFF_EFFC)] as [(Int, UInt32)])
    func soxWAVOnPipe(_ bits: Int, _ declared: UInt32) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gen = "sox -D -r 48000 -c 2 -n -b \(bits) -e signed-integer -t wav - synth 0.3 sine 440 sine 660 vol 0.8"
        let wav = try CLI.shell("\(gen) | cat > in.wav && cat in.wav", cwd: dir)
        try #require(wav.status == 0)
        let data = try #require(Bytes.find("data", in: wav.stdout))
        try #require(Bytes.u32le(wav.stdout, data + 4) == declared, "sox no longer writes 0x\(String(declared, radix: 16)) on a pipe")
        let ref = try CLI.shell("cat in.wav | sox -V1 -t wav - -t raw -", cwd: dir)
        let r = try CLI.shell("cat in.wav | \"$AUPIPE\" -t raw", cwd: dir)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.count == 14400 * 2 * bits / 8)
        #expect(Bytes.firstDifference(r.stdout, ref.stdout) == nil, "\(Bytes.firstDifference(r.stdout, ref.stdout) ?? "")")
    }

    @Test("ffmpeg's WAV on a pipe (0xFFFFFFFF) is read to EOF", .needs("ffmpeg"))
    func ffmpegWAVOnPipe() throws {
        let gen = "ffmpeg -v error -fflags +bitexact -f lavfi -i 'aevalsrc=0.7*sin(2*PI*440*t)|0.3*sin(2*PI*700*t):s=44100:d=0.3'"
        let wav = try CLI.shell("\(gen) -c:a pcm_s16le -f wav -")
        try #require(wav.status == 0)
        let data = try #require(Bytes.find("data", in: wav.stdout))
        try #require(Bytes.u32le(wav.stdout, data + 4) == 0xFFFF_FFFF, "ffmpeg no longer writes 0xFFFFFFFF on a pipe")
        let ref = try CLI.shell("\(gen) -f s16le -")
        let r = try CLI.shell("\(gen) -c:a pcm_s16le -f wav - | \"$AUPIPE\" -t raw")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.count == 13230 * 4)
        #expect(Bytes.firstDifference(r.stdout, ref.stdout) == nil, "\(Bytes.firstDifference(r.stdout, ref.stdout) ?? "")")
    }

    @Test("ffmpeg's CAF with chan and info chunks is read to EOF", .needs("ffmpeg"))
    func ffmpegCAFWithChunks() throws {
        // No +bitexact on the output: that keeps the info chunk ("encoder" = "Lavf...").
        let gen = "ffmpeg -v error -fflags +bitexact -f lavfi -i 'aevalsrc=0.7*sin(2*PI*440*t)|0.3*sin(2*PI*700*t):s=16000:d=0.3'"
        let caf = try CLI.shell("\(gen) -c:a pcm_s24le -f caf -")
        try #require(caf.status == 0)
        let head = caf.stdout.prefix(200)
        try #require(Bytes.find("chan", in: head) != nil && Bytes.find("info", in: head) != nil, "ffmpeg wrote no chan/info chunk")
        let data = try #require(Bytes.find("data", in: head))
        #expect(Bytes.u64be(caf.stdout, data + 4) == UInt64.max)
        let ref = try CLI.shell("\(gen) -f s24le -")
        let r = try CLI.shell("\(gen) -c:a pcm_s24le -f caf - | \"$AUPIPE\" -t raw")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.count == 4800 * 6)
        #expect(Bytes.firstDifference(r.stdout, ref.stdout) == nil, "\(Bytes.firstDifference(r.stdout, ref.stdout) ?? "")")
        // And the chan layout survives to our CAF output.
        let again = try CLI.shell("\(gen) -c:a pcm_s24le -f caf - | \"$AUPIPE\"")
        #expect(again.status == 0)
        #expect(Bytes.find("chan", in: again.stdout.prefix(100)) != nil)
    }

    /// Known samples: a ramp over every 16-bit range, so any lost, doubled or swapped byte shows.
    static func knownSamples(frames: Int, channels: Int, bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for f in 0..<frames {
            for c in 0..<channels {
                let v = UInt16(truncatingIfNeeded: f &* 131 &+ c &* 7919 &- 20000)
                out += bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
            }
        }
        return out
    }

    @Test("arecord's WAV header (RIFF 0x80000024, data 0x80000000) is read to EOF")
    func arecordWAV() throws {
        let samples = Self.knownSamples(frames: 30_001, channels: 2, bigEndian: false)
        var wav: [UInt8] = Array("RIFF".utf8) + Bytes.le(0x8000_0024) + Array("WAVEfmt ".utf8) + Bytes.le(16)
        wav += Bytes.le16(1) + Bytes.le16(2) + Bytes.le(48000) + Bytes.le(192_000) + Bytes.le16(4) + Bytes.le16(16)
        wav += Array("data".utf8) + Bytes.le(0x8000_0000)
        #expect(wav.count == 44)
        let r = try CLI.shell("\"$AUPIPE\" -t raw", stdin: Data(wav + samples))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        #expect(Bytes.firstDifference(r.stdout, Data(samples)) == nil, "\(Bytes.firstDifference(r.stdout, Data(samples)) ?? "")")
        let info = try CLI.shell("\"$AUPIPE\" info", stdin: Data(wav + samples))
        #expect(String(decoding: info.stdout, as: UTF8.self).contains("format: s16le:48000:2"))
    }

    @Test("arecord's AU header (24 bytes, size 0xFFFFFFFE) is read to EOF")
    func arecordAU() throws {
        let samples = Self.knownSamples(frames: 30_001, channels: 1, bigEndian: true)
        let au: [UInt8] = Array(".snd".utf8) + Bytes.be(24) + Bytes.be(0xFFFF_FFFE) + Bytes.be(3) + Bytes.be(16000) + Bytes.be(1)
        #expect(au.count == 24)
        let r = try CLI.shell("\"$AUPIPE\"", stdin: Data(au + samples))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        // Output keeps the container: our 28-byte AU header, then every sample unchanged.
        try #require(r.stdout.count == 28 + samples.count)
        #expect(Bytes.u32be(r.stdout, 12) == 3)
        #expect(Bytes.u32be(r.stdout, 16) == 16000)
        #expect(Bytes.firstDifference(r.stdout.suffix(samples.count), Data(samples)) == nil)
        if CLI.has("sox") {
            // sox reads our AU (ffmpeg would refuse arecord's own 0xFFFFFFFE).
            let sx = try CLI.shell("\"$AUPIPE\" | sox -V1 -t au - -t raw -e signed-integer -b 16 -B -", stdin: Data(au + samples))
            #expect(Bytes.firstDifference(sx.stdout, Data(samples)) == nil, "\(Bytes.firstDifference(sx.stdout, Data(samples)) ?? "")")
        }
    }
}

/// aupipe's G.711 encoder picks the nearest code with ffmpeg's tables: the bytes must be ffmpeg's.
@Suite("G.711 encoding equals ffmpeg's")
struct G711AgainstFFmpegTests {
    @Test(.needs("ffmpeg"), arguments: ["mulaw", "alaw"])
    func sameBytesAsFFmpeg(_ token: String) throws {
        let dir = try CLI.temporaryDirectory()
        // Every 16-bit value once, in a scrambled order, plus a loud sine.
        var samples = [UInt8]()
        for i in 0..<65536 { let v = UInt16(truncatingIfNeeded: i &* 40503); samples += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        try Data(samples).write(to: dir.appendingPathComponent("all.s16"))
        let r = try CLI.shell("""
            cd '\(dir.path)' && "$AUPIPE" --in-format s16le:8000:1 -t raw --out-format \(token) < all.s16 > ours &&
            ffmpeg -v error -f s16le -ar 8000 -ac 1 -i all.s16 -f \(token) - > theirs &&
            cmp ours theirs && [ "$(wc -c < ours)" -eq 65536 ]
            """)
        #expect(r.status == 0, "\(token) bytes differ from ffmpeg's: \(String(decoding: r.stdout, as: UTF8.self)) \(r.stderr)")
    }
}
