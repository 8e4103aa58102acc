import AUPipeKit
import Foundation
import Testing

/// Without `-t`, the extension of `-o`'s path chooses the output container; standard output and
/// other extensions keep the input's (or gen's WAV, or --capture's WAV).
@Suite struct OutputContainerTests {
    /// The header `file` starts with, as aupipe reads it (nil for raw bytes).
    static func container(of url: URL) throws -> ContainerKind? {
        let bytes = [UInt8](try Data(contentsOf: url))
        return try? HeaderReader.read(MemorySource(bytes), rawFormat: nil).0.container
    }

    @Test func theExtensionOfOChoosesTheContainer() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=0.1 -o in.wav
            for f in x.caf x.au x.snd x.raw x.pcm X.CAF x.Au x.flac x.wav noext; do "$AUPIPE" -i in.wav gain -3 -o $f || exit 1; done
            "$AUPIPE" -i in.wav gain -3 > stdout.bin
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        func magic(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: dir.appendingPathComponent(name)).prefix(4), as: UTF8.self)
        }
        #expect(try magic("x.caf") == "caff")
        #expect(try magic("X.CAF") == "caff")
        #expect(try magic("x.au") == ".snd")
        #expect(try magic("x.Au") == ".snd")
        #expect(try magic("x.snd") == ".snd")
        // Raw: the samples alone, 0.1 s of s16le mono at 48 kHz.
        let wav = try Data(contentsOf: dir.appendingPathComponent("x.wav"))
        for raw in ["x.raw", "x.pcm"] {
            let d = try Data(contentsOf: dir.appendingPathComponent(raw))
            #expect(d.count == 4800 * 2 && d == wav.suffix(4800 * 2), "\(raw): \(d.count) bytes")
        }
        // Another extension, no extension and stdout: the input's container.
        #expect(try magic("x.flac") == "RIFF")
        #expect(try magic("noext") == "RIFF")
        #expect(try magic("stdout.bin") == "RIFF")
        // The CAF and AU files hold the same samples as the WAV.
        for name in ["x.caf", "x.au"] {
            let back = try CLI.shell("\"$AUPIPE\" -i \(name) -t raw --out-format s16le", cwd: dir)
            #expect(back.stdout == wav.suffix(4800 * 2), "\(name)")
        }
    }

    @Test func tWinsOverTheExtension() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 | \"$AUPIPE\" -t au -o x.caf", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Self.container(of: dir.appendingPathComponent("x.caf")) == .au)
    }

    @Test func genAndDemoFollowTheExtensionToo() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine duration=0.1 -o g.caf && "$AUPIPE" gen sine duration=0.1 -o g.au &&
            "$AUPIPE" gen sine duration=0.1 -o g.raw && "$AUPIPE" gen sine duration=0.1 -o g.bin &&
            "$AUPIPE" demo -o d.caf 2> /dev/null
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Self.container(of: dir.appendingPathComponent("g.caf")) == .caf)
        #expect(try Self.container(of: dir.appendingPathComponent("g.au")) == .au)
        #expect(try Data(contentsOf: dir.appendingPathComponent("g.raw")).count == 48000 / 10 * 2)
        #expect(try Self.container(of: dir.appendingPathComponent("g.bin")) == .wav)
        #expect(try Self.container(of: dir.appendingPathComponent("d.caf")) == .caf)
    }

    @Test func captureKeepsWAVUnlessTheExtensionSaysOtherwise() throws {
        // --check does not open the device, and prints the output's container.
        for (path, container) in [("x.caf", "caf"), ("x.AU", "au"), ("x.bin", "wav"), ("x.wav", "wav")] {
            let r = try CLI.aupipe(["--capture", "default", "--check", "-o", path, "gain", "0"])
            #expect(r.status == 0 && String(decoding: r.stdout, as: UTF8.self).contains("-> \(container) "), "\(path): \(r.stderr)")
        }
    }

    @Test func anEncodingTheExtensionsContainerCannotHoldIsAUsageError() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 | \"$AUPIPE\" --out-format u16le -o x.wav", cwd: dir)
        #expect(r.status == 64 && r.stderr.contains("the output is WAV and cannot hold u16le"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.wav").path))
    }

    @Test func parsedOptionsTakeTheContainerFromTheExtension() throws {
        func container(_ args: [String]) throws -> ContainerKind? {
            guard case .run(_, let text) = try CommandLineParser.parse(args + ["gain", "0"]) else { return nil }
            return try text.parsed().container
        }
        #expect(try container(["-o", "a/b.c/out.CAF"]) == .caf)
        #expect(try container(["-o", "dir.wav/out"]) == nil)
        #expect(try container(["-o", ".wav"]) == nil)
        #expect(try container(["-o", "-"]) == nil)
        #expect(try container(["-o", "x.rf64"]) == nil)
        #expect(try container(["-o", "x.au", "-t", "raw"]) == .raw)
    }
}
