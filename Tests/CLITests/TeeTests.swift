import Foundation
import Testing

/// `tee` through the binary: the copy equals the output of the chain cut at the tee, for
/// regular files in every container, for FIFOs (in a real-time run a reader that is slow never
/// stalls the stream; what it gets is whole frames, and the drops are counted), with `block=1`,
/// with two tees, onto stdout when the output is a file, and the refusals of a copy onto the
/// input, the output or a side input.
@Suite struct TeeTests {
    /// 2 s of a 48 kHz stereo sine at -3 dBFS, s16.
    static func input(in dir: URL) throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine 997 level=-3 duration=2 --out-format s16le:48000:2 -o in.wav", cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
    }

    static func same(_ a: String, _ b: String, in dir: URL) throws -> Bool {
        try Data(contentsOf: dir.appendingPathComponent(a)) == Data(contentsOf: dir.appendingPathComponent(b))
    }

    @Test func theCopyIsTheChainCutAtTheTee() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i in.wav gain -6 : tee a.wav : resample 16000 -o out.wav && "$AUPIPE" -i in.wav gain -6 -o ref.wav \
              && "$AUPIPE" -i in.wav gain -6 : resample 16000 -o out-ref.wav
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Self.same("a.wav", "ref.wav", in: dir), "tee's file differs from 'gain -6' alone")
        #expect(try Self.same("out.wav", "out-ref.wav", in: dir), "the main output changed with a tee in the chain")
    }

    @Test(arguments: ["caf", "wav", "au", "raw"])
    func everyContainer(type: String) throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let f32 = type == "au" ? "f32be" : "f32le"  // AU holds big-endian samples only
        let r = try CLI.shell("""
            "$AUPIPE" -i in.wav gain -6 : tee a.\(type) : gain -3 -o /dev/null && "$AUPIPE" -i in.wav gain -6 -o ref.\(type) \
              && "$AUPIPE" -i in.wav gain -6 : tee b.x type=\(type) format=\(f32) -o /dev/null && "$AUPIPE" -i in.wav gain -6 -t \(type) --out-format \(f32) -o ref2.\(type)
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Self.same("a.\(type)", "ref.\(type)", in: dir), "tee a.\(type) differs from -o ref.\(type)")
        #expect(try Self.same("b.x", "ref2.\(type)", in: dir), "tee type=\(type) format=f32le differs from -t \(type) --out-format \(f32)")
    }

    @Test func twoTeesInOneChain() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i in.wav gain -6 : tee a.wav : gain -3 : tee b.caf : resample 16000 -o out.wav --stats=json 2> stats.json \
              && "$AUPIPE" -i in.wav gain -6 -o ref-a.wav && "$AUPIPE" -i in.wav gain -6 : gain -3 -o ref-b.caf
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Self.same("a.wav", "ref-a.wav", in: dir))
        #expect(try Self.same("b.caf", "ref-b.caf", in: dir))
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stats.json"))) as? [String: Any]
        let units = try #require(stats?["units"] as? [[String: Any]])
        let figures = units.compactMap { $0["figures"] as? [String: Any] }
        #expect(figures.count == 2 && figures.allSatisfy { ($0["framesWritten"] as? Double) == 96000 && ($0["framesDropped"] as? Double) == 0 })
    }

    /// The `--stats=json` object: the last line of stderr (warnings come before it).
    static func lastJSONLine(_ url: URL) throws -> [String: Any]? {
        let text = try String(contentsOf: url, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").last, "no stats in '\(text)'")
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    /// A raw s16 stereo stream in which frame k is (k mod 32768, its bitwise complement): a
    /// torn frame or a frame out of order shows.
    static func countingStream(frames: Int, to url: URL) throws {
        var d = Data(capacity: frames * 4)
        for k in 0..<frames {
            let l = UInt16(k & 0x7FFF), r = ~l
            d.append(contentsOf: [UInt8(l & 0xFF), UInt8(l >> 8), UInt8(r & 0xFF), UInt8(r >> 8)])
        }
        try d.write(to: url)
    }

    /// Checks that `data` is whole frames of the counting stream, in order, starting at frame 0.
    static func expectWholeCountingFrames(_ data: Data) {
        #expect(data.count % 4 == 0, "the reader got \(data.count) bytes, not whole 4-byte frames")
        var previous: Int? = nil
        var i = 0
        while i + 3 < data.count {
            let l = UInt16(data[i]) | UInt16(data[i + 1]) << 8, r = UInt16(data[i + 2]) | UInt16(data[i + 3]) << 8
            guard r == ~l else { Issue.record("frame \(i / 4) of the copy is torn: \(l), \(r)"); return }
            if previous == nil, l != 0 { Issue.record("the copy starts at frame \(l), not 0"); return }
            previous = Int(l)
            i += 4
        }
    }

    /// In a real-time run (`--live`), the reader holds the FIFO open but reads nothing until
    /// aupipe has finished: the stream goes on at full length, the copy holds whole frames, and
    /// the drops are counted (the end gives up on the queue after 0.5 s without progress).
    @Test func aFIFOReaderThatIsTooSlowNeverStallsTheStream() throws {
        let dir = try CLI.temporaryDirectory()
        let frames = 30 * 48000
        try Self.countingStream(frames: frames, to: dir.appendingPathComponent("in.raw"))
        let r = try CLI.shell("""
            mkfifo copy
            exec 3<>copy; exec 4<copy; exec 3>&-     # a reader that exists but does not read yet
            "$AUPIPE" --live --in-format s16le:48000:2 -i in.raw -t raw --stats=json tee copy type=raw queue=100ms -o out.raw 2> stats.json
            echo "status=$?"
            cat <&4 > copy.raw
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        #expect(try Self.same("in.raw", "out.raw", in: dir), "the main stream was changed or cut")
        let copy = try Data(contentsOf: dir.appendingPathComponent("copy.raw"))
        Self.expectWholeCountingFrames(copy)
        let stats = try Self.lastJSONLine(dir.appendingPathComponent("stats.json"))
        let figures = try #require((stats?["units"] as? [[String: Any]])?.first?["figures"] as? [String: Any])
        let written = try #require(figures["framesWritten"] as? Double), dropped = try #require(figures["framesDropped"] as? Double)
        #expect(dropped > 0, "a reader that reads nothing for 30 s of audio must cost drops")
        #expect(Int(written) == copy.count / 4, "framesWritten \(written), but the reader got \(copy.count / 4) frames")
        #expect(Int(written + dropped) == frames, "written \(written) + dropped \(dropped) != \(frames)")
    }

    /// A reader that starts late and then reads, in a real-time run: whole frames in order,
    /// every frame written or counted as dropped.
    @Test func aLateFIFOReaderGetsWholeFrames() throws {
        let dir = try CLI.temporaryDirectory()
        let frames = 10 * 48000
        try Self.countingStream(frames: frames, to: dir.appendingPathComponent("in.raw"))
        let r = try CLI.shell("""
            mkfifo copy
            exec 3<>copy; exec 4<copy; exec 3>&-
            (sleep 0.2; cat <&4 > copy.raw) & exec 4<&-
            "$AUPIPE" --live --in-format s16le:48000:2 -i in.raw -t raw --stats=json tee copy type=raw queue=50ms -o out.raw 2> stats.json
            echo "status=$?"; wait
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        #expect(try Self.same("in.raw", "out.raw", in: dir))
        let copy = try Data(contentsOf: dir.appendingPathComponent("copy.raw"))
        Self.expectWholeCountingFrames(copy)
        let stats = try Self.lastJSONLine(dir.appendingPathComponent("stats.json"))
        let figures = try #require((stats?["units"] as? [[String: Any]])?.first?["figures"] as? [String: Any])
        let written = try #require(figures["framesWritten"] as? Double), dropped = try #require(figures["framesDropped"] as? Double)
        #expect(Int(written) == copy.count / 4 && Int(written + dropped) == frames, "written \(written), dropped \(dropped), read \(copy.count / 4)")
    }

    @Test func blockWaitsForASlowReaderAndGetsEverything() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("""
            mkfifo copy
            (sleep 0.3; cat copy > copy.wav) &
            "$AUPIPE" -i in.wav --stats gain -6 : tee copy block=1 queue=10ms : resample 16000 -o out.wav 2> err.txt
            echo "status=$?"; wait; cat err.txt >&2
            "$AUPIPE" -i in.wav gain -6 -o ref.wav && "$AUPIPE" compare ref.wav copy.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(String(decoding: r.stdout, as: UTF8.self)) \(r.stderr)")
        #expect(r.stderr.contains("96000 frames written, 0 dropped"), "\(r.stderr)")
    }

    @Test func aProcessSubstitutionGetsTheStream() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i in.wav tee >(cat > copy.wav) block=1 : gain -6 -o out.wav; sleep 0.1
            for i in $(seq 50); do [ -s copy.wav ] && break; sleep 0.05; done; sleep 0.1
            "$AUPIPE" compare in.wav copy.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(String(decoding: r.stdout, as: UTF8.self)) \(r.stderr)")
    }

    /// `tee -` and `tee /dev/stdout` write the copy to stdout when `-o FILE` leaves it free.
    @Test(arguments: ["tee - type=raw : gain -6 -o out.wav > copy.raw", "tee /dev/stdout type=raw : gain -6 -o out.wav | cat > copy.raw"])
    func stdoutIsACopyWhenTheOutputIsAFile(chain: String) throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i in.wav \(chain) && "$AUPIPE" -i in.wav -t raw -o ref.raw && "$AUPIPE" -i in.wav gain -6 -o ref.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.same("copy.raw", "ref.raw", in: dir), "the copy on stdout is not the stream")
        #expect(try Self.same("out.wav", "ref.wav", in: dir), "the main output changed")
    }

    @Test(arguments: [
        ("-i in.wav tee in.wav -o out.wav", "the input"),
        ("tee in.wav < in.wav > out.wav", "stdin, the input"),
        ("-i in.wav tee out.wav -o out.wav", "the output"),
        ("-i in.wav tee out.wav > out.wav", "stdout"),
        ("-i in.wav tee - > out.wav", "tee -: stdout is the main output"),
        ("-i in.wav tee /dev/stdout -o - > out.wav", "tee /dev/stdout: stdout is the main output"),
        ("-i in.wav mix input=bus.wav : tee bus.wav -o out.wav", "mix"),
        ("-i in.wav aec ref=bus.wav : tee ./bus.wav -o out.wav", "aec"),
        ("-i in.wav tee a.wav : gain -3 : tee a.wav -o out.wav", "tee's output"),
    ])
    func refusals(arguments: String, says: String) throws {
        let dir = try CLI.temporaryDirectory()
        try Self.input(in: dir)
        let r = try CLI.shell("cp in.wav bus.wav; \"$AUPIPE\" \(arguments)", cwd: dir)
        #expect(r.status == 64, "\(arguments): status \(r.status), \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.hasPrefix("aupipe: ") && r.stderr.contains(says), "\(arguments): \(r.stderr)")
        #expect(try Self.same("in.wav", "bus.wav", in: dir), "a refused run touched a file")
    }
}
