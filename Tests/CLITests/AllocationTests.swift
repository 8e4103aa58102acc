import Foundation
import TestScratch
import Testing

/// "No allocation per block": the number of heap allocations must not grow with the stream.
/// Counted by an LD_PRELOAD shim (Support/malloccount.c) compiled with the toolchain's clang;
/// counts, unlike times, are repeatable on a shared machine.
@Suite struct AllocationTests {
    static let shim = CLI.sharedLibrary("malloccount.c", named: "malloccount.so", flags: "-O2", libraries: "-ldl")

    func allocations(_ chain: String, seconds: Int) throws -> Int {
        let shim = try #require(Self.shim, "could not compile Support/malloccount.c with clang or gcc")
        let bytes = seconds * 48000 * 4
        let r = try CLI.shell("head -c \(bytes) /dev/zero | LD_PRELOAD='\(shim)' \"$AUPIPE\" --in-format s16le:48000:2 -t wav \(chain) 2>&1 >/dev/null | grep '^mallocs:'")
        let text = String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Int(text.replacingOccurrences(of: "mallocs: ", with: "")), "no count in '\(text)' (\(r.stderr))")
    }

    /// A 40 s bus file at another rate and channel count, for the mix case.
    static let busFile: String = {
        let path = TestScratch.root.appendingPathComponent("aupipe-alloc-bus-\(getpid()).wav").path
        _ = try? CLI.shell("\"$AUPIPE\" gen noise duration=40 --out-format s16le:44100:1 -o '\(path)'")
        return path
    }()

    /// The bus file on a clock 204 ppm slow (resampled to 44109 Hz, labelled 44100): as a
    /// microphone's echo of the bus file, a drift for `aec` to find and compensate.
    static let driftedFile: String = {
        let path = TestScratch.root.appendingPathComponent("aupipe-alloc-drifted-\(getpid()).wav").path
        _ = try? CLI.shell("\"$AUPIPE\" -i '\(busFile)' resample 44109 -t raw | \"$AUPIPE\" --in-format s16le:44100:1 -o '\(path)'")
        return path
    }()

    /// 0.5 s of noise: the silence case's sound, before a silence as long as the stream.
    static let shortNoiseFile: String = {
        let path = TestScratch.root.appendingPathComponent("aupipe-alloc-short-\(getpid()).wav").path
        _ = try? CLI.shell("\"$AUPIPE\" gen noise duration=0.5 --out-format s16le:44100:1 -o '\(path)'")
        return path
    }()

    /// Where the tee case writes its copy (a regular file, rewritten by each run).
    static let teeFile = TestScratch.root.appendingPathComponent("aupipe-alloc-tee-\(getpid()).wav").path

    /// Where the spectrogram case draws (a regular file, rewritten by each run).
    static let spectrogramFile = TestScratch.root.appendingPathComponent("aupipe-alloc-spectrogram-\(getpid()).png").path

    /// aec compensating a drift (found, compensated from about 2.3 s, the canceller retrained
    /// on the warped past): 10 s and 30 s allocate the same. (Against 1 s, as above, the
    /// end-of-run note differs: no drift is found in 1 s.)
    @Test func driftCompensationDoesNotAllocatePerBlock() throws {
        let chain = "convert channels=1 : mix input=\(Self.driftedFile),gain=-6 : aec ref=\(Self.busFile) : denoise : agc"
        let check = try CLI.shell("head -c \(10 * 48000 * 4) /dev/zero | \"$AUPIPE\" --in-format s16le:48000:2 -t wav --stats \(chain) 2>&1 >/dev/null")
        #expect(check.stdout.count > 0 && String(decoding: check.stdout, as: UTF8.self).contains("compensated from"), "no drift compensated: \(String(decoding: check.stdout, as: UTF8.self))")
        let ten = try allocations(chain, seconds: 10)
        let thirty = try allocations(chain, seconds: 30)
        #expect(abs(thirty - ten) <= 4, "\(ten) allocations for 10 s but \(thirty) for 30 s")
    }

    /// aec with the far end's echo in the microphone, at 48 kHz (its band split): the delay found
    /// and warm-started, the residual suppressor and the nonlinear canceller at work. 5 s and
    /// 30 s allocate the same. (Against 1 s the end-of-run note differs: the drift search's
    /// verdict and a shadow's clause come within the first seconds.)
    @Test func echoCancellationDoesNotAllocatePerBlock() throws {
        let chain = "convert channels=1 : mix input=\(Self.busFile),gain=-6 : aec ref=\(Self.busFile) : denoise : agc"
        _ = try allocations(chain, seconds: 5)
        let five = try allocations(chain, seconds: 5)
        let thirty = try allocations(chain, seconds: 30)
        #expect(abs(thirty - five) <= 4, "\(five) allocations for 5 s but \(thirty) for 30 s")
    }

    @Test(arguments: ["", "gain -3",
                      // Channels moved as bytes (StreamLoop's byte path): a swap, and a selection with silence.
                      "remix 2 1", "remix 2 0 1 1 : convert map=3,0,1", "convert format=mulaw", "resample 16000 quality=3 : convert channels=1 : mute at=0.2-0.5",
                      "resample 44.1k engine=soxr quality=very-high : resample 16000 engine=soxr",
                      "mix input=\(busFile),gain=-6,pan=0.2 : gain -1",
                      "convert channels=1 : aec ref=\(busFile) : denoise : agc",
                      "gain -1 : tee \(teeFile) : tee \(teeFile).caf format=s16le",
                      "meter every=100ms to=/dev/null : gain -1 : meter",
                      // 1 s merges its columns once (750 of 800 in use at the end), 30 s six times.
                      "spectrogram plot=\(spectrogramFile) : gain -1",
                      "loudnorm target=-16 true-peak=-1.5 : loudnorm -23 range=20",
                      "delay 0,2.5ms : echo 100ms feedback=0.5 lowpass=3k extend=1 : reverb 50 pre-delay=10ms extend=1 : remix preset=ms-encode : remix 1,2 2",
                      "highpass 80 order=3 : notch 50 : eq peak,1k,gain=-3 lowshelf,100,gain=2 channels=1 : bass 3 : biquad b0=0.5",
                      // Dynamics: a side chain at another rate and channel count, a look-ahead. (plot= is
                      // left out: its SVG, written once at the end, is text of one element per point.)
                      "compressor -30 lookahead=5ms sidechain=\(busFile) : gate -60 hold=10ms : limiter -1 true-peak=1",
                      // Silence: 0.5 s of noise with its cuts, then a silence of 0.5 s or 29.5 s, counted, not
                      // stored. (Against a stream with more cuts the end's report, which lists them, is longer.)
                      "mix input=\(shortNoiseFile),gain=-6 : silence -14dB pause=10ms keep=4ms hold=0 events=/dev/null",
                      "ladspa amp_mono gain=0.5 : ladspa fastLookaheadLimiter limit_db=-3 : ladspa amp:amp_stereo gain=1.5",
                      "lv2 eg-amp gain=-3 : lv2 dpl#stereo threshold=-6 : lv2 dpl#mono"])
    func allocationsDoNotGrowWithTheStream(chain: String) throws {
        // A first run leaves what later runs find: the index of the installed plugins (LV2Index:
        // the first run of a plugin named by a word reads every bundle, later ones their own),
        // tee's files (a new file is checked by its directory, an existing one by itself).
        // Count two runs that both find them.
        _ = try allocations(chain, seconds: 1)
        let short = try allocations(chain, seconds: 1)
        let long = try allocations(chain, seconds: 30)
        // 30 s is 3000 blocks of 10 ms: one allocation per block would add thousands.
        #expect(abs(long - short) <= 4, "\(short) allocations for 1 s but \(long) for 30 s with chain '\(chain)'")
    }
}
