import Foundation
import Testing

/// `--capture`, `--monitor` and the ALSA loading through the binary, without sound hardware:
/// ALSA's `file` plugin (slave `null`, `infile`) is a capture device that reads a file and a
/// playback device that writes one; `ALSA_CONFIG_PATH` points ALSA at a configuration made
/// here. Overruns come from a paced capture plugin built from Support/alsa_paced_capture.c
/// (an ALSA ioplug plugin that runs on the clock as a card does), provoked by stopping aupipe.
@Suite(.serialized) struct CaptureTests {
    /// A directory with `asound.conf`: `cap` captures `in.raw`, `mon` and `spk` write
    /// `monitored.raw` and `played.raw`, and `paced` is the clocked capture plugin when `paced`.
    static func alsaDirectory(paced: Bool = false) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        var conf = """
            pcm.null { type null }
            pcm.cap { type file slave.pcm "null" file "/dev/null" infile "\(dir.path)/in.raw" format "raw" }
            pcm.mon { type file slave.pcm "null" file "\(dir.path)/monitored.raw" format "raw" }
            pcm.spk { type file slave.pcm "null" file "\(dir.path)/played.raw" format "raw" }

            """
        if paced {
            let plugin = try #require(Self.pacedPlugin, "could not build Support/alsa_paced_capture.c (needs gcc and libasound2-dev)")
            conf += "pcm_type.paced { lib \"\(plugin)\" }\npcm.paced { type paced }\n"
        }
        try conf.write(to: dir.appendingPathComponent("asound.conf"), atomically: true, encoding: .utf8)
        return dir
    }

    /// ALSA loads a plugin of type `paced` from `libasound_module_pcm_paced.so`; -DPIC selects
    /// its dynamic-library entry point.
    static let pacedPlugin = CLI.sharedLibrary("alsa_paced_capture.c", named: "libasound_module_pcm_paced.so", flags: "-DPIC", libraries: "-lasound")

    static func run(_ script: String, in dir: URL) throws -> CLI.Result {
        try CLI.shell(script, cwd: dir, environment: ["ALSA_CONFIG_PATH": dir.appendingPathComponent("asound.conf").path])
    }

    static func samples(_ data: Data) -> [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// What the device captures is what comes out, byte for byte, for a stereo and a mono format.
    @Test(arguments: ["s16le:48000:2", "s24le:44100:1", "f32le:16000:1"])
    func captureIsBitExact(format: String) throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=2 seed=7 --out-format \(format) -t raw -o in.raw
            "$AUPIPE" --capture cap --capture-format \(format) --duration 1.5s -t raw > out.raw
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let input = try Data(contentsOf: dir.appendingPathComponent("in.raw"))
        let out = try Data(contentsOf: dir.appendingPathComponent("out.raw"))
        let parts = format.split(separator: ":")
        let bytes = Int(parts[1])! * 3 / 2 * Int(parts[2])! * (format.hasPrefix("s16") ? 2 : (format.hasPrefix("s24") ? 3 : 4))
        #expect(out.count == bytes)
        #expect(out == input.prefix(bytes), "the captured bytes differ from the device's")
    }

    /// By default the capture comes out as WAV (a device has no container to keep), and a chain
    /// processes it as any stream.
    @Test func captureDefaultsToWAVAndRunsTheChain() throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen sine freq=440 duration=1 --out-format s16le:16000:1 -t raw -o in.raw
            "$AUPIPE" --capture cap --capture-format s16le:16000:1 --duration 0.5 --stats gain -6 > out.wav
            "$AUPIPE" info out.wav
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("wav") && text.contains("frames: 8000"), "\(text)")
        #expect(r.stderr.contains("aupipe: stats: capture cap s16le:16000:1: period 160 frames (10 ms), buffer 640 frames (40 ms), 0 overruns recovered"), "\(r.stderr)")
        // A period alone: the buffer is four of them.
        let p = try Self.run("\"$AUPIPE\" --capture cap --capture-format s16le:16000:1 --duration 0.2 --period 20ms --stats > /dev/null", in: dir)
        #expect(p.stderr.contains("period 320 frames (20 ms), buffer 1280 frames (80 ms)"), "\(p.stderr)")
        #expect(r.stderr.contains("1 gain: in 8000, out 8000"))
    }

    /// `--monitor` plays exactly what goes to stdout, and `--period`/`--buffer` reach the device.
    @Test func monitorPlaysExactlyTheOutput() throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen noise duration=2 seed=3 --out-format s16le:48000:2 -t raw -o in.raw
            "$AUPIPE" --capture cap --capture-format s16le:48000:2 --duration 1s --monitor mon --period 5ms --buffer 20ms --stats=json -t raw gain -3 : resample 32000 > out.raw
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = try Data(contentsOf: dir.appendingPathComponent("out.raw"))
        let monitored = try Data(contentsOf: dir.appendingPathComponent("monitored.raw"))
        #expect(out.count == 32000 * 2 * 2)
        #expect(monitored == out, "the monitor got \(monitored.count) bytes, stdout \(out.count)")
        #expect(r.stderr.contains(#""role":"monitor","name":"mon","format":"s16le:32000:2","periodFrames":160,"bufferFrames":640,"xruns":0"#), "\(r.stderr)")
    }

    /// `--monitor` on a file input plays the processed stream as sox's `play` would.
    @Test func monitorWorksWithoutCapture() throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("""
            "$AUPIPE" gen sine duration=0.5 --out-format s16le:8000:1 -o in.wav
            "$AUPIPE" -i in.wav --monitor mon -t raw mute at=0.1-0.2 > out.raw
            """, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("monitored.raw")) == Data(contentsOf: dir.appendingPathComponent("out.raw")))
    }

    /// Stopping aupipe for longer than the device's buffer overruns it: the overrun is recovered
    /// (the lost frames are a gap in the counter the plugin captures), counted in --stats, and
    /// capture goes on until SIGINT, which drains the chain and patches the WAV header.
    @Test func overrunIsRecoveredAndCounted() throws {
        let dir = try Self.alsaDirectory(paced: true)
        let r = try Self.run("""
            "$AUPIPE" --capture paced --capture-format s16le:16000:1 --stats -o out.wav convert format=s16le > /dev/null 2> err.txt &
            pid=$!
            for i in $(seq 250); do [ -s .out.wav.aupipe-$pid.tmp ] && break; sleep 0.02; done   # capturing (into the file that becomes out.wav)
            sleep 0.2; kill -STOP $pid; sleep 0.3; kill -CONT $pid; sleep 0.4; kill -INT $pid
            wait $pid; echo "status $?"; cat err.txt
            """, in: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.contains("status 0"), "\(text) \(r.stderr)")
        let overruns = text.firstMatch(of: /capture paced s16le:16000:1: period 160 frames \(10 ms\), buffer 640 frames \(40 ms\), (\d+) overruns? recovered/)
        #expect(overruns.map { Int($0.1)! >= 1 } == true, "\(text)")
        let wav = try Data(contentsOf: dir.appendingPathComponent("out.wav"))
        let x = Self.samples(Data(wav.dropFirst(44)))
        // The header's data size was patched to what was written.
        let dataSize = Int(wav[40]) | Int(wav[41]) << 8 | Int(wav[42]) << 16 | Int(wav[43]) << 24
        #expect(dataSize == wav.count - 44)
        // The counter runs on by one except where an overrun lost frames: one gap per overrun
        // counted, the first losing about the 0.3 s stop (4800 frames; more than 0.2 s), and
        // capture went on after it.
        let gaps = zip(x.dropFirst(), x).enumerated().filter { UInt16(bitPattern: $0.element.0 &- $0.element.1) != 1 }
        #expect(gaps.count == overruns.map { Int($0.1)! }, "gaps at \(gaps.map(\.offset)); \(text)")
        if let g = gaps.first {
            let lost = Int(UInt16(bitPattern: g.element.0 &- g.element.1)) - 1
            #expect(lost > 3200, "the 0.3 s stop lost only \(lost) frames")
            #expect(x.count - g.offset > 3200, "capture did not go on after the overrun: \(x.count - g.offset) frames")
        }
    }

    /// Full duplex: `--play` plays aec's far end and cancels exactly what was played. The far
    /// end is noise, and the microphone (made here) holds its echo 100 ms after it: aupipe
    /// takes 30 ms of that as the device's (a 40 ms buffer less a 10 ms period queued; these
    /// file devices keep no time, so that is all the test can check of it), and aec's
    /// delay=auto finds the remaining 70 ms (applied less its 10 ms margin). The played file
    /// is the far end, byte for byte, and aec removes the echo.
    @Test func playCancelsWhatWasPlayed() throws {
        let dir = try Self.alsaDirectory()
        let gen = try Self.run("\"$AUPIPE\" gen noise color=pink duration=4 seed=11 --out-format s16le:16000:1 -o far.wav && \"$AUPIPE\" -i far.wav -t raw gain -12 > far.raw && \"$AUPIPE\" --in-format s16le:16000:1 -i far.raw -t wav -o far.wav", in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        let far = Self.samples(try Data(contentsOf: dir.appendingPathComponent("far.raw")))
        // The room: 100 ms in all, then a decaying 4 ms response at -6 dB, plus faint noise.
        let delay = 1600
        let room: [Double] = (0..<64).map { k in
            let sign: Double = k % 3 == 0 ? 1 : -0.5
            return 0.5 * exp(-Double(k) / 12) * sign
        }
        var seed: UInt64 = 99
        var mic = [Int16](repeating: 0, count: far.count)
        for n in 0..<far.count {
            var y = 0.0
            for (k, h) in room.enumerated() where n - delay - k >= 0 { y += h * Double(far[n - delay - k]) }
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            y += Double(Int64(seed >> 33) % 9 - 4)
            mic[n] = Int16(max(-32768, min(32767, y.rounded())))
        }
        try Data(mic.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: UInt16(bitPattern: $0) >> 8)] }).write(to: dir.appendingPathComponent("in.raw"))

        let r = try Self.run("\"$AUPIPE\" --capture cap --capture-format s16le:16000:1 --duration 4s --play spk --stats -t raw aec ref=far.wav preprocess=0 > out.raw", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let played = try Data(contentsOf: dir.appendingPathComponent("played.raw"))
        let farBytes = try Data(contentsOf: dir.appendingPathComponent("far.raw"))
        #expect(played == farBytes, "played \(played.count) bytes, the far end is \(farBytes.count)")
        let out = Self.samples(try Data(contentsOf: dir.appendingPathComponent("out.raw")))
        #expect(out.count == mic.count)
        // The last 1.5 s: converged.
        let tail = (mic.count - 24000)..<mic.count
        let micEnergy = tail.reduce(0.0) { $0 + Double(mic[$1]) * Double(mic[$1]) }
        let outEnergy = tail.reduce(0.0) { $0 + Double(out[$1]) * Double(out[$1]) }
        let erle = 10 * log10(micEnergy / max(outEnergy, 1))
        #expect(erle >= 15, "ERLE \(erle) dB over the last 1.5 s; \(r.stderr)")
        #expect(r.stderr.contains("device delay 30 ms applied"), "\(r.stderr)")
        #expect(r.stderr.contains("play spk s16le:16000:1: period 160 frames (10 ms), buffer 640 frames (40 ms)"), "\(r.stderr)")
        let found = r.stderr.firstMatch(of: /delay (\d+(\.\d+)?) ms \(auto/).map { Double($0.1)! }
        #expect(found.map { (55...65).contains($0) } == true, "aec's own delay: \(r.stderr)")
    }

    /// Without libasound (tried by naming a library that is not there) the device options fail
    /// with one line that says what to install, and everything else works.
    @Test func withoutALSATheDeviceOptionsSayWhatToInstall() throws {
        let dir = try Self.alsaDirectory()
        let noALSA = ["AUPIPE_LIBASOUND": "libasound-not-here.so.2"]
        for options in ["--capture cap", "-i in.wav --monitor mon", "-i in.wav --play spk"] {
            let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -o in.wav && \"$AUPIPE\" \(options) -t raw \(options.contains("play") ? "aec ref=in.wav" : "gain -1") > /dev/null", cwd: dir, environment: noALSA)
            #expect(r.status == 69, "\(options): \(r.status) \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("needs ALSA's library") && lines[0].contains("apt install libasound2"), "\(r.stderr)")
        }
        let ok = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 | \"$AUPIPE\" gain -6 | \"$AUPIPE\" info", cwd: dir, environment: noALSA)
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// Bad device options: one line each, with a sysexits status, and the device never
    /// touched by --check.
    @Test(arguments: [
        ("--capture nosuch --duration 1", 66, "--capture nosuch: cannot open the capture device"),
        ("--capture cap --capture-format s16le:48000:2 --duration 1 --monitor nosuch", 73, "--monitor nosuch: cannot open the playback device"),
        ("--capture-format s16le:48000:2", 64, "--capture-format needs --capture DEVICE"),
        ("--capture cap --in-format s16le:8000:1", 64, "--capture reads the format from --capture-format"),
        ("--period 10ms", 64, "--period and --buffer size the sound devices"),
        ("--capture cap --period 20ms --buffer 30ms", 64, "must hold at least two periods"),
        ("--capture cap --period 0", 64, "--period 0 is out of range"),
        ("--capture cap --period 1000000f --duration 1", 64, "--period 1000000f is out of range 1 ms...2 s"),
        ("--capture cap --buffer 3f --duration 1", 64, "--buffer 3f is out of range 2 ms...4 s"),
        ("--capture cap --duration x", 64, "--duration x is not a duration"),
        ("--reconnect", 64, "--reconnect waits for a lost sound device to come back: give --capture, --monitor or --play"),
        ("--capture cap --reconnect=soon", 64, "--reconnect soon is not a duration"),
    ])
    func badDeviceOptions(options: String, status: Int32, message: String) throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("head -c 96000 /dev/zero > in.raw; \"$AUPIPE\" \(options) -t raw gain -1 > /dev/null", in: dir)
        #expect(r.status == status, "\(options): \(r.stderr)")
        #expect(r.stderr.hasPrefix("aupipe: ") && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(options): \(r.stderr)")
    }

    @Test func checkDoesNotOpenTheDevice() throws {
        let dir = try Self.alsaDirectory()
        let r = try Self.run("\"$AUPIPE\" --capture nosuch --capture-format s16le:16000:1 --check resample 8000", in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self).contains("ok: --capture nosuch s16le:16000:1 -> wav s16le:8000:1"))
    }
}
