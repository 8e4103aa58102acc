import Foundation
import Testing

/// Compressed streams and Wave64, made by the real tools, are refused with status 65 and a hint
/// to decode them, and never read as raw PCM (which would turn them into full-scale noise).
@Suite struct ForeignInputTests {
    /// A file of each kind, the tool that writes it, the name the refusal gives and the
    /// extension its example uses.
    static let kinds: [(file: String, tool: String, make: String, name: String, hint: String)] = [
        ("in.flac", "flac", "flac -s -f -o in.flac in.wav", "FLAC", "flac"),
        ("in.mp3", "lame", "lame --quiet in.wav in.mp3", "MP3 (MPEG audio)", "mp3"),
        ("tagged.mp3", "lame", "lame --quiet --tt title in.wav tagged.mp3", "MP3 (an ID3 tag)", "mp3"),
        ("in.opus", "opusenc", "opusenc --quiet in.wav in.opus", "Ogg", "ogg"),
        ("in.ogg", "ffmpeg", "ffmpeg -v error -i in.wav -c:a flac -f ogg in.ogg", "Ogg", "ogg"),
        ("in.w64", "sox", "sox in.wav -t w64 in.w64", "Sony Wave64 (W64)", "w64"),
    ]

    @Test(.needs("flac", "lame", "opusenc", "ffmpeg", "sox"), arguments: kinds.indices)
    func refusedWithAHintToDecode(_ index: Int) throws {
        let k = Self.kinds[index]
        let dir = try CLI.temporaryDirectory()
        let made = try CLI.shell("\"$AUPIPE\" gen sine duration=0.2 -o in.wav && \(k.make)", cwd: dir)
        try #require(made.status == 0, "\(k.make): \(made.stderr)")

        // Detection without --in-format: status 65, one line naming the format and the fix.
        let r = try CLI.shell("cat \(k.file) | \"$AUPIPE\" gain -3", cwd: dir)
        #expect(r.status == 65, "\(k.file): status \(r.status): \(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("aupipe: stdin: the stream is \(k.name)"), "\(r.stderr)")
        #expect(r.stderr.contains("which aupipe does not decode; decode it first, e.g. ffmpeg -v error -i in.\(k.hint) -f caf - | aupipe"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")

        // The hint works: ffmpeg's CAF goes through.
        let hint = try CLI.shell("ffmpeg -v error -i \(k.file) -f caf - | \"$AUPIPE\" gain -3 -t raw | wc -c", cwd: dir)
        #expect(hint.status == 0 && Int(String(decoding: hint.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(hint.stderr)")

        // With --in-format the user says the input is raw; only a magic that raw PCM is not
        // expected to start with (not a bare MPEG frame sync) is refused all the same.
        let raw = try CLI.shell("cat \(k.file) | \"$AUPIPE\" --in-format s16le:48000:1 -t raw gain -3 | wc -c", cwd: dir)
        if k.name == "MP3 (MPEG audio)" {
            #expect(raw.status == 0, "\(raw.stderr)")
        } else {
            #expect(raw.status == 65 && raw.stderr.contains("the stream is \(k.name)"), "\(raw.stderr)")
        }
    }

    @Test(.needs("flac")) func aMixBusGetsAProcessSubstitutionAsItsHint() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=0.2 -o in.wav && flac -s -f -o bed.flac in.wav
            "$AUPIPE" -i in.wav mix input=bed.flac > /dev/null
            """, cwd: dir)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("the stream is FLAC, which aupipe does not decode; decode it first, e.g. <(ffmpeg -nostdin -v error -i in.flac -f caf -)"), "\(r.stderr)")
    }

    @Test func rawPCMThatStartsLikeAnMPEGFrameIsStillRawWithInFormat() throws {
        // s16le samples -5 and 0x7FFB: bytes FB FF FB 7F; and a start of FF FB 90 00 (a valid
        // MPEG-1 layer III frame header): without --in-format it is named, with it read as raw.
        let frame = Data([0xFF, 0xFB, 0x90, 0x00]) + Data(count: 96)
        let named = try CLI.aupipe(["gain", "0"], stdin: frame)
        #expect(named.status == 65 && named.stderr.contains("MP3 (MPEG audio)"), "\(named.stderr)")
        let raw = try CLI.aupipe(["--in-format", "s16le:8000:1", "-t", "raw"], stdin: frame)
        #expect(raw.status == 0 && raw.stdout == frame, "\(raw.stderr)")
    }
}
