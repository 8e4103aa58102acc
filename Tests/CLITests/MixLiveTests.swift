import Foundation
import Testing

/// `mix` with a real-time stream (`--live`) and FIFO buses, through the binary. The stream is a paced writer
/// (10 ms chunks of 16 kHz mono s16 of the value 16448); a bus adds the value 4112, so mixed
/// frames read 20560 (rounded plainly, `--dither=off`: mix's sum is float, dithered by
/// default). Nothing is timed: the checks are that the run completes at the stream's
/// length, and that the bus's frames all arrive, together, once.
@Suite(.serialized) struct MixLiveTests {
    static func samples(_ url: URL) throws -> [Int16] {
        let d = try Data(contentsOf: url)
        return stride(from: 0, to: d.count - 1, by: 2).map { Int16(bitPattern: UInt16(d[$0]) | UInt16(d[$0 + 1]) << 8) }
    }

    @Test func aSlowFIFOWriterNeitherStallsTheStreamNorDrifts() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkfifo bus
            # The bus writer starts 0.5 s late, then writes 8000 frames at once.
            (sleep 0.5; head -c 16000 /dev/zero | tr '\\0' '\\020' | timeout 10 tee bus > /dev/null) &
            (\(LiveTests.pacedWriter(chunks: 150))) | "$AUPIPE" --live --dither=off --in-format s16le:16000:1 -t raw --stats mix input=bus,format=s16le:16000:1 > out.raw 2> err.txt
            echo "status=$?"; wait; cat err.txt
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("status=0"), "\(text) \(r.stderr)")
        let out = try Self.samples(dir.appendingPathComponent("out.raw"))
        #expect(out.count == 150 * 160, "the stream's length decides: \(out.count) frames")
        let mixed = out.indices.filter { out[$0] == 20560 }
        #expect(mixed.count == 8000, "every bus frame arrives once: \(mixed.count) mixed frames")
        if let first = mixed.first, let last = mixed.last {
            #expect(last - first == 7999, "the bus frames are contiguous (no drift, no gaps)")
            #expect(first > 0, "the bus started late, after the stream had begun")
        }
        #expect(out.allSatisfy { $0 == 16448 || $0 == 20560 })
    }

    @Test func aFIFOWhoseWriterNeverWritesIsSilence() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkfifo bus
            sleep 30 > bus & holder=$!
            (\(LiveTests.pacedWriter(chunks: 50))) | "$AUPIPE" --live --in-format s16le:16000:1 -t raw mix input=bus,format=s16le:16000:1 > out.raw
            echo "status=$?"; kill -KILL $holder 2>/dev/null; wait  # KILL: the test runner leaves SIGTERM blocked in children
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        let out = try Self.samples(dir.appendingPathComponent("out.raw"))
        #expect(out == [Int16](repeating: 16448, count: 50 * 160))
    }
}
