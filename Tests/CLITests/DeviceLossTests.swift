import Foundation
import Testing

/// Sound devices that go away mid-run (unplugged: -ENODEV), without hardware: the devices are
/// an ALSA plugin built from Support/alsa_flaky_device.c that runs on the clock as a card does,
/// captures a counter that is never 0 (1, 2, 3, …: silence written for a gap is told apart),
/// is unplugged after `lose_after` periods, and then refuses `fail_opens` opens (-1: all)
/// before it opens again. Every aupipe runs under `timeout -s KILL`. Captures use a 500 ms
/// buffer, so that a test machine busy for a moment causes no overrun (which would take
/// frames from the exact counts asserted).
@Suite(.serialized) struct DeviceLossTests {
    static let plugin = CLI.sharedLibrary("alsa_flaky_device.c", named: "libasound_module_pcm_flaky.so", flags: "-DPIC", libraries: "-lasound")

    /// `gone` (capture) is unplugged after 30 periods and back on the 5th open; `never` does not
    /// come back; `steady` never goes; `spk` (playback) is unplugged after 20 periods and back
    /// on the 3rd open (`spknever`: never); `stuck` hangs after 30 periods (nothing more, no error) and is back on
    /// the 2nd open; `asleep` is suspended after 30 periods and never resumes. Periods are 10 ms
    /// (aupipe's default).
    static func directory() throws -> URL {
        let plugin = try #require(Self.plugin, "could not build Support/alsa_flaky_device.c (needs gcc and libasound2-dev)")
        let dir = try CLI.temporaryDirectory()
        let conf = """
            pcm_type.flaky { lib "\(plugin)" }
            pcm.gone { type flaky lose_after 30 fail_opens 4 state "\(dir.path)/gone.state" }
            pcm.never { type flaky lose_after 30 fail_opens -1 state "\(dir.path)/never.state" }
            pcm.steady { type flaky state "\(dir.path)/steady.state" }
            pcm.spk { type flaky lose_after 20 fail_opens 2 state "\(dir.path)/spk.state" }
            pcm.spknever { type flaky lose_after 20 fail_opens -1 state "\(dir.path)/spknever.state" }
            pcm.stuck { type flaky lose_after 30 stall 1 fail_opens 1 state "\(dir.path)/stuck.state" }
            pcm.asleep { type flaky lose_after 30 suspend 1 fail_opens 1 state "\(dir.path)/asleep.state" }

            """
        try conf.write(to: dir.appendingPathComponent("asound.conf"), atomically: true, encoding: .utf8)
        return dir
    }

    static func run(_ script: String, in dir: URL) throws -> CLI.Result {
        try CLI.shell(script, cwd: dir, environment: ["ALSA_CONFIG_PATH": dir.appendingPathComponent("asound.conf").path])
    }

    /// The samples of a 16-bit WAV, after checking that its header's data size was patched.
    static func wavSamples(_ url: URL) throws -> [Int16] {
        let wav = try Data(contentsOf: url)
        #expect(wav.count >= 44)
        let dataSize = Int(wav[40]) | Int(wav[41]) << 8 | Int(wav[42]) << 16 | Int(wav[43]) << 24
        #expect(dataSize == wav.count - 44, "the header's data size was not patched")
        return CaptureTests.samples(Data(wav.dropFirst(44)))
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    /// The last line of a run that failed (74) with `-o out.wav`: what was written is kept as
    /// out.wav.partial (issue 24, item 26).
    static let kept = "aupipe: output kept as out.wav.partial; out.wav was left as it was (the run failed)"

    /// By default a lost capture device ends the run: what was captured before (30 periods,
    /// exactly) went through the chain, the WAV's header is patched, one line says which device
    /// went and how, and the status is 74.
    @Test func captureLossEndsTheRunCleanly() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture gone --capture-format s16le:16000:1 --period 10ms --buffer 500ms --dither=off -o out.wav gain 0.0001", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 2 && lines[0].hasPrefix("aupipe: --capture gone: ") && lines[0].contains("unplugged or disappeared (ENODEV) at 0.300 s"), "\(r.stderr)")
        #expect(lines.last.map(String.init) == Self.kept)
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav.partial"))
        #expect(x.count == 30 * 160)
        #expect(x == (0..<x.count).map { Int16($0 + 1) }, "not the device's counter")
    }

    /// `--reconnect`: the run waits for the device, and the time it was away is silence, so the
    /// output is as long as the run (`--duration 3s`): the 30 periods, then exactly the gap's
    /// frames of zeros, then the device's counter again. Announced on stderr; --stats=json
    /// reports the one gap, whose frames are the zeros. Five waits of 250 ms at least passed
    /// (four refused opens and the one that worked).
    @Test func reconnectFillsTheGapWithSilence() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture gone --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect=20s --duration 3s --stats=json -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav"))
        #expect(x.count == 48000)
        #expect(Array(x.prefix(4800)) == (0..<4800).map { Int16($0 + 1) })
        let zeros = x.dropFirst(4800).prefix { $0 == 0 }.count
        #expect(zeros >= 5 * 4000 - 16, "a gap of \(zeros) frames is shorter than the five 250 ms waits")
        #expect(x.dropFirst(4800 + zeros).allSatisfy { $0 != 0 }, "the signal did not resume after the gap")
        #expect(4800 + zeros < x.count)
        #expect(r.stderr.contains("aupipe: --capture gone: lost (ENODEV) at 0.300 s; reconnecting (every 250 ms, up to 20s)"), "\(r.stderr)")
        #expect(r.stderr.contains("aupipe: --capture gone: back after ") && r.stderr.contains("; \(zeros) frames of silence written"), "\(r.stderr)")
        #expect(r.stderr.contains(#""deviceGaps":[{"option":"--capture","device":"gone","startSeconds":0.3,"#), "\(r.stderr)")
        #expect(r.stderr.contains(#","frames":\#(zeros)}],"deviceGapCount":1,"deviceGapSeconds":"#), "\(r.stderr)")
        let seconds = r.stderr.firstMatch(of: /"lengthSeconds":([0-9.]+)/).map { Double($0.1)! }
        #expect(seconds.map { abs($0 * 16000 - Double(zeros)) <= 16 } == true, "length \(String(describing: seconds)) s for \(zeros) frames")
    }

    /// The text statistics list the gap.
    @Test func statsListTheGaps() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture gone --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect --duration 2s --stats -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("reconnecting (every 250 ms, for ever)"), "\(r.stderr)")
        #expect(r.stderr.firstMatch(of: /aupipe: stats: device gaps: 1, \d+\.\d{3} s in all\n/) != nil, "\(r.stderr)")
        #expect(r.stderr.firstMatch(of: /aupipe: stats: gap 1: --capture gone at 0\.300 s for \d+\.\d{3} s, \d+ frames\n/) != nil, "\(r.stderr)")
    }

    /// SIGINT while waiting for the device ends the run as it ends any capture: status 0,
    /// what was captured before finished and patched, a line saying so, and the gap so far in
    /// `--stats` with no frames written for it. (A watchdog kills aupipe if it hangs.)
    @Test func stopWhileWaitingEndsCleanly() throws {
        let dir = try Self.directory()
        let r = try Self.run("""
            "$AUPIPE" --capture never --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect --stats -o out.wav 2> err.txt &
            pid=$!
            \(SideInputLifetimeTests.watchdog(20))
            for i in $(seq 500); do grep -q reconnecting err.txt 2> /dev/null && break; sleep 0.02; done
            sleep 0.6; kill -INT $pid
            wait $pid; echo "status $?"
            \(SideInputLifetimeTests.callOffWatchdog); cat err.txt
            """, in: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("status 0\n"), "\(text)")
        #expect(text.contains("aupipe: --capture never: lost (ENODEV) at 0.300 s; reconnecting (every 250 ms, for ever)") && !text.contains("back after"), "\(text)")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav")).count == 4800)
        #expect(text.firstMatch(of: /aupipe: --capture never: stopped while waiting for it, \d+\.\d{3} s after the loss; the stream ends at the loss\n/) != nil, "\(text)")
        #expect(text.firstMatch(of: /aupipe: stats: gap 1: --capture never at 0\.300 s for \d+\.\d{3} s, 0 frames\n/) != nil, "\(text)")
    }

    /// The silence of a capture gap is not played on `--monitor`: its time has passed, and
    /// playing it (at the device's pace) would hold the stream that long while the capture
    /// device, back and running, overruns. So the capture has no overrun and the output is the
    /// counter, the gap and the counter, to the frame.
    @Test func aCaptureGapIsNotPlayedOnTheMonitor() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture gone --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect --duration 3s --monitor steady --stats=json -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(#"{"role":"capture","name":"gone","format":"s16le:16000:1","periodFrames":160,"bufferFrames":8000,"xruns":0,"#), "\(r.stderr)")
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav"))
        #expect(x.count == 48000)
        let zeros = x.dropFirst(4800).prefix { $0 == 0 }.count
        #expect(r.stderr.contains(#","frames":\#(zeros)}],"deviceGapCount":1,"#), "\(r.stderr)")
        // After the gap, the reopened device's counter from its first frame, with no frame lost.
        #expect(x.dropFirst(4800 + zeros) == ArraySlice((0..<(48000 - 4800 - zeros)).map { Int16($0 + 1) }), "frames were lost after the gap")
    }

    /// `--duration` reached while the device is away (under `--reconnect`, for ever or for
    /// longer than is left) ends the wait: the gap's silence is written up to the duration and
    /// the run ends with 0, as it would have with the device there. (It waited for ever.)
    @Test(arguments: ["--reconnect", "--reconnect=20s"])
    func durationReachedDuringAGapEndsTheRun(reconnect: String) throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 10 \"$AUPIPE\" --capture never --capture-format s16le:16000:1 --period 10ms --buffer 500ms \(reconnect) --duration 1s --stats=json -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines.count > 1 && lines[1] == "aupipe: --capture never: still away when --duration was reached; 11200 frames of silence written", "\(r.stderr)")
        #expect(r.stderr.contains(#""frames":11200}],"deviceGapCount":1,"#), "\(r.stderr)")
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav"))
        #expect(x.count == 16000)
        #expect(x.prefix(4800) == ArraySlice((0..<4800).map { Int16($0 + 1) }) && x.dropFirst(4800).allSatisfy { $0 == 0 })
    }

    /// A device that does not come back within `--reconnect=TIMEOUT` ends the run as a loss
    /// does by default: 74, what was captured before, patched, and a line saying so.
    @Test func reconnectGivesUpAfterTheTimeout() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture never --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect=300ms --duration 3s -o out.wav", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines.dropLast().last == "aupipe: --capture never: lost (ENODEV) at 0.300 s and did not come back within 300ms; the output ends there", "\(r.stderr)")
        #expect(lines.last.map(String.init) == Self.kept)
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav.partial")).count == 4800)
    }

    /// A device that hangs is lost after the stall limit (5 s): by default the run ends as for
    /// an unplugged one; under `--reconnect` the gap counts from the last frames it delivered,
    /// so it holds the 5 s of the stall too and the output keeps the run's time.
    @Test func stalledDeviceIsLostAfterTheStallLimit() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture stuck --capture-format s16le:16000:1 --period 10ms --buffer 500ms -o out.wav", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr == "aupipe: --capture stuck: the capture device delivered nothing for 5 s (stuck, or taken away) at 0.300 s; the output ends there (--reconnect waits for it to come back)\n" + Self.kept + "\n")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav.partial")).count == 4800)

        try FileManager.default.removeItem(at: dir.appendingPathComponent("stuck.state"))
        let again = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture stuck --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect --duration 6.5s -o out.wav", in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("aupipe: --capture stuck: lost (stalled) at 0.300 s; reconnecting"), "\(again.stderr)")
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav"))
        #expect(x.count == 104000)
        let zeros = x.dropFirst(4800).prefix { $0 == 0 }.count
        #expect(zeros >= 5 * 16000, "a gap of \(zeros) frames does not hold the 5 s stall")
        #expect(4800 + zeros < x.count && x.dropFirst(4800 + zeros).allSatisfy { $0 != 0 })
    }

    /// A device suspended for good (-ESTRPIPE again after every resume) is lost after
    /// `ALSADevice.recoveryLimit` recoveries in a row, not retried for ever; under `--reconnect`
    /// it is reopened like an unplugged one.
    @Test func suspendedDeviceThatDoesNotResumeIsLost() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture asleep --capture-format s16le:16000:1 --period 10ms --buffer 500ms -o out.wav", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 2 && lines[0].hasPrefix("aupipe: --capture asleep: the capture device stopped and did not resume after suspend (ESTRPIPE) at "), "\(r.stderr)")
        #expect(lines.last.map(String.init) == Self.kept)
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav.partial"))
        #expect(x.count >= 4800 && x == (0..<x.count).map { Int16($0 + 1) }, "\(x.count) frames, not the device's counter")

        try FileManager.default.removeItem(at: dir.appendingPathComponent("asleep.state"))
        let again = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture asleep --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect=5s --duration 1.5s -o out.wav", in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("lost (ESTRPIPE) at ") && again.stderr.contains("aupipe: --capture asleep: back after "), "\(again.stderr)")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav")).count == 24000)
    }

    /// The silence of a gap and the capture after it allocate nothing per block: a run 1 s
    /// longer (100 more blocks after the gap) makes as many heap allocations (counted by
    /// Support/malloccount.c, as AllocationTests does).
    @Test func allocationsDoNotGrowAfterAGap() throws {
        let dir = try Self.directory()
        let shim = try #require(AllocationTests.shim, "could not compile Support/malloccount.c")
        func count(_ duration: String) throws -> Int {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("gone.state"))
            let r = try Self.run("LD_PRELOAD='\(shim)' timeout -s KILL 30 \"$AUPIPE\" --capture gone --capture-format s16le:16000:1 --period 10ms --buffer 500ms --reconnect --duration \(duration) -o /dev/null gain -1 2>&1 >/dev/null | grep '^mallocs:'", in: dir)
            let text = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return try #require(Int(text.replacingOccurrences(of: "mallocs: ", with: "")), "no count in '\(text)' (\(r.stderr))")
        }
        let short = try count("2s"), long = try count("3s")
        #expect(abs(long - short) <= 4, "\(short) allocations for 2 s but \(long) for 3 s")
    }

    /// Losing `--monitor`'s device never stops the stream: the output is complete (what a run
    /// without the monitor writes), the status 0, and one line warns.
    @Test func monitorLossLeavesTheStreamWhole() throws {
        let dir = try Self.directory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=1 seed=3 --out-format s16le:16000:1 -o in.wav
            "$AUPIPE" -i in.wav -t raw gain -3 > expected.raw
            timeout -s KILL 30 "$AUPIPE" -i in.wav --monitor spk -t raw gain -3 > out.raw
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("out.raw")) == Data(contentsOf: dir.appendingPathComponent("expected.raw")))
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 1 && lines[0].hasPrefix("aupipe: --monitor spk: the playback device was unplugged or disappeared (ENODEV) at ")
                && lines[0].hasSuffix("; the stream goes on without it"), "\(r.stderr)")
    }

    /// Under `--reconnect` the monitor comes back while the stream goes on (a live capture, so
    /// the monitor is written period by period): the output is whole, and the gap is counted.
    @Test func monitorComesBackUnderReconnect() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --monitor spk --reconnect=10s --stats=json -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav"))
        #expect(x.count == 24000 && !x.contains(0), "the capture has a hole: \(x.count) frames")
        #expect(r.stderr.contains("aupipe: --monitor spk: lost (ENODEV) at ") && r.stderr.contains("the stream goes on, reconnecting"), "\(r.stderr)")
        #expect(r.stderr.contains("aupipe: --monitor spk: back after "), "\(r.stderr)")
        #expect(r.stderr.contains(#""deviceGaps":[{"option":"--monitor","device":"spk","#) && r.stderr.contains(#""deviceGapCount":1,"#), "\(r.stderr)")
    }

    /// `--play`: losing the device that plays aec's far end ends the run by default (74, the
    /// output patched); under `--reconnect` the run goes on to its end and the gap is counted.
    @Test func playLossEndsTheRunOrIsWaitedFor() throws {
        let dir = try Self.directory()
        let gen = try Self.run("\"$AUPIPE\" gen noise duration=3 seed=5 --out-format s16le:16000:1 -o far.wav", in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --play spk -o out.wav aec ref=far.wav", in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 2 && lines[0].hasPrefix("aupipe: --play spk: the playback device was unplugged or disappeared (ENODEV) at "), "\(r.stderr)")
        #expect(lines.last.map(String.init) == Self.kept)
        let x = try Self.wavSamples(dir.appendingPathComponent("out.wav.partial"))
        #expect(x.count > 0 && x.count < 24000)

        try FileManager.default.removeItem(at: dir.appendingPathComponent("spk.state"))
        let again = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --play spk --reconnect --stats=json -o out.wav aec ref=far.wav", in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav")).count == 24000)
        #expect(again.stderr.contains("aupipe: --play spk: lost (ENODEV) at ") && again.stderr.contains("aupipe: --play spk: back after "), "\(again.stderr)")
        #expect(again.stderr.contains(#""deviceGaps":[{"option":"--play","device":"spk","#), "\(again.stderr)")

        let late = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --play spknever --reconnect=300ms -o out.wav aec ref=far.wav", in: dir)
        #expect(late.status == 74, "\(late.stderr)")
        #expect(Self.lines(late.stderr).dropLast().last?.firstMatch(of: /^aupipe: --play spknever: lost \(ENODEV\) at \d+\.\d{3} s and did not come back within 300ms; the output ends there$/) != nil, "\(late.stderr)")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav.partial")).count < 24000)
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav")).count == 24000, "the last good run's output was replaced")
    }

    /// A playback device still away when the run ends (given up after the timeout, or never
    /// waited for) counts its gap to the end in `--stats`: the output frames it did not play.
    /// (It was left out: 0 gaps, though most of the output was never heard.)
    @Test(arguments: ["--reconnect=300ms", ""])
    func aMonitorStillAwayAtTheEndCountsItsGap(reconnect: String) throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --monitor spknever \(reconnect) --stats=json -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let gap = try #require(r.stderr.firstMatch(of: /"deviceGaps":\[\{"option":"--monitor","device":"spknever","startSeconds":([0-9.]+),"lengthSeconds":[0-9.]+,"frames":(\d+)\}\],"deviceGapCount":1,/), "\(r.stderr)")
        let start = try #require(Double(gap.1)), frames = try #require(Int(gap.2))
        // From where it went to the end of the 24000 frames (the start is rounded to 1 ms).
        #expect(abs(Double(frames) - (24000 - start * 16000)) <= 16, "\(r.stderr)")
    }

    /// A monitor not back within `--reconnect=TIMEOUT` is dropped, with a line, and the stream
    /// goes on to its end.
    @Test func monitorThatDoesNotComeBackIsDropped() throws {
        let dir = try Self.directory()
        let r = try Self.run("timeout -s KILL 30 \"$AUPIPE\" --capture steady --capture-format s16le:16000:1 --period 10ms --buffer 500ms --duration 1.5s --monitor spknever --reconnect=300ms -o out.wav", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Self.lines(r.stderr)
        #expect(lines.count == 2 && lines[1].hasSuffix(" and did not come back within 300ms; the stream goes on without it"), "\(r.stderr)")
        #expect(try Self.wavSamples(dir.appendingPathComponent("out.wav")).count == 24000)
    }
}
