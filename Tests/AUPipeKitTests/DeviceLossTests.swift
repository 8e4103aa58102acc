import Glibc
import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// What a lost device's errors say, and how `--reconnect` parses.
@Suite struct DeviceLossWordingTests {
    @Test func eachErrorSaysWhatHappened() {
        let cases: [(Int32, String, String)] = [
            (-ENODEV, "ENODEV", "was unplugged or disappeared (ENODEV)"),
            (-EBADFD, "EBADFD", "stopped in a state it cannot leave (EBADFD)"),
            (-ESTRPIPE, "ESTRPIPE", "stopped and did not resume after suspend (ESTRPIPE)"),
        ]
        for (err, code, what) in cases {
            let loss = DeviceLoss(err, option: "--capture", name: "hw:1", direction: .capture)
            #expect(loss.code == code && loss.what == what)
        }
        let stalled = DeviceLoss(stalledFor: 5, option: "--monitor", name: "mon", direction: .playback)
        #expect(stalled.code == "stalled" && stalled.what == "took nothing for 5 s (stuck, or taken away)")
        let e = DeviceLoss(-ENODEV, option: "--capture", name: "hw:1", direction: .capture).error(at: 12.34)
        #expect(e.status == .ioError && e.cause == .deviceLost(option: "--capture", device: "hw:1"))
        #expect(e.message.hasPrefix("--capture hw:1: the capture device was unplugged or disappeared (ENODEV) at 12.340 s; "), "\(e.message)")
        let late = DeviceLoss(-ENODEV, option: "--play", name: "spk", direction: .playback).notBack(at: 1, within: .milliseconds(300))
        #expect(late.status == .ioError && late.message == "--play spk: lost (ENODEV) at 1.000 s and did not come back within 300ms; the output ends there")
    }

    func options(_ args: [String]) throws -> PipelineOptions {
        guard case .run(_, let text) = try CommandLineParser.parse(args) else { throw AUPipeError.usage("not a run") }
        return try text.parsed()
    }

    @Test func reconnectTakesAnOptionalTimeout() throws {
        #expect(try options(["--capture", "hw:1", "--reconnect", "gain", "-1"]).reconnect == Reconnect(timeout: nil))
        #expect(try options(["--capture", "hw:1", "--reconnect=30s"]).reconnect == Reconnect(timeout: .seconds(30)))
        #expect(try options(["--monitor", "mon", "--reconnect=500ms"]).reconnect == Reconnect(timeout: .seconds(0.5)))
        #expect(try options(["--play", "spk", "--reconnect=2"]).reconnect == Reconnect(timeout: .seconds(2)))
        #expect(try options(["--capture", "hw:1"]).reconnect == nil)
        #expect(throws: AUPipeError.usage("--reconnect waits for a lost sound device to come back: give --capture, --monitor or --play")) {
            try options(["--reconnect", "gain", "-1"])
        }
        #expect(throws: AUPipeError.self) { try options(["--capture", "hw:1", "--reconnect=0"]) }
    }
}
