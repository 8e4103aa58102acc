import Foundation
import Testing

/// `fir` through the binary: equal to numpy's direct convolution, errors with their statuses,
/// and no allocation per block.
@Suite struct FIRTests {
    /// (taps, frames, block, response channels, stream channels): response lengths from 1 to
    /// 2^17 (every level of the partition plan, the last one with 31 partitions) and blocks
    /// from 1 to 4096, streams longer than the response so that every level contributes.
    static let cases: [(Int, Int, Int, Int, Int)] = [
        (1, 3000, 1, 1, 1), (100, 3000, 7, 1, 2), (129, 5000, 4096, 2, 2), (700, 6000, 1, 1, 1),
        (5000, 12000, 480, 2, 2), (40000, 50000, 4096, 1, 1), (1 << 17, 140_000, 4096, 1, 1),
    ]

    @Test(.needs("python3"), arguments: cases.indices)
    func equalsADirectConvolutionWithinMinus120dB(index: Int) throws {
        let (taps, frames, block, irChannels, channels) = Self.cases[index]
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Support/fir_reference.py").path
        let r = try CLI.shell("python3 '\(script)' \(taps) \(frames) \(block) \(irChannels) \(channels)", cwd: dir)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 0, "fir_reference.py failed: \(r.stderr)")
        let errors = text.split(separator: "=").last.map { $0.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } } ?? []
        #expect(errors.count == channels, "no error figures in '\(text)'")
        for (c, e) in errors.enumerated() {
            #expect(e <= -120, "\(taps) taps, block \(block), channel \(c): error \(e) dB of the output, over -120 dB")
        }
    }

    @Test func aMissingFileIsNoInputNamingThePath() throws {
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -t wav | \"$AUPIPE\" fir /nonexistent/room.wav > /dev/null")
        let message = r.stderr
        #expect(r.status == 66, "status \(r.status): \(message)")
        #expect(message.contains("/nonexistent/room.wav") && message.contains("fir"), "message: \(message)")
        #expect(message.split(separator: "\n").count == 1, "more than one line: \(message)")
    }

    @Test func aFileThatIsNotAudioIsADataErrorWithoutTheRawHint() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("notes.wav").path
        try Data("hello, not audio".utf8).write(to: URL(fileURLWithPath: path))
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 -t wav | \"$AUPIPE\" fir '\(path)' > /dev/null")
        #expect(r.status == 65, "status \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("fir: ") && r.stderr.contains("notes.wav") && r.stderr.contains("CAF, WAV or AU"), "message: \(r.stderr)")
        #expect(!r.stderr.contains("--in-format"), "the main input's hint in fir's message: \(r.stderr)")
    }

    @Test func aResponseWithAnotherChannelCountIsAUsageError() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ir = dir.appendingPathComponent("three.wav").path
        _ = try CLI.shell("\"$AUPIPE\" gen impulse duration=0.01 --out-format f32le:48000:3 -o '\(ir)'")
        let r = try CLI.shell("\"$AUPIPE\" gen sine duration=0.1 --out-format f32le:48000:2 -t wav | \"$AUPIPE\" fir '\(ir)' > /dev/null")
        let message = r.stderr
        #expect(r.status == 64, "status \(r.status): \(message)")
        #expect(message.contains("3 channels") && message.contains("2 channels"), "message: \(message)")
    }

    @Test func convolutionDoesNotAllocatePerBlock() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ir = dir.appendingPathComponent("room.wav").path
        _ = try CLI.shell("\"$AUPIPE\" gen noise duration=0.5 --out-format f32le:44100:2 -o '\(ir)'")
        let counter = AllocationTests()
        _ = try counter.allocations("fir \(ir) gain=-30 extend=1", seconds: 1)
        let short = try counter.allocations("fir \(ir) gain=-30 extend=1", seconds: 1)
        let long = try counter.allocations("fir \(ir) gain=-30 extend=1", seconds: 20)
        #expect(abs(long - short) <= 4, "\(short) allocations for 1 s but \(long) for 20 s")
    }
}
