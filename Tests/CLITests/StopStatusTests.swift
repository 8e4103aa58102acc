import Foundation
import Testing

/// Issue 24 item 29: SIGINT/SIGTERM during a run that is not real time (files and pipes, no
/// `--live`) ends with 130/143, as shells expect of a program a signal ended, after draining
/// and patching the header; in a real-time run (`--live`, a capture device) it is the normal
/// end and exits 0. An interrupted run that is not real time keeps its `-o` file as
/// `FILE.partial` (item 26). Every run is bounded by a watchdog.
@Suite(.serialized) struct StopStatusTests {
    /// The stream gives 1 s of audio, then its writer waits 3 s; the signal comes once the
    /// second is written. The status, and the output's frames as its patched header says.
    static func stop(signal: String, options: String) throws -> (text: String, err: String) {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.shell("""
            ("$AUPIPE" gen sine duration=1s; exec sleep 3 2> /dev/null) | "$AUPIPE" \(options) gain -3 -o out.wav & pid=$!
            (sleep 20; kill -KILL $pid) > /dev/null 2>&1 & dog=$!
            for i in $(seq 500); do [ "$(stat -c %s .out.wav.aupipe-$pid.tmp 2>/dev/null || echo 0)" -ge 96044 ] && break; sleep 0.01; done
            kill -\(signal) $pid; wait $pid; echo "status=$?"; pkill -KILL -P $dog; kill -KILL $dog
            kept=out.wav; [ -e out.wav ] || { kept=out.wav.partial; echo "kept as partial"; }
            "$AUPIPE" info $kept | grep frames; stat -c size=%s $kept
            """, cwd: dir)
        return (String(decoding: r.stdout, as: UTF8.self), r.stderr)
    }

    @Test(arguments: [("INT", "status=130"), ("TERM", "status=143")])
    func aSignalEndsARunThatIsNotRealTimeWithItsStatus(signal: String, status: String) throws {
        let r = try Self.stop(signal: signal, options: "")
        #expect(r.text.contains(status), "\(r.text) \(r.err)")
        // A failed run's output (item 26): out.wav is not made, what was written is the .partial.
        #expect(r.text.contains("kept as partial"), "\(r.text) \(r.err)")
        #expect(r.err.contains("aupipe: output kept as out.wav.partial; out.wav was left as it was (the run was stopped by a signal)"), "\(r.err)")
        #expect(r.text.contains("frames: 48000") && r.text.contains("size=96044"), "drained and patched: \(r.text)")
    }

    @Test(arguments: ["INT", "TERM"])
    func aSignalIsTheNormalEndOfARealTimeRun(signal: String) throws {
        let r = try Self.stop(signal: signal, options: "--live")
        #expect(r.text.contains("status=0"), "\(r.text) \(r.err)")
        #expect(!r.text.contains("kept as partial"), "a real-time run's stop is a success: \(r.text)")
        #expect(r.text.contains("frames: 48000") && r.text.contains("size=96044"), "drained and patched: \(r.text)")
    }
}
