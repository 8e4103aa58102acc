import Foundation
import Testing

/// Live use through the binary: control FIFO, signals, clean stops, progress. Inputs come from
/// a paced writer (10 ms chunks of 16 kHz mono s16 = 320 bytes, one atomic pipe write each), so
/// blocks are 160 frames and every change must land on a multiple of 160. Nothing here measures
/// time: the assertions are about where and how changes land.
@Suite(.serialized) struct LiveTests {
    /// A bash loop writing `chunks` chunks of 160 frames of the value 0x4040 (16448), 10 ms apart.
    static func pacedWriter(chunks: Int) -> String {
        "for i in $(seq \(chunks)); do head -c 320 /dev/zero | tr '\\0' '\\100'; sleep 0.01; done"
    }

    static func samples(_ data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// The first frame that differs from the constant input, and the largest step between neighbours.
    static func firstChange(_ x: [Int16]) -> (index: Int, maxStep: Int)? {
        guard let i = x.firstIndex(where: { $0 != 16448 }) else { return nil }
        let steps = zip(x.dropFirst(), x).map { abs(Int($0) - Int($1)) }
        return (i, steps.max() ?? 0)
    }

    /// The control FIFO through the binary, once: aupipe creates it, reads a line from it while
    /// audio runs, replies on stderr, applies the change (a mute with its ramp) and removes the
    /// FIFO at the end. No fixed sleep: the script waits for the FIFO to appear and feeds 10 ms
    /// chunks until the reply is on stderr. Where and how changes land, and every reply's
    /// wording, are tested in process (AUPipeKitTests' `LiveControlTests`).
    @Test func controlFIFOSmokeTest() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            mkfifo in
            "$AUPIPE" --in-format s16le:16000:1 -t raw --control ctl mute on=0 ramp=20ms < in > out.raw 2> err.txt &
            pid=$!
            exec 3> in
            chunk() { head -c 320 /dev/zero | tr '\\0' '\\100' >&3; n=$((n + 1)); }
            n=0
            for i in $(seq 20); do chunk; done
            for i in $(seq 3000); do [ -p ctl ] && break; sleep 0.01; done
            echo "set mute.on 1" > ctl
            for i in $(seq 3000); do grep -q "ok mute.on 1" err.txt && break; chunk; done
            for i in $(seq 40); do chunk; done
            exec 3>&-
            wait $pid; echo "status=$? chunks=$n"; cat err.txt
            [ ! -e ctl ] && echo "fifo removed"
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("status=0"), "\(text) \(r.stderr)")
        #expect(text.contains("aupipe: control: ok mute.on 1"), "\(text)")
        #expect(text.contains("fifo removed"))
        let chunks = try #require(text.split(separator: "\n").first { $0.hasPrefix("status=") }?.split(separator: "=").last.flatMap { Int($0) })
        let out = Self.samples(try Data(contentsOf: dir.appendingPathComponent("out.raw")))
        #expect(out.count == chunks * 160, "every frame written came out")
        let change = try #require(Self.firstChange(out), "the mute never happened")
        #expect(change.index > 0, "the stream was muted from its start, before the line was written")
        // A 20 ms ramp at 16 kHz is 320 frames: each step is 16448/320 ≈ 51, never more.
        #expect(change.maxStep <= 52, "a step of \(change.maxStep): the mute clicked")
        #expect(out.suffix(30 * 160).allSatisfy { $0 == 0 }, "muted to the end")
    }

    @Test func sigusr1TogglesAMute() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            (\(Self.pacedWriter(chunks: 150))) | "$AUPIPE" --in-format s16le:16000:1 -t raw --stats mute on=0 signal=usr1 ramp=10ms > out.raw 2> err.txt &
            pid=$!
            for i in $(seq 500); do [ "$(stat -c %s out.raw 2> /dev/null || echo 0)" -ge 3200 ] && break; sleep 0.01; done; kill -USR1 $pid
            wait $pid; echo "status=$?"; cat err.txt
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("status=0"), "\(text)")
        #expect(text.contains("on changed 1 time while running"))
        let out = Self.samples(try Data(contentsOf: dir.appendingPathComponent("out.raw")))
        let change = try #require(Self.firstChange(out))
        #expect(change.index % 160 == 0 && change.maxStep <= 104) // 10 ms ramp: 160 frames, steps of ~103
        #expect(out.last == 0)
    }

    @Test func sigintDrainsTheChainAndPatchesTheHeader() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            (\(Self.pacedWriter(chunks: 500))) | "$AUPIPE" --live --in-format s16le:16000:1 -t wav --stats=json resample 48000 -o out.wav 2> stats.json &
            pid=$!
            sleep 0.8; kill -INT $pid
            wait $pid; echo "status=$?"
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"))
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any])
        let framesIn = try #require((stats["input"] as? [String: Any])?["frames"] as? Int)
        let framesOut = try #require((stats["output"] as? [String: Any])?["frames"] as? Int)
        #expect(framesIn > 0 && framesIn < 500 * 160, "stopped mid-stream: \(framesIn) frames read")
        #expect(framesOut == framesIn * 3, "the resampler's tail was not drained: \(framesIn) in, \(framesOut) out")
        let wav = try Data(contentsOf: dir.appendingPathComponent("out.wav"))
        #expect(Bytes.u32le(wav, 40) == UInt32(framesOut * 2), "data size not patched")
        #expect(Bytes.u32le(wav, 4) == UInt32(wav.count - 8), "RIFF size not patched")
        #expect(wav.count == 44 + framesOut * 2)
    }

    @Test func scheduledMuteIsSampleExactThroughTheBinary() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine 1000 level=-6 duration=1 --out-format s16le:8000:1 | \"$AUPIPE\" mute at=2000f-4000f ramp=0 -t raw")
        let out = Self.samples(r.stdout)
        #expect(out.count == 8000)
        #expect(out[2000..<4000].allSatisfy { $0 == 0 })
        #expect(out[1999] != 0 || out[1998] != 0)
        #expect(out[4000..<4010].contains { $0 != 0 })
    }

    @Test func progressShowsPercentForFilesAndStreamTimeForPipes() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen noise duration=3 -o in.wav
            "$AUPIPE" -i in.wav --progress=force gain -1 -o out.wav 2> file.txt
            "$AUPIPE" -i in.wav | "$AUPIPE" --progress=force gain -1 > /dev/null 2> pipe.txt
            "$AUPIPE" -i in.wav --progress gain -1 -o out2.wav 2> off.txt
            echo "file: $(tr '\\r' '\\n' < file.txt | tail -1)"; echo "pipe: $(tr '\\r' '\\n' < pipe.txt | tail -1)"; echo "off: $(wc -c < off.txt)"
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("100%") && text.contains("ETA"), "\(text)")
        #expect(text.contains("pipe: ") && text.contains("0:03 of audio"))
        #expect(text.contains("off: 0"), "--progress drew on a stderr that is not a terminal")
    }
}
