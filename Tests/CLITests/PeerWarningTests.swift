import Foundation
import Testing

/// What peers warn about in aupipe's output although nothing is lost: each is either fixed in
/// the header, or documented with the way to keep the peer quiet, which is checked to work.
@Suite("Peers' warnings")
struct PeerWarningTests {
    @Test("sox reads float and G.711 WAV without 'missing extended part of fmt chunk'", .needs("sox"), arguments: ["f32le:48000:1", "f32le:8000:2", "mulaw:8000:1", "alaw:8000:2"])
    func soxReadsFloatWAVQuietly(_ spec: String) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 --out-format \(spec) -o x.wav && sox -V2 x.wav -n", cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "sox warned: \(r.stderr)")
        let wav = try Data(contentsOf: dir.appendingPathComponent("x.wav"))
        #expect(Bytes.u32le(wav, 16) == 18 && wav[36] == 0 && wav[37] == 0, "fmt size \(Bytes.u32le(wav, 16)), cbSize \(wav[36])")
    }

    /// ffprobe's name for the channel layout of `file`, and whatever ffmpeg says on reading it.
    static func layout(_ file: String, in dir: URL) throws -> (layout: String, log: String) {
        let probe = try CLI.shell("ffprobe -v error -show_entries stream=channel_layout -of csv=p=0 \(file)", cwd: dir)
        let read = try CLI.shell("ffmpeg -nostdin -v info -i \(file) -f null - 2>&1 | grep -i guess || true", cwd: dir)
        return (String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                String(decoding: read.stdout, as: UTF8.self))
    }

    @Test("CAF with 3 to 8 channels has the layout of the same WAV, and ffmpeg guesses nothing", .needs("ffprobe"), arguments: 3...8)
    func cafLayoutsForMoreChannels(_ channels: Int) throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=0.05 --out-format s16le:48000:\(channels) -o x.wav &&
            "$AUPIPE" -i x.wav -t caf > x.caf && "$AUPIPE" -i x.wav -t caf | cat > piped.caf
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        let wav = try Self.layout("x.wav", in: dir), caf = try Self.layout("x.caf", in: dir), piped = try Self.layout("piped.caf", in: dir)
        let expected = [3: "3.0", 4: "quad", 5: "5 channels (FL+FR+FC+LFE+BL)", 6: "5.1", 7: "7 channels (FL+FR+FC+LFE+BL+BR+FLC)", 8: "7.1"][channels]!
        #expect(wav.layout == expected)
        #expect(caf.layout == expected, "CAF: \(caf.layout)")
        #expect(piped.layout == expected, "CAF on a pipe: \(piped.layout)")
        #expect(caf.log.isEmpty && piped.log.isEmpty, "\(caf.log) \(piped.log)")
    }

    /// The README and the man page say how to keep flac and sox quiet on a WAV stream, and
    /// what they say works.
    @Test func theReadmeAndManPageSayHowToQuietFlacAndSox() throws {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let man = try String(contentsOf: CLI.packageRoot.appendingPathComponent("man/aupipe.1"), encoding: .utf8)
        for flag in ["--ignore-chunk-sizes", "--ignore-length", "--force-raw-format", "-V1"] {
            #expect(readme.contains("`\(flag)") || readme.contains(" \(flag)"), "README.md does not mention \(flag)")
            #expect(man.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "man/aupipe.1 does not mention \(flag)")
        }
    }

    /// What the README and the man page say to keep flac and sox quiet works.
    @Test(.needs("sox", "flac")) func theWaysToQuietFlacAndSoxWork() throws {
        let dir = try CLI.temporaryDirectory()
        func stderr(_ script: String) throws -> String {
            let r = try CLI.shell(script, cwd: dir)
            #expect(r.status == 0, "\(script): \(r.stderr)")
            return r.stderr
        }
        let gen = "\"$AUPIPE\" gen sine duration=0.2 --out-format s16le:48000:2"
        // The warnings the README explains (so that this test notices if they go away).
        #expect(try stderr("\(gen) | sox -t wav - -n").contains("Premature EOF"))
        #expect(try stderr("\(gen) | flac -s -f -o a.flac -").contains("unexpected EOF"))
        // And the ways it gives to avoid them.
        #expect(try stderr("\(gen) | sox --ignore-length -t wav - -n").isEmpty)
        #expect(try stderr("\(gen) | sox -V1 -t wav - -n").isEmpty)
        #expect(try stderr("\"$AUPIPE\" gen sine duration=0.2 --out-format :48000:2 -t au | sox -t au - -n").isEmpty)
        #expect(try stderr("\(gen) -t raw | flac -s -f --force-raw-format --endian=little --sign=signed --channels=2 --bps=16 --sample-rate=48000 -o b.flac -").isEmpty)
        #expect(try stderr("\(gen) -o c.wav && flac -s -f -o c.flac c.wav").isEmpty)
        // Nothing was lost either way: 0.2 s at 48 kHz.
        let samples = try CLI.shell("metaflac --show-total-samples a.flac b.flac c.flac", cwd: dir)
        #expect(String(decoding: samples.stdout, as: UTF8.self).split(separator: "\n").allSatisfy { $0.hasSuffix("9600") }, "\(samples)")
    }
}
