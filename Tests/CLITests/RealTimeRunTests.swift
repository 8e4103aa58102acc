import Foundation
import Testing

/// Whether a run is real time is decided from what it is told (`--live`) and opens (a capture
/// device), never from how its input arrives: through the binary. Not real time (files and
/// pipes alone): side inputs (aec's `ref=`, mix buses) are waited for however late their
/// writers start, a `tee` into a pipe or FIFO gets every frame, and the bytes are the same on
/// every run. Real time (`--live`): late side input is silence, said on stderr and counted in
/// `--stats`; a unit's `live=` overrides the run. Nothing is timed: the late writers only make
/// the old behaviour (a pipe counted as real time) show.
@Suite(.serialized) struct RealTimeRunTests {
    /// 4 s of noise at 16 kHz (the far end) and a microphone that hears it 30 ms late at -6 dB.
    static func echoScene(in dir: URL) throws {
        let r = try CLI.shell("""
            "$AUPIPE" gen noise duration=4 level=-20 --out-format s16le:16000:1 -o far.wav
            "$AUPIPE" gen silence duration=4 --out-format s16le:16000:1 | "$AUPIPE" mix input=far.wav,offset=30ms,gain=-6 -o mic.wav
            """, cwd: dir)
        try #require(r.status == 0, "\(r.stderr)")
    }

    static func data(_ name: String, in dir: URL) throws -> Data {
        try Data(contentsOf: dir.appendingPathComponent(name))
    }

    /// The `--stats=json` object: the last line of stderr (warnings come before it).
    static func json(_ name: String, in dir: URL) throws -> [String: Any] {
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").last, "no stats in '\(text)'")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func figure(_ name: String, unit: Int = 0, in stats: [String: Any]) -> Double? {
        ((stats["units"] as? [[String: Any]])?[unit]["figures"] as? [String: Any])?[name] as? Double
    }

    /// Issue 24 item 2: a piped microphone and a reference that starts 0.3 s late cancel as with
    /// files, with the same bytes on every run (before: 1.1 dB instead of 80, the reference
    /// read as real time and shifted).
    @Test func aPipedMicrophoneWaitsForALateReference() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.echoScene(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i mic.wav aec ref=far.wav -o files.wav
            cat mic.wav | "$AUPIPE" aec ref=<(sleep 0.3; cat far.wav) -o piped1.wav
            cat mic.wav | "$AUPIPE" aec ref=<(sleep 0.3; cat far.wav) -o piped2.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try Self.data("files.wav", in: dir)
        #expect(try Self.data("piped1.wav", in: dir) == files, "a late piped reference changed the output")
        #expect(try Self.data("piped2.wav", in: dir) == files, "not the same bytes on the second run")
    }

    /// Issue 24 item 2: a piped stream waits for a mix bus whose writer starts late.
    @Test func aPipedStreamWaitsForALateMixBus() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.echoScene(in: dir)
        let r = try CLI.shell("""
            "$AUPIPE" -i mic.wav mix input=far.wav -o files.wav
            cat mic.wav | "$AUPIPE" mix input=<(sleep 0.3; cat far.wav) -o piped1.wav
            cat mic.wav | "$AUPIPE" mix input=<(sleep 0.3; cat far.wav) -o piped2.wav
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try Self.data("files.wav", in: dir)
        #expect(try Self.data("piped1.wav", in: dir) == files)
        #expect(try Self.data("piped2.wav", in: dir) == files)
    }

    /// A side input's writer that gives the header and 500 frames of far.wav, then holds its
    /// pipe open without writing (until killed: its pid is in writer.pid).
    static let stalledWriter = "echo $BASHPID > writer.pid; head -c 1044 far.wav; exec sleep 20 2> /dev/null"

    /// Issue 24 item 2: with `--live`, a reference that gives 500 frames and then nothing (its
    /// writer holds the pipe open) is silence from there: the stream does not stall, and the
    /// late frames are said on stderr and counted in `--stats` and `--stats=json` alike.
    /// `live=off` overrides the run: the reference is waited for.
    @Test func aRealTimeRunCountsLateReferenceFrames() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.echoScene(in: dir)
        let r = try CLI.shell("""
            (sleep 0.5; cat mic.wav) | timeout -s KILL 20 "$AUPIPE" --live --stats=json aec ref=<(\(Self.stalledWriter)) -o live.wav 2> json.txt
            echo "status=$?"; kill -KILL $(cat writer.pid)
            (sleep 0.5; cat mic.wav) | timeout -s KILL 20 "$AUPIPE" --live --stats aec ref=<(\(Self.stalledWriter)) -o /dev/null 2> text.txt
            kill -KILL $(cat writer.pid)
            (sleep 0.5; cat mic.wav) | timeout -s KILL 20 "$AUPIPE" --live mix input=<(\(Self.stalledWriter)) --stats=json -o /dev/null 2> mix.txt
            kill -KILL $(cat writer.pid)
            "$AUPIPE" -i mic.wav aec ref=far.wav -o files.wav
            cat mic.wav | "$AUPIPE" --live aec ref=<(sleep 0.3; cat far.wav) live=off -o off.wav
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        let stats = try Self.json("json.txt", in: dir)
        let late = try #require(Self.figure("referenceLateFrames", in: stats), "\(stats)")
        #expect(late > 60000, "500 of 64000 frames came: \(late) late")
        #expect(try String(contentsOf: dir.appendingPathComponent("json.txt"), encoding: .utf8)
            .contains("aupipe: aec: ref (/dev/fd/63): warning: \(Int(late)) frames came late and were silence"))
        #expect(try String(contentsOf: dir.appendingPathComponent("text.txt"), encoding: .utf8).contains("reference frames came late (silence)"))
        #expect(try Self.data("live.wav", in: dir).count == Self.data("mic.wav", in: dir).count, "the stream kept its length")
        let mix = try Self.json("mix.txt", in: dir)
        #expect((Self.figure("lateFrames", in: mix) ?? 0) > 60000, "\(mix)")
        #expect(try Self.data("off.wav", in: dir) == Self.data("files.wav", in: dir), "live=off waits for the reference in a --live run")
    }

    /// Issue 24 item 2: with `--live`, a piped reference whose writer is there but has sent
    /// nothing yet (not even its header) is late from the stream's start: its frames are silence,
    /// counted and said on stderr, and dropped when they come so that the reference is not
    /// shifted (before: silence that was neither counted nor said, and a shifted reference).
    /// A FIFO that no writer opens stays silence without being late.
    @Test func aRealTimeReferenceSilentFromTheStartIsLate() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.echoScene(in: dir)
        let r = try CLI.shell("""
            timeout -s KILL 20 "$AUPIPE" --live --stats=json aec ref=<(echo $BASHPID > writer.pid; exec sleep 20 2> /dev/null) -o live.wav < mic.wav 2> json.txt
            echo "status=$?"; kill -KILL $(cat writer.pid)
            mkfifo nobody
            timeout -s KILL 20 "$AUPIPE" --live --stats=json aec ref=nobody -o fifo.wav < mic.wav 2> fifo.txt
            echo "status=$?"
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self) == "status=0\nstatus=0\n", "\(r.stderr)")
        let late = try #require(Self.figure("referenceLateFrames", in: try Self.json("json.txt", in: dir)))
        #expect(late >= 64000, "every frame of the 4 s stream was late: \(late)")
        #expect(try String(contentsOf: dir.appendingPathComponent("json.txt"), encoding: .utf8)
            .contains("aupipe: aec: ref (/dev/fd/63): warning: \(Int(late)) frames came late and were silence"))
        #expect(Self.figure("referenceLateFrames", in: try Self.json("fifo.txt", in: dir)) == 0)
    }

    /// Issue 24 item 7: a tee into `>(command)` whose reader starts 1 s late gets every frame
    /// in a run that is not real time (before: 94 % dropped), from a file or a pipe, and into a
    /// FIFO; the same bytes on every run.
    @Test(arguments: ["-i in.wav", "< in.wav", "<(cat in.wav)"])
    func aLateTeeReaderGetsEveryFrame(input: String) throws {
        let dir = try CLI.temporaryDirectory()
        let input = input == "<(cat in.wav)" ? "-i <(cat in.wav)" : input
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 997 duration=3 --out-format s16le:48000:2 -o in.wav
            "$AUPIPE" -i in.wav -t raw -o ref.raw
            for run in 1 2; do
              "$AUPIPE" \(input) --stats tee >(sleep 1; cat > copy$run.raw) type=raw : gain -6 -o out.wav 2> err$run.txt; echo "status=$?"; wait $!
            done
            mkfifo copy
            (sleep 1; timeout -s KILL 20 cat copy > fifo.raw) & reader=$!
            "$AUPIPE" \(input) tee copy type=raw : gain -6 -o out.wav; echo "status=$?"; wait $reader
            cat err1.txt
            """, cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.components(separatedBy: "status=0").count == 4, "\(text) \(r.stderr)")
        let ref = try Self.data("ref.raw", in: dir)
        #expect(try Self.data("copy1.raw", in: dir) == ref, "the late reader lost frames")
        #expect(try Self.data("copy2.raw", in: dir) == ref, "not the same bytes on the second run")
        #expect(try Self.data("fifo.raw", in: dir) == ref, "the FIFO's late reader lost frames")
        #expect(text.contains("144000 frames written, 0 dropped"), "\(text)")
    }

    /// Issue 24 item 7: in a real-time run what is queued at the end is delivered to a reader
    /// that starts late (queue= holds the whole stream here; before, 0.5 s without progress
    /// dropped it).
    @Test func aRealTimeTeeDeliversItsQueueAtTheEnd() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen sine 997 duration=3 --out-format s16le:48000:2 -o in.wav
            "$AUPIPE" -i in.wav -t raw -o ref.raw
            "$AUPIPE" --live -i in.wav tee >(sleep 1; cat > copy.raw) type=raw queue=10s : gain -6 -o out.wav; echo "status=$?"; wait $!
            """, cwd: dir)
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("status=0"), "\(r.stderr)")
        #expect(try Self.data("copy.raw", in: dir) == Self.data("ref.raw", in: dir), "the queue was not delivered at the end")
    }

    /// The figure after "filter latency " in a `--stats` text, and the engine named before it.
    static func resampler(_ name: String, in dir: URL) throws -> (engine: String, latency: Int) {
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        let match = try #require(text.firstMatch(of: /Hz, (\w+) quality (\w+), filter latency (\d+) input frames/), "\(text)")
        return ("\(match.output.1) \(match.output.2)", Int(match.output.3)!)
    }

    /// Issue 24 item 22: in a real-time run the default resampler (`resample` without
    /// `engine=`, `--out-format`'s rate) is the low-latency one, speex at quality 5, with a
    /// shorter look-ahead than soxr's; without `--live` it is soxr high, byte for byte as before.
    @Test func aRealTimeRunsDefaultResamplerIsTheLowLatencyOne() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            "$AUPIPE" gen impulse duration=0.1 --out-format f32le:48000:1 -o imp.wav
            "$AUPIPE" --live -i imp.wav --stats resample 16000 -o live.wav 2> live.txt
            "$AUPIPE" -i imp.wav resample 16000 engine=speex quality=5 -o speex5.wav
            "$AUPIPE" -i imp.wav --stats resample 16000 -o file.wav 2> file.txt
            "$AUPIPE" -i imp.wav resample 16000 engine=soxr quality=high -o soxr.wav
            "$AUPIPE" --live -i imp.wav --stats --out-format f32le:16000:1 -o out.wav 2> outformat.txt
            cat imp.wav | "$AUPIPE" --stats resample 16000 -o piped.wav 2> piped.txt
            """, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let live = try Self.resampler("live.txt", in: dir), file = try Self.resampler("file.txt", in: dir)
        #expect(live.engine == "speex 5" && file.engine == "soxr high", "\(live) \(file)")
        #expect(live.latency < file.latency, "the live default looks ahead less: \(live.latency) against \(file.latency)")
        #expect(try Self.resampler("outformat.txt", in: dir).engine == "speex 5")
        #expect(try Self.resampler("piped.txt", in: dir).engine == "soxr high", "a pipe alone is not real time")
        #expect(try Self.data("live.wav", in: dir) == Self.data("speex5.wav", in: dir))
        #expect(try Self.data("file.wav", in: dir) == Self.data("soxr.wav", in: dir), "without --live the bytes are soxr high's")
    }

    /// `--live` is a flag: it takes no value, `--check` accepts it, and the completions offer it.
    @Test func liveIsARunOption() throws {
        let r = try CLI.shell("""
            "$AUPIPE" --live=1 gain 0 < /dev/null; echo "status=$?"
            "$AUPIPE" gen silence duration=10ms | "$AUPIPE" --live --check gain 0
            "$AUPIPE" completions bash | grep -c -- '--live'
            """, cwd: try CLI.temporaryDirectory())
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("status=64") && r.stderr.contains("--live takes no value"), "\(text) \(r.stderr)")
        #expect(text.contains("ok: wav s16le:48000:1 -> wav s16le:48000:1"), "\(text)")
    }
}
